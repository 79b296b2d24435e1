package teach

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2"

	"twissandra/adapters/cql3"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// The counters lesson's table (teaching.CounterLab) on the real node: a tweet's likes, a counter
// column, in the server's keyspace, made at its first use (IF NOT EXISTS, then schema
// agreement). A learner's rows are their partition; each run writes a row of its own, reads it
// back and deletes it, so the table holds nothing between runs. The runs are bounded as the
// query lab's trials are: a learner's on a server by the lab's limiter, and every server's
// together by a bucket of the lab's budget (lab_changes), counterRuns a minute.

const (
	counterTable = "lesson_likes"
	// counterRuns bounds the runs of every server together in any minute.
	counterRuns = 30
	// counterAckTimeout is the driver's timeout of a request on the link that loses an answer:
	// the lost one never comes, so the driver gives up on it after this long, and retries.
	counterAckTimeout = time.Second
)

// counterLab is this process's state of the lesson's table.
type counterLab struct {
	mu     sync.Mutex
	ready  bool // the table exists
	runs   int  // counterRuns unless a test says otherwise
	trials trialLimiter
}

func (s *Store) counterSchema() string {
	return "CREATE TABLE IF NOT EXISTS " + s.Keyspace() + "." + counterTable +
		" (learner text, tweet text, likes counter, PRIMARY KEY (learner, tweet))"
}

// Schema implements teaching.CounterLab.
func (s *Store) Schema() string { return s.counterSchema() }

func (s *Store) counterCQL() (incr, read, del string) {
	t := s.Keyspace() + "." + counterTable
	return "UPDATE " + t + " SET likes = likes + 1 WHERE learner = ? AND tweet = ?",
		"SELECT likes FROM " + t + " WHERE learner = ? AND tweet = ?",
		"DELETE FROM " + t + " WHERE learner = ? AND tweet = ?"
}

// beginCounterRun checks the learner's limit and the cluster's budget, makes the table on first
// use, and names the run's row.
func (s *Store) beginCounterRun(ctx context.Context, learner string) (gocqlx.Session, teaching.CounterRun, error) {
	run := teaching.CounterRun{Table: s.Keyspace() + "." + counterTable, Learner: learner}
	if learner == "" {
		return gocqlx.Session{}, run, domain.Invalid("learner", "a counter run needs a learner")
	}
	sess, err := s.sess()
	if err != nil {
		return sess, run, err
	}
	if !s.counters.trials.allow(learner, time.Now()) {
		return sess, run, teaching.ErrTooManyTrials
	}
	runs := counterRuns
	if s.counters.runs > 0 {
		runs = s.counters.runs
	}
	if err := s.spendRun(ctx, sess, "counter", "the counters lesson", runs); err != nil {
		return sess, run, err
	}
	if err := s.ensureCounters(ctx, sess); err != nil {
		return sess, run, err
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	run.Tweet = "tweet-" + hex.EncodeToString(b)
	return sess, run, nil
}

// ensureCounters makes the lesson's table, once per process.
func (s *Store) ensureCounters(ctx context.Context, sess gocqlx.Session) error {
	l := &s.counters
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ready {
		return nil
	}
	if err := sess.ContextQuery(ctx, s.counterSchema(), nil).ExecRelease(); err != nil {
		return wrap("counter table", err)
	}
	if err := sess.AwaitSchemaAgreement(ctx); err != nil {
		return wrap("counter table schema agreement", err)
	}
	l.ready = true
	return nil
}

// SetCounterBudget sets how many counter runs every server together may make in any minute
// (counterRuns unless set), as SetLabBudget does for the query lab's tables.
func (s *Store) SetCounterBudget(runs int) { s.counters.runs = runs }

// finishCounterRun reads the run's counter back and deletes its row, recording both.
func (s *Store) finishCounterRun(ctx context.Context, sess gocqlx.Session, run *teaching.CounterRun) error {
	_, read, del := s.counterCQL()
	start := time.Now()
	var likes []int64
	err := sess.ContextQuery(ctx, read, nil).Bind(run.Learner, run.Tweet).SelectRelease(&likes)
	run.Statements = append(run.Statements, teaching.LabStatement{CQL: read, Took: time.Since(start), Rows: len(likes)})
	if err != nil {
		return wrap("counter read", err)
	}
	if len(likes) > 0 {
		run.Count = likes[0]
	}
	start = time.Now()
	err = sess.ContextQuery(context.WithoutCancel(ctx), del, nil).Bind(run.Learner, run.Tweet).ExecRelease()
	run.Statements = append(run.Statements, teaching.LabStatement{CQL: del, Took: time.Since(start), Rows: -1})
	return wrap("counter delete", err)
}

// Increments implements teaching.CounterLab: clients goroutines, each its own statements on the
// store's session, add 1 each times to the run's row at once.
func (s *Store) Increments(ctx context.Context, learner string, clients, each int) (teaching.CounterRun, error) {
	if clients < 1 || clients > teaching.MaxCounterClients || each < 1 || each > teaching.MaxCounterEach {
		return teaching.CounterRun{}, domain.Invalid("clients", "1 to %d clients, each adding 1 from 1 to %d times", teaching.MaxCounterClients, teaching.MaxCounterEach)
	}
	sess, run, err := s.beginCounterRun(ctx, learner)
	if err != nil {
		return run, err
	}
	incr, _, _ := s.counterCQL()
	var answered atomic.Int64
	errs := make([]error, clients)
	start := time.Now()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if err := sess.ContextQuery(ctx, incr, nil).Bind(run.Learner, run.Tweet).ExecRelease(); err != nil {
					errs[c] = err
					return
				}
				answered.Add(1)
			}
		}()
	}
	wg.Wait()
	run.Meant, run.Sent, run.Answered = clients*each, clients*each, int(answered.Load())
	run.Statements = append(run.Statements, teaching.LabStatement{CQL: incr, Took: time.Since(start), Rows: -1})
	if err := errors.Join(errs...); err != nil {
		run.Statements[0].Error = "error"
		return run, wrap("counter increment", err)
	}
	return run, s.finishCounterRun(ctx, sess, &run)
}

// retryOnce is the driver's retry of the increment whose answer is lost: once, on the same
// node (a one-node cluster has no next host to try).
type retryOnce struct{}

func (retryOnce) Attempt(q gocql.RetryableQuery) bool { return q.Attempts() <= 1 }
func (retryOnce) GetRetryType(error) gocql.RetryType  { return gocql.Retry }
func (retryOnce) String() string                      { return "retry once on the same node" }

// attemptLog keeps the driver's observation of each attempt of the increments of one session.
type attemptLog struct {
	mu       sync.Mutex
	attempts []gocql.ObservedQuery
}

func (a *attemptLog) ObserveQuery(_ context.Context, q gocql.ObservedQuery) {
	if !strings.HasPrefix(q.Statement, "UPDATE ") {
		return
	}
	a.mu.Lock()
	a.attempts = append(a.attempts, q)
	a.mu.Unlock()
}

// LostAck implements teaching.CounterLab: a session of its own whose connections run through a
// lossyLink, which forwards every frame but drops the node's answer to the first request that
// carries the run's row key. The node applies that increment and answers; the driver, hearing
// nothing, times out after counterAckTimeout and, the statement marked idempotent, sends it
// again; the node applies it a second time.
func (s *Store) LostAck(ctx context.Context, learner string, increments int) (teaching.CounterRun, error) {
	if increments < 1 || increments > teaching.MaxCounterIncrement {
		return teaching.CounterRun{}, domain.Invalid("increments", "1 to %d increments", teaching.MaxCounterIncrement)
	}
	sess, run, err := s.beginCounterRun(ctx, learner)
	if err != nil {
		return run, err
	}
	link := &lossyLink{marker: []byte(run.Tweet)}
	attempts := &attemptLog{}
	det, err := s.store.DetourSession(link, counterAckTimeout, attempts)
	if err != nil {
		return run, wrap("counter lab link", err)
	}
	defer det.Close()
	incr, _, _ := s.counterCQL()
	start := time.Now()
	run.Meant = increments
	var lastErr error
	for i := range increments {
		q := det.ContextQuery(ctx, incr, nil).Bind(run.Learner, run.Tweet)
		if i == 0 {
			link.arm()
			q.Idempotent(true)
			q.RetryPolicy(retryOnce{})
		}
		if err := q.ExecRelease(); err != nil {
			lastErr = err
			continue
		}
		run.Answered++
	}
	run.Statements = append(run.Statements, teaching.LabStatement{CQL: incr, Took: time.Since(start), Rows: -1})
	attempts.mu.Lock()
	run.Sent = len(attempts.attempts)
	for i, a := range attempts.attempts {
		if i > 1 {
			break
		}
		outcome := "answered: applied"
		if a.Err != nil {
			outcome = "no answer: " + a.Err.Error()
		}
		run.Attempts = append(run.Attempts, fmt.Sprintf("attempt %d: %s (%d ms)", a.Attempt+1, outcome, a.End.Sub(a.Start).Milliseconds()))
	}
	attempts.mu.Unlock()
	run.Lost = link.lost()
	if lastErr != nil {
		run.Statements[0].Error = "error"
		return run, wrap("counter increment", lastErr)
	}
	return run, s.finishCounterRun(ctx, sess, &run)
}

// Mixed implements teaching.CounterLab: each statement sent as it is, and the node's answer.
func (s *Store) Mixed(ctx context.Context, learner string) ([]teaching.LabStatement, error) {
	sess, run, err := s.beginCounterRun(ctx, learner)
	if err != nil {
		return nil, err
	}
	ks, t := s.Keyspace(), s.Keyspace()+"."+counterTable
	lab := cql3.LabKeyspace(ks)
	type try struct {
		cql  string
		args []any
		drop string // what to drop should the node accept it
	}
	tries := []try{
		{cql: "CREATE TABLE IF NOT EXISTS " + ks + ".lesson_likes_and_body (tweet text PRIMARY KEY, likes counter, body text)",
			drop: "DROP TABLE IF EXISTS " + ks + ".lesson_likes_and_body"},
		{cql: "BEGIN UNLOGGED BATCH UPDATE " + t + " SET likes = likes + 1 WHERE learner = ? AND tweet = ?; INSERT INTO " + lab +
			".lab_changes (bucket, at, what) VALUES ('mixed', now(), 'a counter and a text in one batch') APPLY BATCH", args: []any{run.Learner, run.Tweet}},
		{cql: "BEGIN BATCH UPDATE " + t + " SET likes = likes + 1 WHERE learner = ? AND tweet = ? APPLY BATCH", args: []any{run.Learner, run.Tweet}},
		{cql: "UPDATE " + t + " SET likes = 5 WHERE learner = ? AND tweet = ?", args: []any{run.Learner, run.Tweet}},
		{cql: "UPDATE " + t + " SET likes = likes + 1 WHERE learner = ? AND tweet = ? IF likes = 0", args: []any{run.Learner, run.Tweet}},
	}
	var out []teaching.LabStatement
	for _, tr := range tries {
		start := time.Now()
		err := sess.ContextQuery(ctx, tr.cql, nil).Bind(tr.args...).ExecRelease()
		st := teaching.LabStatement{CQL: tr.cql, Took: time.Since(start), Rows: -1}
		if msg, refused := refusal(err); refused {
			st.Error = "InvalidRequest: " + msg
		} else if err != nil {
			return out, wrap("counter lab", err)
		} else if tr.drop != "" {
			_ = sess.ContextQuery(ctx, tr.drop, nil).ExecRelease()
		}
		out = append(out, st)
	}
	// Whatever the node accepted of the row, the row goes.
	_, _, del := s.counterCQL()
	_ = sess.ContextQuery(context.WithoutCancel(ctx), del, nil).Bind(run.Learner, run.Tweet).ExecRelease()
	return out, nil
}

// lossyLink dials the node and forwards every frame of the native protocol (version 4: a
// header of 9 bytes, its stream at 2, its opcode at 4, the body's length at 5), but for one:
// once armed, the node's answer to the next request whose body carries marker (the run's row
// key, among the bound values) is read and dropped, as a network that loses it would.
type lossyLink struct {
	marker []byte
	mu     sync.Mutex
	armed  bool
	gone   []string
}

func (l *lossyLink) arm() {
	l.mu.Lock()
	l.armed = true
	l.mu.Unlock()
}

func (l *lossyLink) lost() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.gone...)
}

// DialContext implements gocql.Dialer.
func (l *lossyLink) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &lossyConn{Conn: c, link: l, drop: map[uint16]bool{}}, nil
}

const frameHeader = 9

// opcodes of the native protocol.
var opcodes = map[byte]string{0x00: "ERROR", 0x08: "RESULT", 0x07: "QUERY", 0x0A: "EXECUTE", 0x0D: "BATCH"}

type lossyConn struct {
	net.Conn
	link *lossyLink
	wmu  sync.Mutex
	wbuf []byte          // the start of a frame not yet written whole
	drop map[uint16]bool // the streams whose answer to drop
	rbuf []byte          // what Read still owes of a frame it forwards
}

func (c *lossyConn) Write(b []byte) (int, error) {
	c.wmu.Lock()
	c.wbuf = append(c.wbuf, b...)
	for len(c.wbuf) >= frameHeader {
		n := frameHeader + int(binary.BigEndian.Uint32(c.wbuf[5:9]))
		if len(c.wbuf) < n {
			break
		}
		frame := c.wbuf[:n]
		if op := frame[4]; op == 0x07 || op == 0x0A || op == 0x0D {
			c.link.mu.Lock()
			if c.link.armed && bytes.Contains(frame[frameHeader:], c.link.marker) {
				c.link.armed = false
				c.drop[binary.BigEndian.Uint16(frame[2:4])] = true
			}
			c.link.mu.Unlock()
		}
		c.wbuf = c.wbuf[n:]
	}
	c.wmu.Unlock()
	return c.Conn.Write(b)
}

func (c *lossyConn) Read(p []byte) (int, error) {
	for len(c.rbuf) == 0 {
		head := make([]byte, frameHeader)
		if _, err := io.ReadFull(c.Conn, head); err != nil {
			return 0, err
		}
		frame := make([]byte, frameHeader+int(binary.BigEndian.Uint32(head[5:9])))
		copy(frame, head)
		if _, err := io.ReadFull(c.Conn, frame[frameHeader:]); err != nil {
			return 0, err
		}
		stream := binary.BigEndian.Uint16(head[2:4])
		c.wmu.Lock()
		dropped := c.drop[stream]
		delete(c.drop, stream)
		c.wmu.Unlock()
		if dropped {
			c.link.mu.Lock()
			c.link.gone = append(c.link.gone, fmt.Sprintf("the node's %s to the first increment (stream %d), %d bytes: the node applied it and answered; the link dropped the answer", opcodes[head[4]], stream, len(frame)))
			c.link.mu.Unlock()
			continue
		}
		c.rbuf = frame
	}
	n := copy(p, c.rbuf)
	c.rbuf = c.rbuf[n:]
	return n, nil
}
