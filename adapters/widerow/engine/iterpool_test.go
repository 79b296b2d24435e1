package engine

import (
	"fmt"
	"sync"
	"testing"
)

// A read's iterator serves the next read while nothing is written, and no read after a write
// uses an iterator opened before it.
func TestIdleIteratorServesReadsUntilAWrite(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		insert(t, n, "Twissandra", "Timeline", "u1", nil, long(1), "t1", 1)
		read := func() int {
			t.Helper()
			got, err := n.GetSlice(bg, "Twissandra", "u1", ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, ONE)
			if err != nil {
				t.Fatal(err)
			}
			return len(got)
		}
		idle := func() int { return int(n.iters.n.Load()) }
		if read() != 1 {
			t.Fatal("the column written is not read")
		}
		if idle() != 1 {
			t.Fatalf("after a read, %d idle iterators, want 1", idle())
		}
		opened := n.iters.opened.Load()
		read()
		read()
		if got := n.iters.opened.Load(); got != opened || idle() != 1 {
			t.Fatalf("two more reads with nothing written opened %d iterators (%d idle), want none", got-opened, idle())
		}
		insert(t, n, "Twissandra", "Timeline", "u1", nil, long(2), "t2", 2)
		if idle() != 0 {
			t.Fatalf("after a write, %d idle iterators are kept", idle())
		}
		if got := read(); got != 2 {
			t.Fatalf("a read after a write found %d columns, want 2", got)
		}
		if got := n.iters.opened.Load(); got != opened+1 {
			t.Fatalf("the read after the write opened %d iterators, want 1", got-opened)
		}
	})
}

// Readers and writers at once: a read that begins after a write returned sees it, whichever
// iterator serves it.
func TestReadsSeeEveryWriteThatReturnedBeforeThem(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		const writers, writes = 4, 100
		var wg sync.WaitGroup
		errs := make(chan error, writers*2)
		for w := range writers {
			key := fmt.Sprintf("w%d", w)
			wg.Add(2)
			go func() { // writes column i, then reads it back (through any idle iterator)
				defer wg.Done()
				for i := range int64(writes) {
					if err := n.Insert(bg, "Twissandra", key, ColumnPath{ColumnFamily: "Timeline", Column: long(i)}, []byte("x"), i+1, ONE); err != nil {
						errs <- err
						return
					}
					got, err := n.GetCount(bg, "Twissandra", key, ColumnParent{ColumnFamily: "Timeline"}, ONE)
					if err != nil || got != int(i+1) {
						errs <- fmt.Errorf("%s after write %d counts %d columns (%v)", key, i, got, err)
						return
					}
				}
			}()
			go func() { // only reads, keeping iterators coming and going
				defer wg.Done()
				for range writes {
					if _, err := n.GetSlice(bg, "Twissandra", key, ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Reversed: true, Count: 5}}, ONE); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if k := n.iters.n.Load(); k > maxIdleIters {
			t.Errorf("%d idle iterators, at most %d are kept", k, maxIdleIters)
		}
	})
}

// A flush or a compaction leaves no idle iterator behind to keep what it replaced.
func TestFlushAndCompactReleaseIdleIterators(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		insert(t, n, "Twissandra", "Timeline", "u1", nil, long(1), "t1", 1)
		read := func() {
			t.Helper()
			if _, err := n.GetSlice(bg, "Twissandra", "u1", ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, ONE); err != nil {
				t.Fatal(err)
			}
		}
		read()
		if n.iters.n.Load() != 1 {
			t.Fatalf("after a read, %d idle iterators, want 1", n.iters.n.Load())
		}
		if err := n.Flush(); err != nil {
			t.Fatal(err)
		}
		if k := n.iters.n.Load(); k != 0 {
			t.Fatalf("after a flush, %d idle iterators", k)
		}
		read()
		if err := n.Compact(bg); err != nil {
			t.Fatal(err)
		}
		if k := n.iters.n.Load(); k != 0 {
			t.Fatalf("after a compaction, %d idle iterators", k)
		}
	})
}
