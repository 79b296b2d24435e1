package cql3

import (
	"context"
	"errors"
	"fmt"
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
	want := []oplog.Op{
		{Model: "cql3", Kind: oplog.Read, Call: "SELECT", Family: "timeline", Predicate: "username=? LIMIT ?", Touched: "40 rows", Took: 250 * time.Microsecond},
		{Model: "cql3", Kind: oplog.LWT, Call: "INSERT", Family: "users", Touched: "0 rows"},
		{Model: "cql3", Kind: oplog.Write, Call: "DELETE", Family: "friends", Predicate: "username=? AND friend=?", Touched: "0 rows"},
		{Model: "cql3", Kind: oplog.Write, Call: "BATCH", Family: "friends", KeyCount: 2, Touched: "ok"},
		{Model: "cql3", Kind: oplog.Write, Call: "CREATE", Touched: "0 rows"}, // a schema change, no lightweight transaction
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
