package teach

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scylladb/gocqlx/v2"

	"twissandra/adapters/cql3"
	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
)

// addressOps keeps the operations' records of a run.
type addressOps struct {
	mu  sync.Mutex
	ops []oplog.Op
}

func (r *addressOps) Record(op oplog.Op) { r.mu.Lock(); r.ops = append(r.ops, op); r.mu.Unlock() }

// sent is the text of every statement the driver sent, as the footer lists them.
func (r *addressOps) sent() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, op := range r.ops {
		if op.Model == "cql3" {
			text, _, _ := strings.Cut(op.Text, " -> ")
			out = append(out, text)
		}
	}
	return out
}

// Each form of seed 004's AddressBook entry, on the node: what changing the city writes, and
// what overwriting the address with three fields leaves. Each statement a run shows is one the
// driver sent, in the order shown, and the run leaves no row behind.
func TestAddressBookForms(t *testing.T) {
	t.Parallel()
	s := sharedStore(t)
	type want struct {
		cells, written int
		gone           string
	}
	for _, c := range []struct {
		form   teaching.AddressForm
		change teaching.AddressChange
		want   want
	}{
		{teaching.Rows, teaching.OneField, want{4, 1, ""}},
		{teaching.Map, teaching.OneField, want{4, 1, ""}},
		{teaching.UDT, teaching.OneField, want{4, 1, ""}},
		{teaching.Frozen, teaching.OneField, want{1, 1, ""}},
		// The rows of a super column's layout stay when a write does not name them; a
		// collection or a user type written whole deletes what was there first (a tombstone).
		{teaching.Rows, teaching.Whole, want{4, 3, ""}},
		{teaching.Map, teaching.Whole, want{3, 3, "address['state']"}},
		{teaching.UDT, teaching.Whole, want{3, 3, "address.state"}},
		{teaching.Frozen, teaching.Whole, want{1, 1, ""}},
	} {
		t.Run(string(c.form)+"-"+string(c.change), func(t *testing.T) {
			t.Parallel()
			var ops addressOps
			ctx := oplog.With(testCtx(t, time.Minute), &ops)
			owner := "test-" + strings.ReplaceAll(t.Name(), "/", "-")
			run, err := s.RunAddress(ctx, "tester-"+owner, owner, c.form, c.change)
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Steps) != 2 {
				t.Fatalf("%d steps, want 2", len(run.Steps))
			}
			if n := len(run.Steps[0].Cells); n != map[bool]int{true: 1, false: 4}[c.form == teaching.Frozen] {
				t.Errorf("the entry written holds %d cells: %+v", n, run.Steps[0].Cells)
			}
			last := run.Steps[1]
			if len(last.Cells) != c.want.cells || len(run.Written()) != c.want.written || strings.Join(run.Gone(), ",") != c.want.gone {
				t.Errorf("after the change: %d cells (want %d), %d written (want %d), gone %q (want %q): %+v",
					len(last.Cells), c.want.cells, len(run.Written()), c.want.written, run.Gone(), c.want.gone, last.Cells)
			}
			city := slices.IndexFunc(last.Cells, func(cl teaching.AddressCell) bool { return strings.Contains(cl.Value, teaching.ChangedCity) })
			if city < 0 || last.Cells[city].Timestamp != last.Timestamp {
				t.Errorf("no cell holds the new city at the change's timestamp %d: %+v", last.Timestamp, last.Cells)
			}
			if c.form == teaching.Frozen && c.change == teaching.OneField {
				if len(last.Writes) != 2 || !strings.Contains(last.Writes[0].Error, "frozen") || last.Writes[1].Error != "" {
					t.Errorf("the frozen field: %+v, want a refusal then the whole value", last.Writes)
				}
			}
			var shown []string
			for _, st := range run.Made {
				shown = append(shown, st.CQL)
			}
			for _, st := range run.Steps {
				for _, w := range st.Writes {
					shown = append(shown, w.CQL)
				}
				shown = append(shown, st.Read.CQL)
			}
			shown = append(shown, run.Cleanup.CQL)
			// The run's statements, less the cluster's count of runs (spendRun's, in the query
			// lab's keyspace), which the footer lists and the lesson's form does not show.
			lab := cql3.LabKeyspace(s.Keyspace())
			got := slices.DeleteFunc(ops.sent(), func(cql string) bool {
				return strings.Contains(cql, lab+".") || strings.Contains(cql, lab+" ")
			})
			if !slices.Equal(got, shown) {
				t.Errorf("statements sent:\n%s\nshown:\n%s", strings.Join(got, "\n"), strings.Join(shown, "\n"))
			}
			_, cells, err := addressCells(ctx, mustSess(t, s), addressRead(s.Keyspace(), owner, c.form), c.form)
			if err != nil || len(cells) != 0 {
				t.Errorf("after the run: %v, %+v", err, cells)
			}
		})
	}
}

func TestAddressBookRefusesBadInput(t *testing.T) {
	t.Parallel()
	s := sharedStore(t)
	ctx := testCtx(t, time.Minute)
	for _, c := range []struct {
		owner  string
		form   teaching.AddressForm
		change teaching.AddressChange
	}{{"ok", "list", teaching.OneField}, {"ok", teaching.Map, "all"}, {"o'wner", teaching.Map, teaching.OneField}, {"", teaching.Map, teaching.OneField}} {
		if _, err := s.RunAddress(ctx, "tester", c.owner, c.form, c.change); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%+v: %v, want invalid", c, err)
		}
	}
}

// The node's guardrails on collections and user types are its settings (5.0: all off).
func TestAddressLimits(t *testing.T) {
	t.Parallel()
	s := sharedStore(t)
	got, stmt, err := s.AddressLimits(testCtx(t, time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(addressLimitNames) || !strings.Contains(stmt, "system_views.settings") {
		t.Errorf("%d settings by %q: %+v", len(got), stmt, got)
	}
}

func mustSess(t *testing.T, s *Store) gocqlx.Session {
	t.Helper()
	sess, err := s.sess()
	if err != nil {
		t.Fatal(err)
	}
	return sess
}
