package engine

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// cachedNode is an in-memory node whose Scratch column families keep rowsCached rows each.
func cachedNode(t *testing.T, rowsCached, budget int) *Node {
	t.Helper()
	n, err := Open(Options{Schema: everyRowCached(nil, rowsCached), RowCacheSize: budget})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

func all100() SliceRange { return SliceRange{Count: 100} }

func TestRowCacheServesAndDrops(t *testing.T) {
	n := cachedNode(t, 10, 0)
	for _, c := range []string{"a", "b", "c"} {
		insert(t, n, "Scratch", "Bytes", "r", nil, b(c), "v"+c, 1)
	}
	s0 := n.RowCacheStats()
	if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, all100()); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("first read %q", got)
	}
	s1 := n.RowCacheStats()
	if s1.Fills != s0.Fills+1 || s1.Rows != 1 {
		t.Fatalf("a read from the row's start did not fill the cache: %+v", s1)
	}
	// Every read of the row is now a hit, and answers as the storage does.
	if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, SliceRange{Start: b("b"), Count: 1}); !slices.Equal(got, []string{"b"}) {
		t.Fatalf("slice from b: %q", got)
	}
	if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, SliceRange{Reversed: true, Count: 2}); !slices.Equal(got, []string{"c", "b"}) {
		t.Fatalf("reversed: %q", got)
	}
	if c, err := n.GetCount(bg, "Scratch", "r", ColumnParent{ColumnFamily: "Bytes"}, ONE); err != nil || c != 3 {
		t.Fatalf("count %d, %v", c, err)
	}
	got, err := n.Get(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes", Column: b("c")}, ONE)
	if err != nil || string(got.Column.Value) != "vc" {
		t.Fatalf("get c: %+v %v", got.Column, err)
	}
	if s2 := n.RowCacheStats(); s2.Hits < s1.Hits+4 || s2.Fills != s1.Fills {
		t.Fatalf("reads of a cached row missed: %+v then %+v", s1, s2)
	}

	// Each kind of write drops the row, and the next read sees the write.
	writes := []struct {
		name  string
		write func() error
		want  []string
	}{
		{"insert", func() error {
			return n.Insert(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes", Column: b("d")}, b("vd"), 2, ONE)
		}, []string{"a", "b", "c", "d"}},
		{"remove column", func() error {
			return n.Remove(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes", Column: b("a")}, 2, ONE)
		}, []string{"b", "c", "d"}},
		{"batch", func() error {
			return n.BatchMutate(bg, "Scratch", map[string]map[string][]Mutation{"r": {"Bytes": {colMut(b("e"), "ve", 3)}}}, ONE)
		}, []string{"b", "c", "d", "e"}},
		{"insert if absent", func() error {
			_, _, err := n.InsertIfAbsent(bg, "Scratch", "r", ColumnParent{ColumnFamily: "Bytes"}, Column{Name: b("f"), Value: b("vf"), Timestamp: 3}, ONE)
			return err
		}, []string{"b", "c", "d", "e", "f"}},
		{"remove row", func() error {
			return n.Remove(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes"}, 3, ONE)
		}, []string{}},
	}
	for _, w := range writes {
		before := n.RowCacheStats()
		if err := w.write(); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		if after := n.RowCacheStats(); after.Drops != before.Drops+1 || after.Rows != 0 {
			t.Fatalf("%s did not drop the row: %+v", w.name, after)
		}
		if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, all100()); !slices.Equal(got, w.want) {
			t.Fatalf("after %s: %q, want %q", w.name, got, w.want)
		}
	}
}

// TestRowCacheFillsOnlyFromWholeReads: a read fills the cache only when it reads from the row's
// start and asks for a fair share of what the row holds, so a slice of a wide row stays
// O(log n + k).
func TestRowCacheFillsOnlyFromWholeReads(t *testing.T) {
	n := cachedNode(t, 10, 0)
	muts := map[string]map[string][]Mutation{"wide": {"Longs": nil}}
	for i := range 5000 {
		muts["wide"]["Longs"] = append(muts["wide"]["Longs"], colMut(long(int64(i)), "v", 1))
	}
	if err := n.BatchMutate(bg, "Scratch", muts, ONE); err != nil {
		t.Fatal(err)
	}
	insert(t, n, "Scratch", "Longs", "small", nil, long(1), "v", 1)
	for _, sr := range []SliceRange{
		{Count: 40, Reversed: true},  // the newest 40: not from the start
		{Start: long(10), Count: 40}, // from a column
		{Count: 40},                  // from the start, but 40 of 5000
	} {
		if got := sliceNames(t, n, "Scratch", "Longs", "wide", nil, sr); len(got) != 40 {
			t.Fatalf("%+v: %d columns", sr, len(got))
		}
		if s := n.RowCacheStats(); s.Fills != 0 {
			t.Fatalf("slice %+v of a 5000-column row filled the cache: %+v", sr, s)
		}
	}
	if got := sliceNames(t, n, "Scratch", "Longs", "small", nil, SliceRange{Count: 1}); len(got) != 1 || n.RowCacheStats().Fills != 1 {
		t.Fatalf("a small row was not cached: %v %+v", got, n.RowCacheStats())
	}
	if got := sliceNames(t, n, "Scratch", "Longs", "wide", nil, SliceRange{Count: 5000}); len(got) != 5000 || n.RowCacheStats().Fills != 2 {
		t.Fatalf("a read of the whole wide row did not cache it: %d %+v", len(got), n.RowCacheStats())
	}
}

func TestRowCacheBounds(t *testing.T) {
	n := cachedNode(t, 2, 0)
	for _, key := range []string{"a", "b", "c"} {
		insert(t, n, "Scratch", "Bytes", key, nil, b("x"), "v", 1)
		sliceNames(t, n, "Scratch", "Bytes", key, nil, all100())
	}
	if s := n.RowCacheStats(); s.Fills != 3 || s.Rows != 2 {
		t.Fatalf("RowsCached=2 holds %d rows after %d fills", s.Rows, s.Fills)
	}
	// The least recently used row went: a is read from storage and fills again.
	sliceNames(t, n, "Scratch", "Bytes", "a", nil, all100())
	if s := n.RowCacheStats(); s.Fills != 4 {
		t.Fatalf("the evicted row was served from the cache: %+v", s)
	}

	// A byte budget too small for a row: it is never cached, and reads still answer.
	small := cachedNode(t, 10, 4096)
	for i := range 100 {
		insert(t, small, "Scratch", "Bytes", "big", nil, fmt.Appendf(nil, "col%03d", i), strings.Repeat("x", 100), 1)
	}
	if got := sliceNames(t, small, "Scratch", "Bytes", "big", nil, all100()); len(got) != 100 || small.RowCacheStats().Rows != 0 {
		t.Fatalf("%d columns, %+v", len(got), small.RowCacheStats())
	}

	// RowCacheSize < 0 turns the cache off whatever the schema says.
	off, err := Open(Options{Schema: everyRowCached(nil, 10), RowCacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	insert(t, off, "Scratch", "Bytes", "r", nil, b("x"), "v", 1)
	sliceNames(t, off, "Scratch", "Bytes", "r", nil, all100())
	if s := off.RowCacheStats(); s.Fills != 0 || s.Misses != 0 {
		t.Fatalf("cache off, yet %+v", s)
	}
}

// TestRowCacheEvictsTheLeastRecentlyUsed: a row read since it was cached outlives one that was
// not, whatever their order of filling, in the column family's bound and in the byte budget.
func TestRowCacheEvictsTheLeastRecentlyUsed(t *testing.T) {
	fill := func(n *Node, keys ...string) {
		for _, key := range keys {
			insert(t, n, "Scratch", "Bytes", key, nil, b("x"), strings.Repeat("v", 500), 1)
			sliceNames(t, n, "Scratch", "Bytes", key, nil, all100())
		}
	}
	cachedAfter := func(n *Node, key string) bool {
		before := n.RowCacheStats().Hits
		sliceNames(t, n, "Scratch", "Bytes", key, nil, all100())
		return n.RowCacheStats().Hits == before+1
	}
	for _, tc := range []struct {
		name       string
		rows, size int
		full       []string // what fills the cache to its bound
	}{{"RowsCached", 2, 0, []string{"a", "b"}}, {"byte budget", 100, 2400, []string{"a", "b", "c", "d"}}} {
		t.Run(tc.name, func(t *testing.T) {
			n := cachedNode(t, tc.rows, tc.size) // a row is about 580 bytes: 4 fit in 2400
			fill(n, tc.full...)
			if s := n.RowCacheStats(); s.Rows != len(tc.full) {
				t.Fatalf("%d rows cached after filling %d", s.Rows, len(tc.full))
			}
			if !cachedAfter(n, "a") { // a is used: b is now the least recently used
				t.Fatalf("a is not cached: %+v", n.RowCacheStats())
			}
			fill(n, "e")
			if s := n.RowCacheStats(); s.Rows != len(tc.full) {
				t.Fatalf("%d rows cached, bound %d", s.Rows, len(tc.full))
			}
			if !cachedAfter(n, "a") {
				t.Fatalf("the row read last was evicted before the one never read: %+v", n.RowCacheStats())
			}
			if cachedAfter(n, "b") {
				t.Fatalf("b, never read since its fill, outlived the others: %+v", n.RowCacheStats())
			}
		})
	}
}

// TestRowCacheNeverKeepsAStaleSnapshot: a reader opened before a write, filling the cache
// after it, must not leave the pre-write row in the cache.
func TestRowCacheNeverKeepsAStaleSnapshot(t *testing.T) {
	n := cachedNode(t, 10, 0)
	insert(t, n, "Scratch", "Bytes", "r", nil, b("a"), "old", 1)
	cf, err := n.columnFamily("Scratch", "Bytes")
	if err != nil {
		t.Fatal(err)
	}
	r, err := n.newReader() // its snapshot has only a
	if err != nil {
		t.Fatal(err)
	}
	insert(t, n, "Scratch", "Bytes", "r", nil, b("b"), "new", 2)
	row, err := r.cachedRowFor(cf, "r", 100)
	if err != nil || row == nil || len(row.keys) != 1 {
		t.Fatalf("reading the snapshot: %+v %v, want the one cell it holds", row, err)
	}
	r.close()
	if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, all100()); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("after the write, a read gives %q: the stale snapshot was cached", got)
	}
}

// TestRowCacheConcurrent has writers and readers on a few cached rows at once; afterwards
// every row read through the cache equals the row read from storage.
func TestRowCacheConcurrent(t *testing.T) {
	n := cachedNode(t, 3, 0)
	keys := []string{"r0", "r1", "r2", "r3", "r4"}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				key := keys[(w+i)%len(keys)]
				col := fmt.Appendf(nil, "w%d-%03d", w, i)
				var err error
				if i%7 == 6 {
					err = n.Remove(bg, "Scratch", key, ColumnPath{ColumnFamily: "Bytes", Column: fmt.Appendf(nil, "w%d-%03d", w, i-1)}, int64(i+1), ONE)
				} else {
					err = n.Insert(bg, "Scratch", key, ColumnPath{ColumnFamily: "Bytes", Column: col}, b("v"), int64(i+1), ONE)
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
		wg.Go(func() {
			for i := range 300 {
				key := keys[(w+i)%len(keys)]
				if _, err := n.GetSlice(bg, "Scratch", key, ColumnParent{ColumnFamily: "Bytes"}, SlicePredicate{SliceRange: &SliceRange{Count: 1000}}, ONE); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, key := range keys {
		first := sliceNames(t, n, "Scratch", "Bytes", key, nil, SliceRange{Count: 1000})
		cached := sliceNames(t, n, "Scratch", "Bytes", key, nil, SliceRange{Count: 1000}) // from the cache now
		if !slices.Equal(first, cached) {
			t.Fatalf("row %s: %q, then %q", key, first, cached)
		}
		r, err := n.newReader()
		if err != nil {
			t.Fatal(err)
		}
		cf, _ := n.columnFamily("Scratch", "Bytes")
		out := collector{}
		r.row = n.appendRowPrefix(r.row[:0], cf, key)
		P := append(append([]byte(nil), r.row...), kindColumns)
		if err := r.sliceColumns(P, cf.cmp, &SliceRange{Count: 1000}, noDeletion, &out); err != nil {
			t.Fatal(err)
		}
		r.close()
		if stored := names(out.standard()); !slices.Equal(cached, stored) {
			t.Fatalf("row %s: cache %q, storage %q", key, cached, stored)
		}
	}
}

func b(s string) []byte { return []byte(s) }

// A multiget of rows the cache holds whole opens no snapshot, and still answers a count of
// zero, names, and rows it lacks as the storage does.
func TestMultigetOverTheRowCache(t *testing.T) {
	n, err := Open(Options{Schema: everyRowCached(nil, 100), RowCacheSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	for _, k := range []string{"a", "b"} {
		insert(t, n, "Scratch", "Bytes", k, nil, []byte("x"), "1", 1)
		insert(t, n, "Scratch", "Bytes", k, nil, []byte("y"), "2", 1)
	}
	parent := ColumnParent{ColumnFamily: "Bytes"}
	all := SlicePredicate{SliceRange: &SliceRange{Count: 10}}
	for range 2 { // the first fills the cache, the second is served by it
		got, err := n.MultigetSliceList(bg, "Scratch", []string{"a", "b", "a"}, parent, all, ONE)
		if err != nil || len(got) != 3 || len(got[0]) != 2 || len(got[1]) != 2 || len(got[2]) != 2 {
			t.Fatalf("%v %v", got, err)
		}
	}
	for _, pred := range []SlicePredicate{
		{SliceRange: &SliceRange{Count: 0}},
		{ColumnNames: [][]byte{[]byte("y")}},
		{SliceRange: &SliceRange{Start: []byte("y"), Count: 10}},
	} {
		got, err := n.MultigetSliceList(bg, "Scratch", []string{"a", "b", "none"}, parent, pred, ONE)
		if err != nil || len(got) != 3 || len(got[2]) != 0 {
			t.Fatalf("%+v: %v %v", pred, got, err)
		}
		want := 1
		if pred.SliceRange != nil && pred.SliceRange.Count == 0 {
			want = 0
		}
		if len(got[0]) != want || len(got[1]) != want {
			t.Fatalf("%+v: %d and %d columns, want %d", pred, len(got[0]), len(got[1]), want)
		}
	}
	if s := n.RowCacheStats(); s.Hits == 0 || s.Fills != 2 {
		t.Fatalf("row cache %+v: want hits and two fills", s)
	}
}
