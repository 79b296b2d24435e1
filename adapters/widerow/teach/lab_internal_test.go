package teach

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

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
