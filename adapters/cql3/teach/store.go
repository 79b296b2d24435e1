// Package teach is the cql3 adapter's part of the teaching room (ports/teaching), on the tables
// and the session of a cql3.Store: the partition inspector, where a record lives, the partition
// lessons' sizes, the uniqueness race's sandbox (race_names), the action ledger
// (action_records), the learners' progress (course_progress), the query lab's scratch keyspace,
// the ring of the driver's token metadata and the consistency levels tried on the cluster. The product's store (package cql3) serves the
// domain's ports without it.
package teach

import (
	"context"
	"log/slog"
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"
	"github.com/scylladb/gocqlx/v2"
	"github.com/scylladb/gocqlx/v2/qb"
	"go.uber.org/fx"

	"twissandra/adapters/cql3"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// Store is the teaching side of a cql3.Store: it implements teaching.Locator,
// teaching.CQLInspector, teaching.RowSizer, teaching.NameClaims, teaching.ActionLedger,
// teaching.ProgressStore, teaching.QueryLab, teaching.Ring, teaching.ClusterLevels, and the
// labs of the lessons on the model after 2014: teaching.IndexLab, teaching.AddressBookLab,
// teaching.CounterLab, teaching.TTLLab and teaching.NodeViews.
type Store struct {
	store *cql3.Store
	// lab is the query lab's scratch tables and its sessions' trials (querylab.go).
	lab queryLab
	// ttl is the TTL lesson's tables (ttl.go).
	ttl ttlLab
	// counters is the counters lesson's table and its learners' runs (counters.go).
	counters counterLab
	// idx is the index lab's tables and its learners' runs (indexes.go).
	idx indexLab
	// stamp times the learners' progress (progress.go): strictly increasing in this process.
	stamp *domain.Stamper
	// book is the collections lesson's lab (addressbook.go).
	book addressBook
}

// New teaches on s, which must be started (Start or Open) before the first call, as for its
// ports.
func New(s *cql3.Store) *Store {
	return &Store{store: s, stamp: domain.NewStamper(domain.SystemClock{}), book: addressBook{runs: trialLimiter{max: addressBookRuns}}}
}

// Keyspace is the keyspace of the store.
func (s *Store) Keyspace() string { return s.store.Keyspace() }

func (s *Store) sess() (gocqlx.Session, error) { return s.store.Session() }

// stmt is a statement's CQL and the names of its bind markers.
type stmt struct {
	cql   string
	names []string
}

func mk(cql string, names []string) stmt { return stmt{cql: cql, names: names} }

func query(ctx context.Context, sess gocqlx.Session, st stmt, m qb.M) *gocqlx.Queryx {
	return sess.ContextQuery(ctx, st.cql, st.names).BindMap(m)
}

func wrap(op string, err error) error { return cql3.Wrap(op, err) }

func ttlSeconds(d time.Duration) int { return max(1, int((d+time.Second-1)/time.Second)) }

// gu converts to the driver's UUID type (same bytes), which it knows how to marshal.
func gu(u uuid.UUID) gocql.UUID { return gocql.UUID(u) }

// Module provides the cql3 adapter's teaching collaborators on the Store that cql3.Module
// provides: optional beside it, as a backend's teaching is.
var Module = fx.Module("cql3-teach",
	fx.Provide(
		fx.Annotate(New, fx.As(fx.Self()),
			fx.As(new(teaching.Locator)), fx.As(new(teaching.CQLInspector)), fx.As(new(teaching.NameClaims)), fx.As(new(teaching.RowSizer)),
			fx.As(new(teaching.ActionLedger)), fx.As(new(teaching.ProgressStore)), fx.As(new(teaching.QueryLab)), fx.As(new(teaching.Ring)), fx.As(new(teaching.ClusterLevels)),
			fx.As(new(teaching.TTLLab)),
			fx.As(new(teaching.AddressBookLab)),
			fx.As(new(teaching.CounterLab)),
			fx.As(new(teaching.IndexLab))),
		// The write and read paths lesson: the node's virtual tables around a learner's write.
		func(s *Store) teaching.NodeViews { return s },
		// The CQL console, one per process on the Store, in the backends' consoles.
		provideConsole,
		fx.Annotate(func(c *Console) teaching.Console { return c }, fx.ResultTags(`group:"consoles"`)),
	),
	fx.Invoke(runSweeps),
)

// consoleIn is what the console's provider takes: the Store, and the bounds where the
// application gives them (DefaultConsoleConfig otherwise).
type consoleIn struct {
	fx.In
	Store  *Store
	Config *ConsoleConfig `optional:"true"`
}

func provideConsole(in consoleIn) *Console {
	var cfg ConsoleConfig
	if in.Config != nil {
		cfg = *in.Config
	}
	return NewConsole(in.Store, cfg)
}

// runSweeps sweeps the query lab's tables and the console's idle sandboxes every labSweepEvery
// while the server runs, so that a table nobody uses goes on time, whatever servers come and go
// (SweepLab, Console.Sweep).
func runSweeps(lc fx.Lifecycle, s *Store, console *Console, logger *slog.Logger) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				tick := time.NewTicker(labSweepEvery)
				defer tick.Stop()
				for {
					select {
					case <-ctx.Done():
						return
					case <-tick.C:
					}
					dropped, err := s.SweepLab(ctx)
					switch {
					case err != nil && ctx.Err() == nil:
						logger.Warn("query lab: sweep", "err", err)
					case len(dropped) > 0:
						logger.Info("query lab: dropped the tables nobody tried for an hour", "tables", dropped)
					}
					n, err := console.Sweep(ctx, time.Now())
					switch {
					case err != nil && ctx.Err() == nil:
						logger.Warn("cql console: sweep", "err", err)
					case n > 0:
						logger.Info("cql console: dropped the idle sandboxes", "sandboxes", n, "idle", console.Config().Idle)
					}
				}
			}()
			return nil
		},
		OnStop: func(context.Context) error {
			cancel()
			<-done
			return nil
		},
	})
}
