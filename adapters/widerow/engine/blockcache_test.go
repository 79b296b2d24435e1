package engine

import "testing"

// Pebble reserves its memtables' memory in the block cache. The cache must still hold blocks
// once a memtable has grown to its full size: a second read of the same slice is served from
// the cache, not read and decompressed again.
func TestBlockCacheHoldsBlocksBesideFullMemtables(t *testing.T) {
	const memtable = 4 << 20
	n, err := Open(Options{Dir: t.TempDir(), CommitLogSync: SyncPeriodic, CacheSize: memtable, MemTableSize: memtable})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	// Enough writes for memtables of every size up to the full one, then more in it.
	value := make([]byte, 200)
	const rows, width = 40, 2000
	for r := range rows {
		muts := make([]Mutation, 0, width)
		cols := make([]Column, width)
		for i := range cols {
			cols[i] = Column{Name: long(int64(i)), Value: value, Timestamp: 1}
			muts = append(muts, Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &cols[i]}})
		}
		if err := n.BatchMutate(bg, "Twissandra", map[string]map[string][]Mutation{"row" + string(rune('A'+r)): {"Timeline": muts}}, ONE); err != nil {
			t.Fatal(err)
		}
	}
	// Everything in sorted tables, no compaction left to run (it would evict the tables it
	// replaces); the memtable made after the flush has the full size, and Pebble reserves it.
	if err := n.Compact(bg); err != nil {
		t.Fatal(err)
	}
	for i := range width / 4 {
		col := Column{Name: long(int64(i)), Value: value, Timestamp: 2}
		if err := n.Insert(bg, "Twissandra", "fresh", ColumnPath{ColumnFamily: "Timeline", Column: col.Name}, value, 2, ONE); err != nil {
			t.Fatal(err)
		}
	}
	read := func() {
		for r := range rows {
			res, err := n.GetSlice(bg, "Twissandra", "row"+string(rune('A'+r)), ColumnParent{ColumnFamily: "Timeline"},
				SlicePredicate{SliceRange: &SliceRange{Reversed: true, Count: 40}}, ONE)
			if err != nil || len(res) != 40 {
				t.Fatalf("%d columns, %v", len(res), err)
			}
		}
	}
	read()
	before := n.db.Metrics().BlockCache
	read()
	after := n.db.Metrics().BlockCache
	if hits, misses := after.Hits-before.Hits, after.Misses-before.Misses; hits == 0 || misses > 0 {
		t.Fatalf("a second read of the same slices: %d cache hits, %d misses (cache holds %d bytes)", hits, misses, after.Size)
	}
}
