package teach

import (
	"errors"
	"strings"
	"testing"
	"time"

	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
)

// The four ways on the node: each finds the learner's user by name; the trace shows the indexes
// asking token ranges and the table and the view one partition, the view reading before it
// writes and the 2i writing its index table; what each cannot do is the node's refusal; and
// every statement the run shows is one the driver sent, as shown.
func TestIndexLabFourWays(t *testing.T) {
	s := sharedStore(t)
	s.SetIndexBudget(100)
	log := oplog.NewLog(false)
	ctx := oplog.With(testCtx(t, 2*time.Minute), log)
	run, err := s.FindUser(ctx, "learner-a", "ann")
	if err != nil {
		t.Fatal(err)
	}
	if run.User != ScopedName("learner-a", "ann") || run.Nodes < 1 || len(run.Ways) != len(teaching.Ways) {
		t.Fatalf("run: %+v", run)
	}
	ops, dropped := log.Ops()
	// The footer keeps every statement of a run, the reads of its traces included.
	if dropped > 0 {
		t.Errorf("a run made %d operations, past the %d a request keeps", len(ops)+dropped, oplog.MaxRecordedOps)
	}
	t.Logf("a run: %d operations", len(ops))
	sent := map[string]bool{}
	for _, op := range ops {
		if cql, _, ok := strings.Cut(op.Text, " -> "); ok {
			sent[cql] = true
		}
	}
	for _, w := range run.Ways {
		if w.Refused != "" {
			if w.Way != teaching.WayView || !strings.Contains(w.Refused, "Materialized views are disabled") {
				t.Errorf("%s refused: %s", w.Way, w.Refused)
			}
			continue
		}
		if w.Found != 1 {
			t.Errorf("%s found %d rows, want the user", w.Way, w.Found)
		}
		for _, st := range append(append(append([]teaching.TracedStatement{}, w.Write...), w.Read...), w.Cannot...) {
			if !sent[st.CQL] {
				t.Errorf("%s: the statement shown was not sent as shown: %s", w.Way, st.CQL)
			}
		}
		for _, st := range append(append([]teaching.TracedStatement{}, w.Write...), w.Read...) {
			if len(st.Events) == 0 || len(st.Sources) == 0 {
				t.Errorf("%s: %s has no trace", w.Way, st.CQL)
			}
		}
		last := w.Read[len(w.Read)-1]
		if index := w.Way == teaching.Way2i || w.Way == teaching.WaySAI; last.RangeRead() != index {
			t.Errorf("%s: range read %v, want %v:\n%s", w.Way, last.RangeRead(), index, strings.Join(last.Events, "\n"))
		}
		if rbw := w.Write[0].ReadBeforeWrite(); rbw != (w.Way == teaching.WayView) {
			t.Errorf("%s: read before write %v:\n%s", w.Way, rbw, strings.Join(w.Write[0].Events, "\n"))
		}
		if len(w.Cannot) == 0 {
			t.Errorf("%s: nothing it cannot do", w.Way)
		}
		for _, c := range w.Cannot {
			if c.Error == "" {
				t.Errorf("%s: the node ran %s", w.Way, c.CQL)
			}
		}
	}
	if w, _ := run.Way(teaching.Way2i); !strings.Contains(strings.Join(w.Write[0].Events, "\n"), "idx_user_2i.idx_user_2i_username") {
		t.Errorf("the 2i's write does not write its index table:\n%s", strings.Join(w.Write[0].Events, "\n"))
	}
	if w, _ := run.Way(teaching.WayTable); !strings.Contains(w.Cannot[0].Error, "ALLOW FILTERING") {
		t.Errorf("the base table asked by name: %s", w.Cannot[0].Error)
	}
	if w, _ := run.Way(teaching.WayView); w.Refused == "" && !strings.Contains(w.Cannot[1].Error, "without primary key columns") {
		t.Errorf("a view without the base's key: %s", w.Cannot[1].Error)
	}

	// Another learner's user of the same name is another row: each finds their own.
	other, err := s.FindUser(ctx, "learner-b", "ann")
	if err != nil {
		t.Fatal(err)
	}
	if other.User == run.User || other.ID == run.ID {
		t.Fatalf("two learners share a user: %s %s", other.User, run.User)
	}
	for _, w := range other.Ways {
		if w.Refused == "" && w.Found != 1 {
			t.Errorf("%s: learner b found %d users named ann, want their own", w.Way, w.Found)
		}
	}

	if _, err := s.FindUser(ctx, "learner-a", "no'quote"); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a name that is not a username: %v", err)
	}
}

// The cluster's runs of the minute are bounded over every server (the query lab's budget
// table): past the budget a run is refused before it writes anything.
func TestIndexLabBudget(t *testing.T) {
	s := freshStore(t, "twissandra_test_idxb_")
	s.SetIndexBudget(1)
	ctx := testCtx(t, 2*time.Minute)
	if _, err := s.FindUser(ctx, "budget", "ann"); err != nil {
		t.Fatal(err)
	}
	other := New(s.store) // another server on the same cluster
	other.SetIndexBudget(1)
	if _, err := other.FindUser(ctx, "budget-2", "bob"); !errors.Is(err, teaching.ErrTooManyTrials) {
		t.Fatalf("a run past the cluster's budget: %v", err)
	}
}
