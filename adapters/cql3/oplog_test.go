package cql3

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports/oplog"
)

type opLines []string

func (l *opLines) Record(op oplog.Op) { *l = append(*l, op.Text) }

// opRecords keeps the structured records.
type opRecords []oplog.Op

func (l *opRecords) Record(op oplog.Op) { *l = append(*l, op) }

// Each statement's record is structured too: its kind (an LWT is told apart), verb, table and
// WHERE clause, and the driver's time for it.
func TestOpsObserverStructuresStatements(t *testing.T) {
	var got opRecords
	ctx := oplog.With(context.Background(), &got)
	start := time.Now()
	o := opsObserver{}
	o.ObserveQuery(ctx, gocql.ObservedQuery{Statement: "SELECT time, tweet_id FROM timeline WHERE username=? LIMIT ?", Rows: 40, Start: start, End: start.Add(250 * time.Microsecond)})
	o.ObserveQuery(ctx, gocql.ObservedQuery{Statement: "INSERT INTO users (username,id) VALUES (?,?) IF NOT EXISTS", Start: start, End: start})
	o.ObserveQuery(ctx, gocql.ObservedQuery{Statement: "DELETE FROM friends WHERE username=? AND friend=?", Start: start, End: start})
	o.ObserveBatch(ctx, gocql.ObservedBatch{Statements: []string{"INSERT INTO friends (a) VALUES (?)", "INSERT INTO followers (a) VALUES (?)"}})
	o.ObserveQuery(ctx, gocql.ObservedQuery{Statement: "CREATE TABLE IF NOT EXISTS lab.q (a text PRIMARY KEY)", Start: start, End: start})
	o.ObserveQuery(ctx, gocql.ObservedQuery{Statement: "SELECT id FROM users WHERE username=?", Rows: 1, Start: start, End: start})
	// A write returns no rows (a lightweight transaction's one row says whether it applied):
	// its record says it was acknowledged, not "0 rows".
	want := []oplog.Op{
		{Model: "cql3", Kind: oplog.Read, Call: "SELECT", Family: "timeline", Predicate: "username=? LIMIT ?", Touched: "40 rows", Took: 250 * time.Microsecond},
		{Model: "cql3", Kind: oplog.LWT, Call: "INSERT", Family: "users", Touched: "ok"},
		{Model: "cql3", Kind: oplog.Write, Call: "DELETE", Family: "friends", Predicate: "username=? AND friend=?", Touched: "ok"},
		{Model: "cql3", Kind: oplog.Write, Call: "BATCH", Family: "friends", KeyCount: 2, Touched: "ok"},
		{Model: "cql3", Kind: oplog.Write, Call: "CREATE", Touched: "ok"}, // a schema change, no lightweight transaction
		{Model: "cql3", Kind: oplog.Read, Call: "SELECT", Family: "users", Predicate: "username=?", Touched: "1 row"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		g.Text = ""
		if g.Model != w.Model || g.Kind != w.Kind || g.Call != w.Call || g.Family != w.Family || g.Predicate != w.Predicate || g.Touched != w.Touched || g.Took != w.Took || g.KeyCount != w.KeyCount {
			t.Errorf("record %d: %+v, want %+v", i, g, w)
		}
	}
}

func TestOpsObserverRecordsStatementsNotValues(t *testing.T) {
	var got opLines
	var passed int
	next := observerFunc(func() { passed++ })
	o := opsObserver{queries: next}
	ctx := oplog.With(context.Background(), &got)
	o.ObserveQuery(ctx, gocql.ObservedQuery{Statement: "SELECT  tweet_id\n FROM timeline WHERE username=? LIMIT ?", Values: []any{"secret-value"}, Rows: 40})
	o.ObserveQuery(ctx, gocql.ObservedQuery{Statement: "INSERT INTO users (username) VALUES (?) IF NOT EXISTS", Err: errors.New("boom"), Attempt: 1})
	o.ObserveBatch(ctx, gocql.ObservedBatch{Statements: []string{"INSERT INTO friends ...", "INSERT INTO followers ..."}})
	o.ObserveQuery(context.Background(), gocql.ObservedQuery{Statement: "SELECT 1"})
	want := []string{
		"SELECT tweet_id FROM timeline WHERE username=? LIMIT ? -> 40 rows",
		"INSERT INTO users (username) VALUES (?) IF NOT EXISTS -> error (retry 1)",
		"BATCH of 2: INSERT INTO friends ... ... -> ok",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("recorded:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if passed != 3 {
		t.Fatalf("the next observer saw %d queries, want 3", passed)
	}
}

type observerFunc func()

func (f observerFunc) ObserveQuery(context.Context, gocql.ObservedQuery) { f() }

// TestTimelinePageRecordsItsCQL: on the real node, a timeline page is one slice in the
// request's operations log: the query-first timeline rows carry their tweets, so there is no
// multiget of tweets.
func TestTimelinePageRecordsItsCQL(t *testing.T) {
	s := sharedStore(t)
	base := testCtx(t, time.Minute)
	svc := social.New(s, s, s, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	user := "ops_" + uuid.NewString()[:8]
	if _, err := svc.SignUp(base, user, "password1"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if _, err := svc.Post(base, user, fmt.Sprintf("tweet %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	var got opLines
	if _, err := svc.Timeline(oplog.With(base, &got), user, "", 40); err != nil {
		t.Fatal(err)
	}
	// Before the slice, the hybrid fan-out's lookups: the pulled authors (unless this process
	// read them within pulledTTL) and the user's follows among them (unless there are none).
	n := len(got)
	if n == 0 || n > 3 || !strings.Contains(got[n-1], "author,body,created_at,created_at_us FROM timeline") || !strings.HasSuffix(got[n-1], "-> 3 rows") {
		t.Fatalf("recorded %q, want one slice of the timeline, with the tweets in it, last", []string(got))
	}
	for _, q := range got[:n-1] {
		if !strings.Contains(q, "FROM pulled_authors") && !strings.Contains(q, "FROM friends WHERE username=? AND friend IN ?") {
			t.Fatalf("recorded %q: %q is neither a slice of the timeline nor a lookup of pulled authors", []string(got), q)
		}
	}
}

// Each record names the level the statement ran at: the session's, a lightweight transaction's
// commit and Paxos levels, a conditional batch's both, and the fixed level of an observer a
// statement carries of its own; and the coordinator the driver reported.
func TestOpsObserverNamesLevelAndCoordinator(t *testing.T) {
	var got opRecords
	ctx := oplog.With(context.Background(), &got)
	o := opsObserver{consistency: gocql.Quorum, serial: gocql.Serial}
	o.ObserveQuery(ctx, gocql.ObservedQuery{Statement: "SELECT a FROM t WHERE k=?"})
	o.ObserveQuery(ctx, gocql.ObservedQuery{Statement: "INSERT INTO users (username) VALUES (?) IF NOT EXISTS"})
	o.ObserveBatch(ctx, gocql.ObservedBatch{Statements: []string{"INSERT INTO a (k) VALUES (?)", "UPDATE b SET n=? WHERE k=? IF n=?"}})
	o.ObserveBatch(ctx, gocql.ObservedBatch{Statements: []string{"INSERT INTO a (k) VALUES (?)"}})
	opsObserver{fixed: "LOCAL_SERIAL"}.ObserveQuery(ctx, gocql.ObservedQuery{Statement: "SELECT n FROM b WHERE k=?"})
	want := []string{"QUORUM", "QUORUM/SERIAL", "QUORUM/SERIAL", "QUORUM", "LOCAL_SERIAL"}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Consistency != w {
			t.Errorf("record %d (%s): consistency %q, want %q", i, got[i].Text, got[i].Consistency, w)
		}
		if got[i].Coordinator != "" {
			t.Errorf("record %d: coordinator %q without a host", i, got[i].Coordinator)
		}
	}
}

// On the real node: a read names the level the session was configured with (ONE here, not the
// default), a sign-up's lightweight transaction its serial level too, a follower count read at
// serial says so, and each names the node that coordinated it.
func TestRecordsNameLevelAndCoordinatorOnTheNode(t *testing.T) {
	cfg := nodeConfig(t)
	cfg.Keyspace = randomKeyspace("twissandra_test_cl_")
	cfg.Consistency, cfg.SerialConsistency = "ONE", "SERIAL"
	s, err := Open(testCtx(t, 3*time.Minute), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := dropKeyspace(s); err != nil {
			t.Errorf("drop %s: %v", s.Keyspace(), err)
		}
		_ = s.Close()
	})
	ctx := testCtx(t, time.Minute)
	svc := social.New(s, s, s, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	var got opRecords
	rec := oplog.With(ctx, &got)
	if _, err := svc.SignUp(rec, "cl_a", "password1"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SignUp(ctx, "cl_b", "password1"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Follow(rec, "cl_b", "cl_a"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Timeline(rec, "cl_b", "", 10); err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(s.cfg.Port)
	seen := map[string]bool{}
	for _, op := range got {
		if op.Model != "cql3" {
			continue
		}
		seen[op.Consistency] = true
		if !strings.HasSuffix(op.Coordinator, ":"+port) || net.ParseIP(strings.TrimSuffix(op.Coordinator, ":"+port)) == nil {
			t.Errorf("%s: coordinator %q, want a node's address and port %s", op.Text, op.Coordinator, port)
		}
		switch {
		case op.Kind == oplog.LWT && op.Consistency != "ONE/SERIAL":
			t.Errorf("%s: consistency %q, want ONE/SERIAL", op.Text, op.Consistency)
		case op.Kind != oplog.LWT && op.Consistency != "ONE" && op.Consistency != "SERIAL" && op.Consistency != "ONE/SERIAL":
			t.Errorf("%s: consistency %q, want ONE, or SERIAL for a read at serial", op.Text, op.Consistency)
		}
	}
	for _, w := range []string{"ONE", "ONE/SERIAL", "SERIAL"} {
		if !seen[w] {
			t.Errorf("no record at %s among %d: %v", w, len(got), seen)
		}
	}
}

// BenchmarkObserveQuery is the observer's record of one statement into a page's log: as it was,
// and naming the consistency level and the coordinator (a real host of the node, when one
// answers; else the level alone), so that their cost is a ratio of the two.
func BenchmarkObserveQuery(b *testing.B) {
	var host *gocql.HostInfo
	if os.Getenv(envHosts) != "" {
		s := sharedStore(b)
		sess, err := s.sess()
		if err != nil {
			b.Fatal(err)
		}
		hostOf := &hostCatcher{}
		if err := sess.Session.Query("SELECT release_version FROM system.local").Observer(hostOf).Exec(); err != nil {
			b.Fatal(err)
		}
		host = hostOf.host
	}
	q := gocql.ObservedQuery{Statement: "SELECT time,tweet_id,author,body,created_at,created_at_us FROM timeline WHERE username=? LIMIT ?", Rows: 40}
	for _, bc := range []struct {
		name string
		o    opsObserver
		host *gocql.HostInfo
	}{{"bare", opsObserver{}, nil}, {"level-and-coordinator", opsObserver{consistency: gocql.LocalQuorum, serial: gocql.LocalSerial}, host}} {
		b.Run(bc.name, func(b *testing.B) {
			q := q
			q.Host = bc.host
			b.ReportAllocs()
			for b.Loop() {
				ctx := oplog.With(context.Background(), oplog.NewLog(false))
				bc.o.ObserveQuery(ctx, q)
			}
		})
	}
}

type hostCatcher struct{ host *gocql.HostInfo }

func (h *hostCatcher) ObserveQuery(_ context.Context, q gocql.ObservedQuery) { h.host = q.Host }
