package teach

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"twissandra/adapters/cql3"
	"twissandra/internal/testkit/cqltest"
	"twissandra/ports/teaching"
)

// sentLog keeps every statement the driver sent, as the driver's observer saw it.
type sentLog struct {
	mu   sync.Mutex
	sent []string
}

func (l *sentLog) ObserveQuery(_ context.Context, q gocql.ObservedQuery) {
	l.mu.Lock()
	l.sent = append(l.sent, q.Statement)
	l.mu.Unlock()
}

func (l *sentLog) count(cql string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.sent {
		if s == cql {
			n++
		}
	}
	return n
}

// counterStore opens a store whose driver reports every statement it sends to the log.
func counterStore(t *testing.T) (*Store, *sentLog) {
	t.Helper()
	ks, hosts, port := cqltest.KeyspaceName(t, "twissandra_test_counter_")
	sent := &sentLog{}
	st, err := cql3.Open(testCtx(t, 2*time.Minute), cql3.Config{Hosts: hosts, Port: port, Keyspace: ks, Replication: "SimpleStrategy:1",
		Timeout: 20 * time.Second, StartTimeout: 90 * time.Second, QueryObserver: sent})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return New(st), sent
}

// Eight clients adding 1 ten times each at once count 80: a counter's increments add up
// exactly, whatever their order. A lost answer, retried by the driver, counts one more than
// meant. Each statement the run shows is the one the driver sent, as many times as it says;
// the run's row is gone after it.
func TestCounterLabOnNode(t *testing.T) {
	s, sent := counterStore(t)
	ctx := testCtx(t, 2*time.Minute)

	run, err := s.Increments(ctx, "ann", teaching.MaxCounterClients, teaching.MaxCounterEach)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(teaching.MaxCounterClients * teaching.MaxCounterEach); run.Count != want || run.Answered != int(want) {
		t.Fatalf("concurrent increments: count %d, answered %d, want %d", run.Count, run.Answered, want)
	}
	if got := sent.count(run.Statements[0].CQL); got != run.Sent {
		t.Fatalf("the increment shown (%q) was sent %d times, the run says %d", run.Statements[0].CQL, got, run.Sent)
	}
	for _, st := range run.Statements[1:] {
		if sent.count(st.CQL) == 0 {
			t.Fatalf("the statement shown %q was never sent", st.CQL)
		}
	}

	before := sent.count(run.Statements[0].CQL)
	lost, err := s.LostAck(ctx, "ann", 3)
	if err != nil {
		t.Fatal(err)
	}
	if lost.Count != 4 || lost.Sent != 4 || lost.Answered != 3 || len(lost.Lost) != 1 {
		t.Fatalf("a lost answer: %+v", lost)
	}
	if len(lost.Attempts) != 2 || !strings.Contains(lost.Attempts[0], "no answer") || !strings.Contains(lost.Attempts[1], "applied") {
		t.Fatalf("the attempts: %q", lost.Attempts)
	}
	if got := sent.count(lost.Statements[0].CQL) - before; got != lost.Sent {
		t.Fatalf("the increment shown was sent %d times, the run says %d", got, lost.Sent)
	}

	var rows []string
	sess, _ := s.sess()
	if err := sess.ContextQuery(ctx, "SELECT tweet FROM "+s.Keyspace()+"."+counterTable+" WHERE learner = 'ann'", nil).SelectRelease(&rows); err != nil || len(rows) != 0 {
		t.Fatalf("rows left: %v %v", rows, err)
	}

	mixed, err := s.Mixed(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range mixed {
		if !strings.HasPrefix(st.Error, "InvalidRequest: ") || sent.count(st.CQL) == 0 {
			t.Errorf("%q: %q (sent %d times)", st.CQL, st.Error, sent.count(st.CQL))
		}
		t.Logf("%s -> %s", st.CQL, st.Error)
	}
	if !slices.ContainsFunc(mixed, func(st teaching.LabStatement) bool { return strings.Contains(st.Error, "counter") }) {
		t.Errorf("no refusal names counters: %+v", mixed)
	}
}

// The runs of every server together are bounded: past the budget of the minute a run is
// refused as a busy lab.
func TestCounterLabBudget(t *testing.T) {
	s, _ := counterStore(t)
	s.SetCounterBudget(1)
	ctx := testCtx(t, time.Minute)
	if _, err := s.Increments(ctx, "bob", 1, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Increments(ctx, "cat", 1, 1); !errors.Is(err, teaching.ErrTooManyTrials) {
		t.Fatalf("past the budget: %v", err)
	}
}
