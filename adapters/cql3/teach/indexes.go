package teach

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"
	"github.com/scylladb/gocqlx/v2"

	"twissandra/ports/teaching"
)

// The lesson on finding a user four ways (teaching.IndexLab) on the real node: a base table
// keyed by the user's id per way, in the server's keyspace, made at the lab's first use (IF NOT
// EXISTS, then schema agreement), and a run that writes the learner's user into each and finds
// it by name, every write and read traced (system_traces). The CQL is composed here from the
// keyspace (validated settings) and the learner's name, which is a username (word characters
// only) and is written as a literal, so that the statement shown is the statement sent.
//
// Bounds: a learner runs the lab labTrials times a minute on a server (as the query lab's keys), the cluster
// idxRunsPerMinute times a minute over every server (the query lab's budget table, lab_changes,
// under a bucket of its own), and every row expires after idxTTL: the lab's tables hold at most
// the rows of an hour of runs.

const (
	idxRunsPerMinute = 30
	idxTTL           = time.Hour
	// idxTraceWait bounds the wait for a trace: the node writes its events after it answers.
	idxTraceWait = 2 * time.Second
	// idxTracePoll is how often a trace not yet complete is read again.
	idxTracePoll = 20 * time.Millisecond
	// idxTraceStable is how many reads in a row must find the same events after the first: a
	// replica's events come after the coordinator's.
	idxTraceStable = 1
)

// indexLab is the lab's state in this process: whether its tables are made (and the node's
// refusal of a way's DDL), and the learners' runs of the minute.
type indexLab struct {
	mu      sync.Mutex
	ready   bool
	refused map[string]string // way → the node's refusal of its DDL
	runs    trialLimiter
	budget  int // idxRunsPerMinute unless a test says otherwise
}

// SetIndexBudget sets how many runs of the index lab the cluster takes a minute (over every
// server; idxRunsPerMinute unless set).
func (s *Store) SetIndexBudget(runs int) { s.idx.budget = runs }

// The lab's tables, by way: the base table keyed by id, and what finds a row by name.
func idxDDL(ks, way string) []string {
	base := func(t string) string {
		return "CREATE TABLE IF NOT EXISTS " + ks + "." + t + " (id uuid PRIMARY KEY, username text)"
	}
	switch way {
	case teaching.WayTable:
		return []string{base("idx_user"), "CREATE TABLE IF NOT EXISTS " + ks + ".idx_username (username text PRIMARY KEY, id uuid)"}
	case teaching.Way2i:
		return []string{base("idx_user_2i"), "CREATE INDEX IF NOT EXISTS idx_user_2i_username ON " + ks + ".idx_user_2i (username)"}
	case teaching.WayView:
		return []string{base("idx_user_mv"), "CREATE MATERIALIZED VIEW IF NOT EXISTS " + ks + ".idx_user_by_name AS SELECT username, id FROM " + ks +
			".idx_user_mv WHERE username IS NOT NULL AND id IS NOT NULL PRIMARY KEY (username, id)"}
	case teaching.WaySAI:
		return []string{base("idx_user_sai"), "CREATE INDEX IF NOT EXISTS idx_user_sai_username ON " + ks + ".idx_user_sai (username) USING 'sai'"}
	}
	return nil
}

// idxBase is the base table of a way.
func idxBase(way string) string {
	if way == teaching.WayTable {
		return "idx_user"
	}
	return "idx_user_" + way
}

// ScopedName is a learner's name as the lab stores it: the name, then a tag of the learner's,
// so that two learners' users of the same name are two rows.
func ScopedName(learner, name string) string {
	sum := sha1.Sum([]byte(learner))
	return name + "~" + hex.EncodeToString(sum[:4])
}

// ensureIndexTables makes the lab's tables once per process. A refusal of a way's DDL (a view
// on a node where views are disabled) is kept and shown; any other error fails the run.
func (s *Store) ensureIndexTables(ctx context.Context, sess gocqlx.Session) error {
	l := &s.idx
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ready {
		return nil
	}
	ks := s.Keyspace()
	refused := map[string]string{}
	for _, way := range teaching.Ways {
		for _, stmt := range idxDDL(ks, way) {
			err := sess.ContextQuery(ctx, stmt, nil).ExecRelease()
			if msg, ok := refusal(err); ok {
				refused[way] = msg
				break
			}
			if err != nil {
				return wrap("index lab table", err)
			}
		}
	}
	if err := sess.AwaitSchemaAgreement(ctx); err != nil {
		return wrap("index lab schema agreement", err)
	}
	l.refused, l.ready = refused, true
	return nil
}

// FindUser implements teaching.IndexLab.
func (s *Store) FindUser(ctx context.Context, learner, name string) (teaching.IndexRun, error) {
	if err := teaching.CheckIndexName(name); err != nil {
		return teaching.IndexRun{}, err
	}
	sess, err := s.sess()
	if err != nil {
		return teaching.IndexRun{}, err
	}
	if !s.idx.runs.allow(learner, time.Now()) {
		return teaching.IndexRun{}, teaching.ErrTooManyTrials
	}
	// The cluster's runs of the minute, counted in the query lab's budget table.
	budget := idxRunsPerMinute
	if s.idx.budget > 0 {
		budget = s.idx.budget
	}
	if err := s.spendRun(ctx, sess, "index", "the index lab", budget); err != nil {
		return teaching.IndexRun{}, err
	}
	if err := s.ensureIndexTables(ctx, sess); err != nil {
		return teaching.IndexRun{}, err
	}
	ks := s.Keyspace()
	user := ScopedName(learner, name)
	id := uuid.NewSHA1(uuid.NameSpaceOID, []byte("twissandra-index-lab/"+user)).String()
	hosts, _ := s.store.Hosts()
	run := teaching.IndexRun{Keyspace: ks, User: user, ID: id, Nodes: len(hosts)}
	ttl := fmt.Sprintf(" USING TTL %d", int(idxTTL/time.Second))
	for _, way := range teaching.Ways {
		w := teaching.WayRun{Way: way, DDL: idxDDL(ks, way), Refused: s.idx.refused[way]}
		if w.Refused != "" {
			run.Ways = append(run.Ways, w)
			continue
		}
		base := ks + "." + idxBase(way)
		writes := []string{"INSERT INTO " + base + " (id, username) VALUES (" + id + ", " + lit(user) + ")" + ttl}
		if way == teaching.WayTable {
			writes = append(writes, "INSERT INTO "+ks+".idx_username (username, id) VALUES ("+lit(user)+", "+id+")"+ttl)
		}
		for _, cql := range writes {
			t, err := s.traced(ctx, sess, cql, true)
			if err != nil {
				return run, err
			}
			w.Write = append(w.Write, t)
		}
		var reads []string
		switch way {
		case teaching.WayTable:
			reads = []string{"SELECT id FROM " + ks + ".idx_username WHERE username = " + lit(user),
				"SELECT id, username FROM " + base + " WHERE id = " + id}
		case teaching.WayView:
			reads = []string{"SELECT id, username FROM " + ks + ".idx_user_by_name WHERE username = " + lit(user)}
		default:
			reads = []string{"SELECT id, username FROM " + base + " WHERE username = " + lit(user)}
		}
		for _, cql := range reads {
			t, err := s.traced(ctx, sess, cql, true)
			if err != nil {
				return run, err
			}
			w.Read = append(w.Read, t)
			w.Found = t.Rows
		}
		for _, cql := range idxCannot(ks, way, user, id) {
			t, err := s.traced(ctx, sess, cql, false)
			if err != nil {
				return run, err
			}
			w.Cannot = append(w.Cannot, t)
		}
		run.Ways = append(run.Ways, w)
	}
	return run, s.readTraces(ctx, sess, &run)
}

// idxCannot are the statements that show what a way cannot do: the base table asked by name
// without an index; an index asked for a list, a range or a pattern of names; a view asked by
// the base's key, and a view keyed without the base's key.
func idxCannot(ks, way, user, id string) []string {
	switch way {
	case teaching.WayTable:
		return []string{"SELECT id, username FROM " + ks + ".idx_user WHERE username = " + lit(user)}
	case teaching.Way2i, teaching.WaySAI:
		base := ks + "." + idxBase(way)
		return []string{
			"SELECT id, username FROM " + base + " WHERE username IN (" + lit(user) + ", " + lit(user+"_2") + ")",
			"SELECT id, username FROM " + base + " WHERE username > " + lit(user),
			"SELECT id, username FROM " + base + " WHERE username LIKE " + lit(strings.SplitN(user, "~", 2)[0]+"%"),
		}
	case teaching.WayView:
		return []string{
			"SELECT id, username FROM " + ks + ".idx_user_by_name WHERE id = " + id,
			"CREATE MATERIALIZED VIEW IF NOT EXISTS " + ks + ".idx_user_by_name_only AS SELECT username FROM " + ks +
				".idx_user_mv WHERE username IS NOT NULL PRIMARY KEY (username)",
		}
	}
	return nil
}

// traceID is the gocql tracer that keeps the trace's session id.
type traceID struct{ id []byte }

func (t *traceID) Trace(id []byte) { t.id = append([]byte(nil), id...) }

// traced runs cql (traced when trace: readTraces reads the trace later). A refusal of the node is the
// statement's Error, not the run's.
func (s *Store) traced(ctx context.Context, sess gocqlx.Session, cql string, trace bool) (teaching.TracedStatement, error) {
	t := teaching.TracedStatement{CQL: cql, Rows: -1}
	var tr traceID
	start := time.Now()
	q := sess.ContextQuery(ctx, cql, nil)
	q.Idempotent(true)
	if trace {
		q.Trace(&tr)
	}
	iter := q.Iter()
	rows := 0
	for m := map[string]any{}; iter.MapScan(m); m = map[string]any{} {
		rows++
	}
	err := iter.Close()
	q.Release()
	t.Took = time.Since(start)
	if msg, ok := refusal(err); ok {
		t.Error = msg
		return t, nil
	}
	if err != nil {
		return t, wrap("index lab", err)
	}
	if strings.HasPrefix(cql, "SELECT") {
		t.Rows = rows
	}
	if trace && len(tr.id) == 16 {
		t.TraceID = gocql.UUID(tr.id).String()
	}
	return t, nil
}

// readTraces reads the trace of every traced statement of the run, once all have run: by then
// the earlier ones are complete, and each is read in a few statements (which the footer lists
// with the rest).
func (s *Store) readTraces(ctx context.Context, sess gocqlx.Session, run *teaching.IndexRun) error {
	for i := range run.Ways {
		w := &run.Ways[i]
		for _, ts := range [][]teaching.TracedStatement{w.Write, w.Read} {
			for j := range ts {
				id, err := gocql.ParseUUID(ts[j].TraceID)
				if err != nil {
					continue // not traced
				}
				if err := s.readTrace(ctx, sess, id, &ts[j]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// readTrace reads a statement's trace: the nodes write it after the coordinator answers, so the
// session is read again until it has its duration and its events have not changed over
// idxTraceStable reads (or idxTraceWait passes, when what is there is shown).
func (s *Store) readTrace(ctx context.Context, sess gocqlx.Session, id gocql.UUID, t *teaching.TracedStatement) error {
	deadline := time.Now().Add(idxTraceWait)
	last, same := -1, 0
	for {
		var dur []int
		if err := sess.ContextQuery(ctx, "SELECT duration FROM system_traces.sessions WHERE session_id = ?", nil).Bind(id).
			Consistency(gocql.One).SelectRelease(&dur); err != nil {
			return wrap("index lab trace", err)
		}
		var evs []struct {
			Source   string `db:"source"`
			Activity string `db:"activity"`
		}
		if err := sess.ContextQuery(ctx, "SELECT source, activity FROM system_traces.events WHERE session_id = ?", nil).Bind(id).
			Consistency(gocql.One).SelectRelease(&evs); err != nil {
			return wrap("index lab trace", err)
		}
		if len(evs) == last {
			same++
		} else {
			same = 0
		}
		done := len(dur) == 1 && dur[0] > 0 && len(evs) > 0 && same >= idxTraceStable
		if done || time.Now().After(deadline) {
			t.Events, t.Sources = t.Events[:0], t.Sources[:0]
			for _, e := range evs {
				t.Events = append(t.Events, e.Source+": "+e.Activity)
				if !slices.Contains(t.Sources, e.Source) {
					t.Sources = append(t.Sources, e.Source)
				}
			}
			slices.Sort(t.Sources)
			return nil
		}
		last = len(evs)
		timer := time.NewTimer(idxTracePoll)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
	}
}
