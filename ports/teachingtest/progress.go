package teachingtest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"twissandra/ports/porttest"
	"twissandra/ports/teaching"
)

// RunProgress checks a teaching.ProgressStore: what a learner visited and passed comes back in
// the order first done, each once however often it is recorded; learners are kept apart; a
// learner who did nothing has an empty Progress; concurrent records of one learner lose
// nothing and repeat nothing; and a cancelled context is an error, not an answer.
func RunProgress(t *testing.T, store teaching.ProgressStore) {
	t.Run("Unknown", func(t *testing.T) {
		c := porttest.Context(t)
		p, err := store.Progress(c, porttest.Name("nobody"))
		if err != nil || len(p.Visited) != 0 || len(p.Passed) != 0 {
			t.Fatalf("a learner who did nothing: %+v, %v; want an empty Progress", p, err)
		}
	})
	t.Run("FirstDoneOrderOnce", func(t *testing.T) {
		c := porttest.Context(t)
		user := porttest.Name("learner")
		// Neither list is in the items' own order, so that a store that sorts them fails.
		steps := []struct {
			pass bool
			item string
		}{
			{false, "writes"}, {false, "columns"}, {true, "columns-2"}, {false, "writes"},
			{true, "columns-1"}, {false, "blog"}, {true, "columns-2"}, {false, "columns"},
			{true, "blog-1"}, {false, "blog"}, {true, "columns-1"},
		}
		for _, s := range steps {
			record(t, c, store, user, s.pass, s.item)
		}
		want := teaching.Progress{Visited: []string{"writes", "columns", "blog"}, Passed: []string{"columns-2", "columns-1", "blog-1"}}
		mustProgress(t, c, store, user, want)
		// Recording everything again changes nothing.
		for _, s := range steps {
			record(t, c, store, user, s.pass, s.item)
		}
		mustProgress(t, c, store, user, want)
	})
	t.Run("LearnersApart", func(t *testing.T) {
		c := porttest.Context(t)
		a, b := porttest.Name("ann"), porttest.Name("bob")
		record(t, c, store, a, false, "writes")
		record(t, c, store, a, true, "writes-1")
		record(t, c, store, b, false, "tokens")
		mustProgress(t, c, store, a, teaching.Progress{Visited: []string{"writes"}, Passed: []string{"writes-1"}})
		mustProgress(t, c, store, b, teaching.Progress{Visited: []string{"tokens"}})
		// A lesson and an exercise of one name are two things.
		record(t, c, store, b, true, "tokens")
		mustProgress(t, c, store, b, teaching.Progress{Visited: []string{"tokens"}, Passed: []string{"tokens"}})
	})
	// Racers record the same items and items of their own for one learner at once: every item
	// comes back once, and the items each racer recorded in turn keep that racer's order.
	t.Run("Concurrent", func(t *testing.T) {
		c := porttest.Context(t)
		user := porttest.Name("racer")
		const racers, items = 8, 6
		var wg sync.WaitGroup
		errs := make(chan error, racers)
		for r := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range items {
					if err := store.RecordVisit(c, user, fmt.Sprintf("shared-%d", i)); err != nil {
						errs <- err
						return
					}
					if err := store.RecordPass(c, user, fmt.Sprintf("racer-%d-%d", r, i)); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("a concurrent record: %v", err)
		}
		p, err := store.Progress(c, user)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Visited) != items || len(p.Passed) != racers*items {
			t.Fatalf("after %d racers: %d visited, %d passed; want %d and %d:\n%+v", racers, len(p.Visited), len(p.Passed), items, racers*items, p)
		}
		mustOnceEach(t, "visited", p.Visited)
		mustOnceEach(t, "passed", p.Passed)
		for r := range racers {
			var own []string
			for _, x := range p.Passed {
				var rr, i int
				if _, err := fmt.Sscanf(x, "racer-%d-%d", &rr, &i); err == nil && rr == r {
					own = append(own, x)
				}
			}
			for i, x := range own {
				if want := fmt.Sprintf("racer-%d-%d", r, i); x != want {
					t.Fatalf("racer %d's passes came back as %v, not in the order it recorded them", r, own)
				}
			}
		}
	})
	// Forgetting a learner empties their progress and no other's, and recording starts again.
	t.Run("Forget", func(t *testing.T) {
		c := porttest.Context(t)
		a, b := porttest.Name("reset"), porttest.Name("kept")
		record(t, c, store, a, false, "writes")
		record(t, c, store, a, true, "writes-1")
		record(t, c, store, b, false, "tokens")
		if err := store.ForgetProgress(c, a); err != nil {
			t.Fatalf("ForgetProgress: %v", err)
		}
		mustProgress(t, c, store, a, teaching.Progress{})
		mustProgress(t, c, store, b, teaching.Progress{Visited: []string{"tokens"}})
		record(t, c, store, a, true, "writes-1")
		mustProgress(t, c, store, a, teaching.Progress{Passed: []string{"writes-1"}})
		if err := store.ForgetProgress(c, porttest.Name("nobody")); err != nil {
			t.Fatalf("ForgetProgress of a learner who did nothing: %v", err)
		}
	})
	t.Run("Cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(porttest.Context(t))
		cancel()
		user := porttest.Name("gone")
		if err := store.RecordVisit(ctx, user, "writes"); !errors.Is(err, context.Canceled) {
			t.Errorf("RecordVisit on a cancelled context: %v, want context.Canceled", err)
		}
		if err := store.RecordPass(ctx, user, "writes-1"); !errors.Is(err, context.Canceled) {
			t.Errorf("RecordPass on a cancelled context: %v, want context.Canceled", err)
		}
		if err := store.ForgetProgress(ctx, user); !errors.Is(err, context.Canceled) {
			t.Errorf("ForgetProgress on a cancelled context: %v, want context.Canceled", err)
		}
		if p, err := store.Progress(ctx, user); !errors.Is(err, context.Canceled) {
			t.Errorf("Progress on a cancelled context: %+v, %v; want context.Canceled", p, err)
		}
		mustProgress(t, porttest.Context(t), store, user, teaching.Progress{})
	})
}

func record(t *testing.T, c context.Context, store teaching.ProgressStore, user string, pass bool, item string) {
	t.Helper()
	rec, what := store.RecordVisit, "RecordVisit"
	if pass {
		rec, what = store.RecordPass, "RecordPass"
	}
	if err := rec(c, user, item); err != nil {
		t.Fatalf("%s(%s, %s): %v", what, user, item, err)
	}
}

func mustProgress(t *testing.T, c context.Context, store teaching.ProgressStore, user string, want teaching.Progress) {
	t.Helper()
	got, err := store.Progress(c, user)
	if err != nil {
		t.Fatalf("Progress(%s): %v", user, err)
	}
	if !slices.Equal(got.Visited, want.Visited) || !slices.Equal(got.Passed, want.Passed) {
		t.Fatalf("Progress(%s):\n  visited %q, passed %q\nwant\n  visited %q, passed %q", user, got.Visited, got.Passed, want.Visited, want.Passed)
	}
}

func mustOnceEach(t *testing.T, what string, xs []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, x := range xs {
		if seen[x] {
			t.Fatalf("%s holds %q twice: %q", what, x, xs)
		}
		seen[x] = true
	}
}
