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

func (l *opLines) Record(op string) { *l = append(*l, op) }

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

// TestTimelinePageRecordsItsCQL: on the real node, a timeline page leaves its two statements in
// the request's operations log.
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
	if len(got) != 2 || !strings.Contains(got[0], "FROM timeline") || !strings.HasSuffix(got[0], "-> 3 rows") || !strings.Contains(got[1], "FROM tweets") {
		t.Fatalf("recorded %q, want the timeline slice then the tweets multiget", []string(got))
	}
}
