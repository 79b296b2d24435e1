package teach

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"twissandra/adapters/widerow/engine"
	"twissandra/ports/teaching"
)

func labLong(t *testing.T, l *Lab, session string) []string {
	t.Helper()
	rows, err := l.Rows(context.Background(), session)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range rows[3].Names { // LongType
		out = append(out, n.Name)
	}
	return out
}

// The scratch node starts over empty once it has taken maxCells cells: earlier rows are gone,
// the write that crossed the bound is kept.
func TestLabStartsOverWhenFull(t *testing.T) {
	t.Parallel()
	l, err := NewLab()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	l.maxCells = 30 // 6 column families: 5 names fit
	ctx := context.Background()
	if _, err := l.Insert(ctx, "a", []string{"1", "2", "3", "4"}, ""); err != nil {
		t.Fatal(err)
	}
	if got := labLong(t, l, "a"); !slices.Equal(got, []string{"1", "2", "3", "4"}) {
		t.Fatalf("a before the bound: %v", got)
	}
	if _, err := l.Insert(ctx, "b", []string{"5", "6"}, ""); err != nil {
		t.Fatal(err)
	}
	if got := labLong(t, l, "a"); len(got) != 0 {
		t.Errorf("a after the node started over: %v", got)
	}
	if got := labLong(t, l, "b"); !slices.Equal(got, []string{"5", "6"}) {
		t.Errorf("b, whose insert crossed the bound: %v", got)
	}
}

// Learners keep working while the node starts over under them: no call sees a closed node, and
// every insert reads back its own names.
func TestLabStartsOverUnderLoad(t *testing.T) {
	t.Parallel()
	l, err := NewLab()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	l.maxCells = 40
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			s := fmt.Sprint("learner", i)
			for j := range 20 {
				name := fmt.Sprint(i*1000 + j)
				rows, err := l.Insert(ctx, s, []string{name}, "")
				if err != nil {
					t.Error(err)
					return
				}
				if !slices.ContainsFunc(rows[3].Names, func(n teaching.LabName) bool { return n.Name == name }) {
					t.Errorf("%s's insert of %s reads back %v", s, name, rows[3].Names)
				}
				if _, _, err := l.LastWriteWins(ctx, s, nil); err == nil {
					t.Error("no writes accepted")
				}
			}
		})
	}
	wg.Wait()
	if l.cells.Load() > l.maxCells {
		t.Errorf("%d cells counted, bound %d", l.cells.Load(), l.maxCells)
	}
}

// TryPuts leaves the row Put after Put leaves (a second write of a name replacing the first,
// subcolumns gathered in their super column), and deletes its row once read; it refuses a
// mix of both column families and what Put refuses.
func TestLabTryPutsIsPutsThenClear(t *testing.T) {
	t.Parallel()
	l, err := NewLab()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	ctx := context.Background()
	for _, puts := range [][]teaching.LabPut{
		{{Name: "email", Value: "a@x"}, {Name: "email", Value: "a@y"}, {Name: "city", Value: "Oslo"}},
		{{SuperColumn: "jsmith", Name: "zip", Value: "10001"}, {SuperColumn: "Bob", Name: "city", Value: "Oslo"}, {SuperColumn: "jsmith", Name: "city", Value: "NY"}},
	} {
		var want teaching.LabStored
		for _, p := range puts {
			if want, err = l.Put(ctx, "put", p); err != nil {
				t.Fatal(err)
			}
		}
		got, err := l.TryPuts(ctx, "try", puts)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(values(got.Columns)) != fmt.Sprint(values(want.Columns)) || len(got.Columns) != len(want.Columns) || got.ColumnFamily != want.ColumnFamily || got.Super != want.Super {
			t.Errorf("TryPuts %+v, Put after Put %+v", got, want)
		}
		n, err := l.node.GetCount(ctx, labKeyspace, got.Key, engineParent(got.ColumnFamily), engine.ONE)
		if err != nil || n != 0 {
			t.Errorf("the tried row %s holds %d columns after TryPuts (%v)", got.Key, n, err)
		}
	}
	for _, bad := range [][]teaching.LabPut{nil, {{Name: "a"}, {SuperColumn: "s", Name: "b"}}, {{Name: ""}}, {{Name: string(make([]byte, LabMaxName+1))}}} {
		if _, err := l.TryPuts(ctx, "try", bad); err == nil {
			t.Errorf("TryPuts(%+v) took it", bad)
		}
	}
}

// ClearRow deletes one comparator's row of the session, and leaves the others.
func TestLabClearRowClearsOneRow(t *testing.T) {
	t.Parallel()
	l, err := NewLab()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	ctx := context.Background()
	if _, err := l.Insert(ctx, "s", []string{"1", "2"}, "v"); err != nil {
		t.Fatal(err)
	}
	if err := l.ClearRow(ctx, "s", "LongType"); err != nil {
		t.Fatal(err)
	}
	rows, err := l.Rows(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if n := len(r.Names); (r.Comparator == "LongType" && n != 0) || (r.Comparator == "BytesType" && n != 2) {
			t.Errorf("%s row holds %d names after ClearRow of LongType", r.Comparator, n)
		}
	}
	if err := l.ClearRow(ctx, "s", "NoType"); err == nil {
		t.Error("ClearRow of an unknown comparator took it")
	}
}

// values is each column's name=value, a super column's subcolumns inside it.
func values(cols []teaching.WideColumn) []string {
	var out []string
	for _, c := range cols {
		out = append(out, c.Name+"="+c.Value+fmt.Sprint(values(c.Columns)))
	}
	return out
}

func engineParent(cf string) engine.ColumnParent { return engine.ColumnParent{ColumnFamily: cf} }
