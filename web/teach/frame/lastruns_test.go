package frame

import (
	"strconv"
	"sync"
	"testing"
)

// A browser's run replaces its last; past LastRunsKept browsers the one that ran first goes,
// however often the others ran since.
func TestLastRunsKeepsEachBrowsersLastRun(t *testing.T) {
	var s LastRuns[int]
	if _, ok := s.Get("a"); ok {
		t.Fatal("a run kept before any")
	}
	s.Put("a", 1)
	s.Put("a", 2)
	if r, ok := s.Get("a"); !ok || r != 2 {
		t.Fatalf("a's last run: %d %v, want 2", r, ok)
	}
	for i := range LastRunsKept - 1 {
		s.Put("b"+strconv.Itoa(i), i)
	}
	s.Put("a", 3) // a run again: a stays the oldest browser
	if r, ok := s.Get("a"); !ok || r != 3 {
		t.Fatalf("a before the bound: %d %v", r, ok)
	}
	s.Put("c", 0)
	if _, ok := s.Get("a"); ok {
		t.Fatal("the first browser kept past the bound")
	}
	if r, ok := s.Get("b0"); !ok || r != 0 {
		t.Fatalf("the second browser dropped: %d %v", r, ok)
	}
	if len(s.m) != LastRunsKept || len(s.order) != LastRunsKept {
		t.Fatalf("%d runs, %d in order, want %d", len(s.m), len(s.order), LastRunsKept)
	}
}

func TestLastRunsConcurrently(t *testing.T) {
	var s LastRuns[int]
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				s.Put(strconv.Itoa(g*1000+i%50), i)
				s.Get(strconv.Itoa(g))
			}
		})
	}
	wg.Wait()
	if len(s.m) != 8*50 {
		t.Fatalf("%d browsers kept, want %d", len(s.m), 8*50)
	}
}
