package teach_test

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
	"twissandra/adapters/cql3/teach"
	"twissandra/internal/testkit/cqltest"
	"twissandra/ports/teaching"
)

// sentStatements records the statements the driver sent.
type sentStatements struct {
	mu   sync.Mutex
	cqls []string
}

func (s *sentStatements) ObserveQuery(_ context.Context, q gocql.ObservedQuery) {
	s.mu.Lock()
	s.cqls = append(s.cqls, q.Statement)
	s.mu.Unlock()
}

func (s *sentStatements) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.cqls)
}

// The TTL lesson's runs on the node: the table is made as shown, with TWCS and its default TTL
// as system_schema.tables reports them; TTL() and WRITETIME() read back; a reading inserted
// USING TTL 1 is gone once the node says so; an UPDATE without USING TTL takes the table's
// default, one USING TTL 0 none, and keeps the row alive after the insert's TTL; every
// statement shown is one the driver sent, as shown; the cluster's budget refuses a run past it.
func TestTTLLabOnTheNode(t *testing.T) {
	ks, hosts, port := cqltest.KeyspaceName(t, "twissandra_test_ttl_")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var sent sentStatements
	store, err := cql3.Open(ctx, cql3.Config{Hosts: hosts, Port: port, Keyspace: ks, Replication: "SimpleStrategy:1",
		Timeout: 20 * time.Second, StartTimeout: 90 * time.Second, QueryObserver: &sent})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	s := teach.New(store)

	table, err := s.TTLTable(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if table.DefaultTTL != 300 || table.GCGrace != 3600 || !strings.HasSuffix(table.Compaction["class"], "TimeWindowCompactionStrategy") ||
		table.Compaction["compaction_window_unit"] != "MINUTES" || table.Compaction["compaction_window_size"] != "1" {
		t.Errorf("options as the node reports them: %+v", table)
	}

	plain, err := s.RunTTL(ctx, "ann", teaching.TTLScenario{TTL: 5, Update: teaching.UpdatePlain})
	if err != nil {
		t.Fatal(err)
	}
	b := plain.Before
	if !b.Found || b.TTLReading == nil || *b.TTLReading > 5 || *b.TTLReading < 4 || b.TTLNote == nil || *b.TTLNote < 290 || b.WriteTimeReading == nil || *b.WriteTimeReading <= 0 {
		t.Errorf("after an UPDATE without USING TTL: %+v", b)
	}

	kept, err := s.RunTTL(ctx, "ann", teaching.TTLScenario{TTL: 1, Update: teaching.UpdateTTL0, Wait: true})
	if err != nil {
		t.Fatal(err)
	}
	if kept.Before.TTLNote != nil {
		t.Errorf("USING TTL 0: TTL(note) %d, want null", *kept.Before.TTLNote)
	}
	if a := kept.After; a == nil || !a.Found || a.Reading != nil || a.Note == nil || *a.Note != "updated" || len(kept.Polls) == 0 {
		t.Errorf("after the TTL, the row with a note of TTL 0: %+v (%d polls)", a, len(kept.Polls))
	}

	gone, err := s.RunTTL(ctx, "bob", teaching.TTLScenario{TTL: 1, Update: teaching.NoUpdate, Wait: true})
	if err != nil {
		t.Fatal(err)
	}
	if a := gone.After; a == nil || a.Found {
		t.Errorf("after the TTL, the row inserted USING TTL 1: %+v", a)
	}
	// The node's own trace of a read after the TTL counts the expired cells as tombstones: both
	// of the row gone, the reading of the row kept.
	if tr := gone.Trace; tr == nil || tr.Live != 0 || tr.Tombstones < 2 {
		t.Errorf("the trace of the row gone: %+v", tr)
	}
	if tr := kept.Trace; tr == nil || tr.Live != 1 || tr.Tombstones < 1 {
		t.Errorf("the trace of the row kept: %+v", tr)
	}
	if gone.Trace != nil && kept.Trace != nil {
		t.Logf("traced reads after the TTL: row gone %d live, %d tombstone cells; row kept %d live, %d tombstone cells",
			gone.Trace.Live, gone.Trace.Tombstones, kept.Trace.Live, kept.Trace.Tombstones)
	}
	if plain.Trace != nil {
		t.Errorf("a run that did not wait traced a read: %+v", plain.Trace)
	}

	// Every statement shown was sent as shown.
	got := sent.all()
	for _, r := range []teaching.TTLRun{plain, kept, gone} {
		for _, st := range r.Statements {
			if !slices.Contains(got, st.CQL) {
				t.Errorf("shown but never sent: %s", st.CQL)
			}
		}
	}
	if !slices.Contains(got, table.CQL) || !slices.Contains(got, table.Read) {
		t.Errorf("the table's CQL or its options' read was not sent as shown")
	}

	// The budget is the cluster's: a second server sees the runs of the first.
	other := teach.New(cqltest.Open(t, ks))
	other.SetTTLBudget(3)
	if _, err := other.RunTTL(ctx, "cat", teaching.TTLScenario{TTL: 1, Update: teaching.NoUpdate}); !errors.Is(err, teaching.ErrTooManyTrials) {
		t.Errorf("a fourth run in the minute with a budget of 3: %v", err)
	}
	if _, err := s.RunTTL(ctx, "cat", teaching.TTLScenario{TTL: 9, Update: teaching.NoUpdate}); err == nil {
		t.Error("a TTL of 9 s was run")
	}
}
