package teach

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// The TTL lesson's lab (teaching.TTLLab) on the node: lesson_ttl, a time series of the
// learners' readings in the server's keyspace, and lesson_ttl_runs, the cluster's count of the
// runs of the last minute (spendIn). Both are made at first use (IF NOT EXISTS, then schema
// agreement). The CQL is composed here from constants and the keyspace; every value a learner
// gives is bound to a marker.

const (
	// ttlTable is the lesson's time series.
	ttlTable = "lesson_ttl"
	// ttlRunsTable counts the runs of the cluster.
	ttlRunsTable = "lesson_ttl_runs"
	// ttlDefault is lesson_ttl's default_time_to_live: every row goes by itself.
	ttlDefault = 300
	// ttlGCGrace is lesson_ttl's gc_grace_seconds.
	ttlGCGrace = 3600
	// ttlRunsPerMinute bounds the runs of the whole cluster in any minute.
	ttlRunsPerMinute = 60
	// ttlPollEvery is how often a run asks the node whether the reading expired, and ttlSlack
	// how long after its TTL it waits at most.
	ttlPollEvery = 200 * time.Millisecond
	ttlSlack     = 3 * time.Second
	// ttlMaxLearner bounds the learner's key.
	ttlMaxLearner = 64
)

// ttlLab is the lab's state in this process.
type ttlLab struct {
	mu    sync.Mutex
	ready bool
	runs  int // ttlRunsPerMinute unless a test says otherwise
}

// SetTTLBudget sets how many runs the TTL lab allows a minute over the cluster.
func (s *Store) SetTTLBudget(runs int) { s.ttl.runs = runs }

// ttlSchema is the lesson's table: a reading per learner and time, bucketed by day, expiring
// by default, compacted in time windows.
func ttlSchema(ks string) string {
	return "CREATE TABLE IF NOT EXISTS " + ks + "." + ttlTable + " (learner text, day date, at timeuuid, reading int, note text, PRIMARY KEY ((learner, day), at))" +
		" WITH CLUSTERING ORDER BY (at DESC) AND default_time_to_live = " + strconv.Itoa(ttlDefault) + " AND gc_grace_seconds = " + strconv.Itoa(ttlGCGrace) +
		" AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'MINUTES', 'compaction_window_size': 1}"
}

// ensureTTL makes the lesson's two tables, once per process.
func (s *Store) ensureTTL(ctx context.Context, sess gocqlx.Session) error {
	s.ttl.mu.Lock()
	defer s.ttl.mu.Unlock()
	if s.ttl.ready {
		return nil
	}
	ks := s.Keyspace()
	for _, stmt := range []string{
		ttlSchema(ks),
		"CREATE TABLE IF NOT EXISTS " + ks + "." + ttlRunsTable + " (bucket text, at timeuuid, what text, PRIMARY KEY (bucket, at)) WITH default_time_to_live = 120",
	} {
		if err := sess.ContextQuery(ctx, stmt, nil).ExecRelease(); err != nil {
			return wrap("ttl lesson table", err)
		}
	}
	if err := sess.AwaitSchemaAgreement(ctx); err != nil {
		return wrap("ttl lesson schema agreement", err)
	}
	s.ttl.ready = true
	return nil
}

const stTTLOptions = "SELECT default_time_to_live, gc_grace_seconds, compaction FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?"

// TTLTable implements teaching.TTLLab.
func (s *Store) TTLTable(ctx context.Context) (teaching.TTLTable, error) {
	ks := s.Keyspace()
	t := teaching.TTLTable{Keyspace: ks, Name: ttlTable, CQL: ttlSchema(ks), Read: stTTLOptions}
	sess, err := s.sess()
	if err != nil {
		return t, err
	}
	if err := s.ensureTTL(ctx, sess); err != nil {
		return t, err
	}
	if err := sess.ContextQuery(ctx, stTTLOptions, nil).Bind(ks, ttlTable).Scan(&t.DefaultTTL, &t.GCGrace, &t.Compaction); err != nil {
		return t, wrap("ttl lesson options", err)
	}
	return t, nil
}

// RunTTL implements teaching.TTLLab.
func (s *Store) RunTTL(ctx context.Context, learner string, sc teaching.TTLScenario) (teaching.TTLRun, error) {
	if err := sc.Validate(); err != nil {
		return teaching.TTLRun{}, err
	}
	if learner == "" || len(learner) > ttlMaxLearner {
		return teaching.TTLRun{}, domain.Invalid("learner", "a key of 1 to %d bytes", ttlMaxLearner)
	}
	table, err := s.TTLTable(ctx)
	if err != nil {
		return teaching.TTLRun{}, err
	}
	sess, err := s.sess()
	if err != nil {
		return teaching.TTLRun{}, err
	}
	runs := ttlRunsPerMinute
	if s.ttl.runs > 0 {
		runs = s.ttl.runs
	}
	if _, wait, err := s.spendIn(ctx, sess, s.Keyspace()+"."+ttlRunsTable, "run", "ttl", runs); err != nil {
		return teaching.TTLRun{}, wrap("ttl lesson budget", err)
	} else if wait > 0 {
		return teaching.TTLRun{}, &LabBusyError{Why: fmt.Sprintf("the TTL lesson ran its %d runs of the minute on this cluster", runs), After: wait, Run: true}
	}
	start := time.Now()
	day := start.UTC().Format(time.DateOnly)
	at := gocql.UUIDFromTime(start)
	run := teaching.TTLRun{Table: table, Scenario: sc, Learner: learner, Day: day}
	name := s.Keyspace() + "." + ttlTable
	where := " WHERE learner = ? AND day = ? AND at = ?"
	key := []any{learner, day, at}
	exec := func(cql string, values ...any) error {
		t0 := time.Now()
		err := sess.ContextQuery(ctx, cql, nil).Bind(values...).ExecRelease()
		st := teaching.TTLStatement{CQL: cql, Values: texts(values), Took: time.Since(t0)}
		if err != nil {
			st.Error = err.Error()
		}
		run.Statements = append(run.Statements, st)
		return err
	}
	if err := exec("INSERT INTO "+name+" (learner, day, at, reading, note) VALUES (?, ?, ?, ?, ?) USING TTL ?", learner, day, at, 21, "inserted", sc.TTL); err != nil {
		return run, wrap("ttl lesson insert", err)
	}
	switch sc.Update {
	case teaching.UpdatePlain:
		err = exec("UPDATE "+name+" SET note = ?"+where, append([]any{"updated"}, key...)...)
	case teaching.UpdateTTL0:
		err = exec("UPDATE "+name+" USING TTL 0 SET note = ?"+where, append([]any{"updated"}, key...)...)
	}
	if err != nil {
		return run, wrap("ttl lesson update", err)
	}
	read := func(record bool) (teaching.TTLRead, error) {
		cql := "SELECT reading, note, TTL(reading), TTL(note), WRITETIME(reading), WRITETIME(note) FROM " + name + where
		t0 := time.Now()
		r := teaching.TTLRead{}
		iter := sess.ContextQuery(ctx, cql, nil).Bind(key...).Iter()
		r.Found = iter.Scan(&r.Reading, &r.Note, &r.TTLReading, &r.TTLNote, &r.WriteTimeReading, &r.WriteTimeNote)
		err := iter.Close()
		r.At = time.Since(start)
		if record {
			st := teaching.TTLStatement{CQL: cql, Values: texts(key), Took: time.Since(t0)}
			if err != nil {
				st.Error = err.Error()
			}
			run.Statements = append(run.Statements, st)
		}
		return r, err
	}
	if run.Before, err = read(true); err != nil {
		return run, wrap("ttl lesson read", err)
	}
	if sc.Wait {
		// Poll until the reading is gone: the node decides when, not a sleep of ours.
		deadline := time.NewTimer(time.Duration(sc.TTL)*time.Second + ttlSlack)
		defer deadline.Stop()
		tick := time.NewTicker(ttlPollEvery)
		defer tick.Stop()
	poll:
		for {
			select {
			case <-ctx.Done():
				return run, ctx.Err()
			case <-deadline.C:
				return run, fmt.Errorf("ttl lesson: the reading was still there %s after its TTL of %d s: %w", ttlSlack, sc.TTL, domain.ErrUnavailable)
			case <-tick.C:
				r, err := read(false) // a poll: counted in Polls, not listed
				if err != nil {
					return run, wrap("ttl lesson poll", err)
				}
				run.Polls = append(run.Polls, r)
				if !r.Found || r.Reading == nil {
					break poll
				}
			}
		}
		after, err := read(true)
		if err != nil {
			return run, wrap("ttl lesson read", err)
		}
		run.After = &after
		if run.Trace, err = s.traceRead(ctx, sess, &run, "SELECT reading, note FROM "+name+where, key); err != nil {
			return run, wrap("ttl lesson trace", err)
		}
	}
	if sc.Update == teaching.UpdateTTL0 {
		// The note of TTL 0 never expires: the lesson takes it away itself.
		if err := exec("DELETE FROM "+name+where, key...); err != nil {
			return run, wrap("ttl lesson delete", err)
		}
	}
	return run, nil
}

// stTraceEvents reads a trace's events. system_traces is replicated on two nodes by default:
// read at ONE, which a node alone answers.
const stTraceEvents = "SELECT activity FROM system_traces.events WHERE session_id = ?"

// traceReadCount is the event in which a read reports what it met (ReadCommand's trace).
var traceReadCount = regexp.MustCompile(`^Read (\d+) live (?:rows )?and (\d+) tombstone cells`)

// traceTook bounds how long a run waits for its trace's events (the node writes them
// asynchronously), and tracePollEvery is how often it asks.
const (
	traceTook      = 3 * time.Second
	tracePollEvery = 100 * time.Millisecond
)

// tracer keeps the id of a traced statement's session.
type tracer struct{ id []byte }

func (t *tracer) Trace(id []byte) { t.id = id }

// traceRead sends cql with tracing on and polls the trace's events until the node's count of
// live rows and tombstone cells is among them, within traceTook; nil when it is not by then.
func (s *Store) traceRead(ctx context.Context, sess gocqlx.Session, run *teaching.TTLRun, cql string, key []any) (*teaching.TTLTrace, error) {
	var tr tracer
	t0 := time.Now()
	q := sess.ContextQuery(ctx, cql, nil).Bind(key...)
	q.Trace(&tr)
	err := q.Iter().Close()
	run.Statements = append(run.Statements, teaching.TTLStatement{CQL: cql, Values: texts(key), Took: time.Since(t0), Traced: true})
	if err != nil || tr.id == nil {
		return nil, err
	}
	id := gocql.UUID(tr.id)
	run.Statements = append(run.Statements, teaching.TTLStatement{CQL: stTraceEvents, Values: []string{id.String()}})
	deadline := time.NewTimer(traceTook)
	defer deadline.Stop()
	tick := time.NewTicker(tracePollEvery)
	defer tick.Stop()
	for {
		var events []string
		if err := sess.ContextQuery(ctx, stTraceEvents, nil).Bind(id).Consistency(gocql.One).SelectRelease(&events); err != nil {
			return nil, err
		}
		for _, e := range events {
			if m := traceReadCount.FindStringSubmatch(e); m != nil {
				live, _ := strconv.Atoi(m[1])
				tombs, _ := strconv.Atoi(m[2])
				return &teaching.TTLTrace{Events: events, Live: live, Tombstones: tombs}, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline.C:
			return nil, nil
		case <-tick.C:
		}
	}
}

// texts are bound values as text.
func texts(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		switch v := v.(type) {
		case string:
			out[i] = strconv.Quote(v)
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return out
}
