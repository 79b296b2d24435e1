package teach_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// shown writes a primer row's columns as name=value, a super column as name{...}.
func shown(cols []teaching.WideColumn) string {
	var parts []string
	for _, c := range cols {
		if c.Columns != nil {
			parts = append(parts, c.Name+"{"+shown(c.Columns)+"}")
			continue
		}
		if c.Timestamp <= 0 {
			parts = append(parts, c.Name+"=?")
			continue
		}
		parts = append(parts, c.Name+"="+c.Value)
	}
	return strings.Join(parts, " ")
}

// A column written by hand lands in the session's primer row with its timestamp; a subcolumn in
// a super column of AddressBook; the comparator rows never see them; Clear empties them.
func TestLabPrimer(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	ctx := context.Background()
	got, err := l.Put(ctx, "s", teaching.LabPut{Name: "emailAddress", Value: "arin@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Keyspace != "Scratch" || got.ColumnFamily != teaching.PrimerStandard || got.Super || got.Comparator != "UTF8Type" || !strings.HasSuffix(got.Key, "/primer") {
		t.Errorf("the standard row: %+v", got)
	}
	if s := shown(got.Columns); s != `"emailAddress"="arin@example.com"` || got.Columns[0].Timestamp < 1_600_000_000_000_000 {
		t.Errorf("the standard row holds %s (timestamp %d)", s, got.Columns[0].Timestamp)
	}
	if !strings.HasPrefix(got.Call, "insert(keyspace='Scratch', key='lab-") || !strings.Contains(got.Call, `column="emailAddress"), value="arin@example.com", timestamp=`) {
		t.Errorf("call %s", got.Call)
	}
	for _, p := range []teaching.LabPut{{SuperColumn: "John", Name: "street", Value: "Howard street"}, {SuperColumn: "John", Name: "zip", Value: "94404"}, {SuperColumn: "Bob", Name: "zip", Value: "24252"}} {
		if got, err = l.Put(ctx, "s", p); err != nil {
			t.Fatal(err)
		}
	}
	if !got.Super || got.ColumnFamily != "AddressBook" || got.Comparator != "UTF8Type" || got.SubComparator != "UTF8Type" || !strings.Contains(got.Call, `super_column="Bob", column="zip"`) {
		t.Errorf("the super row: %+v", got)
	}
	if s := shown(got.Columns); s != `"Bob"{"zip"="24252"} "John"{"street"="Howard street" "zip"="94404"}` {
		t.Errorf("the super row holds %s", s)
	}
	rows, err := l.Primer(ctx, "s")
	if err != nil || len(rows) != 2 || shown(rows[0].Columns) != `"emailAddress"="arin@example.com"` || len(rows[1].Columns) != 2 {
		t.Fatalf("Primer: %+v, %v", rows, err)
	}
	if other, err := l.Primer(ctx, "other"); err != nil || len(other[0].Columns)+len(other[1].Columns) != 0 || other[0].Key == rows[0].Key {
		t.Errorf("another session's primer: %+v, %v", other, err)
	}
	if cmp, err := l.Rows(ctx, "s"); err != nil || len(labRow(t, cmp, "UTF8Type").Names) != 0 {
		t.Errorf("the comparator rows after the primer's puts: %+v, %v", cmp, err)
	}
	if err := l.Clear(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if rows, err := l.Primer(ctx, "s"); err != nil || len(rows[0].Columns)+len(rows[1].Columns) != 0 {
		t.Errorf("after Clear: %+v, %v", rows, err)
	}

	for _, bad := range []teaching.LabPut{{}, {Name: strings.Repeat("n", 101)}, {Name: "a", Value: strings.Repeat("v", 101)}, {SuperColumn: strings.Repeat("s", 101), Name: "a"}} {
		if _, err := l.Put(ctx, "s", bad); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("Put(%+v): %v, want ErrInvalid", bad, err)
		}
	}
	for i := range 50 {
		if _, err := l.Put(ctx, "full", teaching.LabPut{Name: fmt.Sprint("c", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Put(ctx, "full", teaching.LabPut{Name: "one more"}); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "clear it first") {
		t.Errorf("a full primer row: %v", err)
	}
}

// The deleted column that comes back: a replica that missed a delete for longer than gc_grace
// brings the column back once the other has dropped its tombstone; a compaction within
// gc_grace, or a repair before it, keeps it deleted.
func TestLabReplicas(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	ctx := context.Background()
	const day = int64(86_400_000_000)
	base := int64(1273651200000000)
	at := func(days int64) int64 {
		if days < 0 {
			return 0
		}
		return base + days*day
	}
	for _, tc := range []struct {
		name                               string
		deleted, repaired, compacted, read int64 // days; repaired -1 for none
		found                              bool
		dropped                            [2]int
		steps                              string
	}{
		{"compacted after gc_grace: the column comes back", 1, -1, 12, 13, true, [2]int{1, 0}, "write delete compaction read"},
		{"compacted within gc_grace: still deleted", 1, -1, 9, 13, false, [2]int{0, 0}, "write delete compaction read"},
		{"repaired, then compacted after gc_grace", 1, 5, 12, 13, false, [2]int{1, 1}, "write delete repair compaction read"},
		// The repair sends the tombstone with A's receipt time (day 1), as 0.6 sends a column
		// whole: B's goes on day 11 too, not ten days after the repair.
		{"repaired, then compacted a grace after the delete", 1, 5, 11, 12, false, [2]int{1, 1}, "write delete repair compaction read"},
		{"repaired, then compacted a day before", 1, 5, 10, 12, false, [2]int{0, 0}, "write delete repair compaction read"},
		{"repaired after the compaction: the column comes back", 1, 13, 12, 14, true, [2]int{1, 0}, "write delete compaction repair read"},
	} {
		run, err := l.Replicas(ctx, "s", teaching.ReplicaScenario{Value: "(900) 976-6666", Written: at(0), Deleted: at(tc.deleted),
			Repaired: at(tc.repaired), Compacted: at(tc.compacted), GCGrace: 864000, Read: at(tc.read)})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var steps []string
		var dropped [2]int
		for _, s := range run.Steps {
			steps = append(steps, s.What)
			if s.What == "compaction" {
				dropped = s.Dropped
			}
		}
		if strings.Join(steps, " ") != tc.steps || dropped != tc.dropped {
			t.Errorf("%s: steps %v, dropped %v", tc.name, steps, dropped)
		}
		if run.Found != tc.found || tc.found && (run.Value != "(900) 976-6666" || run.TS != at(0)) {
			t.Errorf("%s: read %v %q @%d", tc.name, run.Found, run.Value, run.TS)
		}
		// After the delete replica A holds a tombstone and B the value.
		del := run.Steps[1]
		if len(del.A) != 1 || !del.A[0].Deleted || del.A[0].Timestamp != at(tc.deleted) || len(del.B) != 1 || del.B[0].Value != `"(900) 976-6666"` {
			t.Errorf("%s: after the delete A=%+v B=%+v", tc.name, del.A, del.B)
		}
		// The read repair leaves both replicas alike.
		last := run.Steps[len(run.Steps)-1]
		if shown(last.A) != shown(last.B) || fmt.Sprint(last.A) != fmt.Sprint(last.B) {
			t.Errorf("%s: after the read repair A=%+v B=%+v", tc.name, last.A, last.B)
		}
		if !strings.Contains(strings.Join(last.Calls, "\n"), "consistency_level=ALL): replica A answers") {
			t.Errorf("%s: read calls %q", tc.name, last.Calls)
		}
	}
	for _, bad := range []teaching.ReplicaScenario{
		{Written: at(0), Deleted: at(0), Compacted: at(2), Read: at(3)},
		{Written: at(0), Deleted: at(2), Compacted: at(1), Read: at(3)},
		{Written: at(0), Deleted: at(1), Compacted: at(2), Read: at(2)},
		{Written: at(0), Deleted: at(1), Repaired: at(1), Compacted: at(2), Read: at(3)},
		{Written: at(0), Deleted: at(1), Compacted: at(2), Read: at(3), GCGrace: -1},
		{Written: at(0), Deleted: at(1), Compacted: at(2), Read: at(3), Value: strings.Repeat("v", 101)},
	} {
		if _, err := l.Replicas(ctx, "s", bad); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("Replicas(%+v): %v, want ErrInvalid", bad, err)
		}
	}
}
