// Package cql3 stores Twissandra and the blog in CQL3 tables on a real Apache Cassandra (or
// ScyllaDB) cluster, through gocql and gocqlx v2.
//
// The schema lives in migrations/*.cql, embedded in the binary and applied with gocqlx's
// migrate package after the keyspace has been created from the configuration. Every statement
// is prepared (the driver prepares each query text once per connection) and takes its values as
// bound parameters; CQL is never built from data.
package cql3

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2"

	"twissandra/adapters/internal/lastcount"
	"twissandra/domain"
)

//go:embed migrations/*.cql
var migrationFiles embed.FS

// Migrations are the schema's .cql files, in the order they apply.
func Migrations() fs.FS {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		panic(err) // the directory is embedded: it exists
	}
	return sub
}

// Store implements every storage port (users, tweets, lines and the blog's four) over one
// driver session. It is usable after Start (or Open) and until Close; before and after, every
// method returns domain.ErrUnavailable.
type Store struct {
	cfg     settings
	logger  *slog.Logger
	linesID domain.LinesID

	session atomic.Pointer[gocqlx.Session]
	// migrations are the schema Start applies; nil: all of Migrations() (a test may stop at an
	// older schema, to upgrade from it).
	migrations fs.FS
	mu         sync.Mutex // serialises Start and Close

	// publicDays holds the days (Unix seconds of UTC midnight) this process has recorded in
	// public_days, so a day's row is written once per process, not once per tweet (that would
	// make public_days the hot partition the bucketing avoids). A day a year: it stays tiny.
	publicDays sync.Map
	// publicNewest is the newest day (Unix seconds) known to hold public tweets, and
	// publicNewestAt when public_days was last read for it (Unix nanoseconds, 0: never).
	publicNewest, publicNewestAt atomic.Int64

	// lwtLocks queues this process's compare-and-set loops on one author's post count behind
	// each other: Paxos then sees one proposer per process instead of dozens contending.
	lwtLocks keyLocks
	// pulled is this process's copy of the pulled authors and of its readers' follows among
	// them (fanout.go).
	pulled pulledCache
	// counts are the follower counts this process last wrote, by followed user: written and
	// read under the user's lwtLocks lock, so that a follow of an author this process
	// serialises costs one Paxos round (the conditional batch), not two (a serial read first).
	counts lastcount.Counts
	// ring is what the driver knows of the cluster's hosts and their tokens (hosts.go).
	ring atomic.Pointer[ringWatch]
}

// New checks cfg and returns a Store that is not connected yet (see Start).
func New(cfg Config) (*Store, error) {
	s, err := cfg.settings()
	if err != nil {
		return nil, err
	}
	return &Store{cfg: s, logger: slog.New(slog.DiscardHandler), linesID: domain.NewLinesID()}, nil
}

// LinesID names the store's lines for what a server keeps of them between pages.
func (s *Store) LinesID() domain.LinesID { return s.linesID }

// Open is New and Start: a connected, migrated Store.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if err := s.Start(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// SetLogger sets where Start reports its attempts.
func (s *Store) SetLogger(l *slog.Logger) {
	if l != nil {
		s.logger = l
	}
}

// Keyspace is the keyspace the Store uses.
func (s *Store) Keyspace() string { return s.cfg.Keyspace }

// Consistency is the consistency level the session's statements run at (LOCAL_QUORUM unless
// configured).
func (s *Store) Consistency() string { return s.cfg.consistency.String() }

// Start connects, creates the keyspace if it is missing and applies the migrations. A cluster
// that does not answer yet (a cold start) is retried until StartTimeout or ctx ends.
func (s *Store) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session.Load() != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.StartTimeout)
	defer cancel()
	var sess gocqlx.Session
	err := s.retry(ctx, "create keyspace", func() error {
		return s.createKeyspace(ctx)
	})
	if err == nil {
		err = s.retry(ctx, "connect", func() error {
			var err error
			sess, err = s.connect(s.cfg.Keyspace)
			return err
		})
	}
	if err != nil {
		return fmt.Errorf("cql3: start: %w", mapErr(err))
	}
	migrations := s.migrations
	if migrations == nil {
		migrations = Migrations()
	}
	if err := s.migrateLeased(ctx, sess, migrations); err != nil {
		sess.Close()
		return fmt.Errorf("cql3: migrate keyspace %s: %w", s.cfg.Keyspace, mapErr(err))
	}
	s.session.Store(&sess)
	s.logger.Info("cql3 store ready", "hosts", s.cfg.Hosts, "keyspace", s.cfg.Keyspace)
	return nil
}

// retry runs op until it succeeds, ctx ends, or it fails in a way waiting cannot cure.
func (s *Store) retry(ctx context.Context, what string, op func() error) error {
	backoff := 200 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := op()
		if err == nil {
			return nil
		}
		if !errors.Is(mapErr(err), domain.ErrUnavailable) {
			return err
		}
		s.logger.Warn("cql3: cluster not reachable yet", "step", what, "attempt", attempt, "err", err)
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (after %d attempts: %w)", ctx.Err(), attempt, err)
		case <-t.C:
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

func (s *Store) connect(keyspace string) (gocqlx.Session, error) {
	c, err := s.cfg.cluster(keyspace)
	if err != nil {
		return gocqlx.Session{}, err
	}
	c.Logger = driverLogger{s.logger}
	if keyspace != "" { // the main session: its hosts and their tokens are the ring (hosts.go)
		w := &ringWatch{HostSelectionPolicy: c.PoolConfig.HostSelectionPolicy, hosts: map[string]*gocql.HostInfo{}}
		c.PoolConfig.HostSelectionPolicy = w
		s.ring.Store(w)
	}
	return gocqlx.WrapSession(c.CreateSession())
}

// createKeyspace runs CREATE KEYSPACE IF NOT EXISTS on a session of its own (the main session
// names the keyspace, which must exist first). The statement is the one place where CQL text is
// composed: keyspace names and replication maps cannot be bound, so both come from validated
// settings only (see Config and ParseReplication).
func (s *Store) createKeyspace(ctx context.Context) error {
	sess, err := s.connect("")
	if err != nil {
		return err
	}
	defer sess.Close()
	stmt := fmt.Sprintf("CREATE KEYSPACE IF NOT EXISTS %s WITH replication = %s AND durable_writes = true",
		s.cfg.Keyspace, s.cfg.replication.CQL())
	if err := sess.ContextQuery(ctx, stmt, nil).ExecRelease(); err != nil {
		return err
	}
	return sess.AwaitSchemaAgreement(ctx)
}

// Close ends the session. Afterwards every method returns domain.ErrUnavailable.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess := s.session.Swap(nil); sess != nil {
		sess.Close()
	}
	return nil
}

// errNotStarted is what every method says before Start and after Close.
var errNotStarted = fmt.Errorf("cql3: the store is not connected: %w", domain.ErrUnavailable)

func (s *Store) sess() (gocqlx.Session, error) {
	p := s.session.Load()
	if p == nil {
		return gocqlx.Session{}, errNotStarted
	}
	return *p, nil
}

// pingTimeout bounds Ping: a readiness probe must answer fast.
const pingTimeout = 2 * time.Second

// Ping asks the cluster for the cheapest answer there is.
func (s *Store) Ping(ctx context.Context) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, min(pingTimeout, s.cfg.Timeout))
	defer cancel()
	var now gocql.UUID
	q := s.AtLevel(sess.ContextQuery(ctx, "SELECT now() FROM system.local", nil), gocql.One)
	if err := q.GetRelease(&now); err != nil {
		return wrap("ping", err)
	}
	return nil
}

// wrap names the operation and maps the driver's error onto the domain's sentinels.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("cql3: %s: %w", op, mapErr(err))
}

// mapErr keeps err and adds the domain sentinel it means, so that both errors.Is(err,
// domain.ErrUnavailable) and errors.As(err, &*gocql.RequestErrUnavailable) hold.
func mapErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, domain.ErrNotFound), errors.Is(err, domain.ErrUnavailable),
		errors.Is(err, domain.ErrAlreadyExists), errors.Is(err, domain.ErrInvalid):
		return err
	case errors.Is(err, gocql.ErrNotFound):
		return fmt.Errorf("%w: %w", domain.ErrNotFound, err)
	case unavailable(err):
		return fmt.Errorf("%w: %w", domain.ErrUnavailable, err)
	}
	return err
}

// unavailable tells the errors that mean "the cluster cannot answer now; retrying later may
// work": no replicas or connections, timeouts, overload, a node still starting.
func unavailable(err error) bool {
	switch {
	// The driver reports a connection that dies under a request as context.Canceled (the
	// connection's own context). A caller's cancellation lands here too: nobody reads that
	// answer.
	case errors.Is(err, context.Canceled),
		errors.Is(err, gocql.ErrNoConnections), errors.Is(err, gocql.ErrNoConnectionsStarted),
		errors.Is(err, gocql.ErrTimeoutNoResponse), errors.Is(err, gocql.ErrConnectionClosed),
		errors.Is(err, gocql.ErrSessionClosed), errors.Is(err, gocql.ErrNoStreams),
		errors.Is(err, gocql.ErrTooManyTimeouts), errors.Is(err, gocql.ErrHostQueryFailed),
		errors.Is(err, gocql.ErrUnavailable), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		// A connection the peer closes under a request surfaces as the read's EOF.
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.EPIPE):
		return true
	}
	var (
		unavail  *gocql.RequestErrUnavailable
		wTimeout *gocql.RequestErrWriteTimeout
		rTimeout *gocql.RequestErrReadTimeout
		casUnkn  *gocql.RequestErrCASWriteUnknown
		netErr   net.Error
		reqErr   gocql.RequestError
	)
	switch {
	case errors.As(err, &unavail), errors.As(err, &wTimeout), errors.As(err, &rTimeout),
		errors.As(err, &casUnkn), errors.As(err, &netErr):
		return true
	case errors.As(err, &reqErr):
		switch reqErr.Code() {
		case gocql.ErrCodeUnavailable, gocql.ErrCodeOverloaded, gocql.ErrCodeBootstrapping,
			gocql.ErrCodeWriteTimeout, gocql.ErrCodeReadTimeout:
			return true
		}
	}
	// CreateSession reports an unreachable cluster as plain text around the dial error.
	return isDialFailure(err)
}

// isDialFailure recognises the driver's "could not reach any contact point" error, which it
// formats with %v (losing the dial error's type). Refused credentials and certificates are
// not a failure to reach: waiting cannot cure them.
func isDialFailure(err error) bool {
	msg := strings.ToLower(err.Error())
	if strings.Contains(msg, "auth") || strings.Contains(msg, "certificate") || strings.Contains(msg, "tls:") {
		return false
	}
	return strings.Contains(msg, "unable to connect to initial hosts") ||
		strings.Contains(msg, "unable to discover protocol version") ||
		strings.Contains(msg, "connection refused") || strings.Contains(msg, "no route to host") ||
		strings.Contains(msg, "i/o timeout")
}

// driverLogger sends the driver's own messages (reconnections, dropped hosts) to slog at
// debug level.
type driverLogger struct{ l *slog.Logger }

func (d driverLogger) Print(v ...any) {
	d.l.Debug(strings.TrimSpace(fmt.Sprint(v...)), "component", "gocql")
}
func (d driverLogger) Printf(format string, v ...any) {
	d.l.Debug(strings.TrimSpace(fmt.Sprintf(format, v...)), "component", "gocql")
}
func (d driverLogger) Println(v ...any) {
	d.l.Debug(strings.TrimSpace(fmt.Sprintln(v...)), "component", "gocql")
}
