package engine

import (
	"testing"

	"github.com/cockroachdb/pebble"
)

// A read looks a row's tombstone up only in column families that have had a row deleted whole.
// These tests hold the rule to its edges: the flag survives a restart, a batch that deletes a
// row of a fresh column family among thousands of other rows raises it, and a store written
// before the flag existed is read as if every column family had deletions.

func TestRowDeletionsSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	n, err := Open(Options{Dir: dir, CommitLogSync: SyncPeriodic})
	if err != nil {
		t.Fatal(err)
	}
	insert(t, n, "Scratch", "Bytes", "r", nil, []byte("a"), "1", 5)
	insert(t, n, "Scratch", "Longs", "r", nil, long(1), "1", 5)
	if err := n.Remove(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes"}, 10, ONE); err != nil {
		t.Fatal(err)
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	n, err = Open(Options{Dir: dir, CommitLogSync: SyncPeriodic})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if cf, _ := n.columnFamily("Scratch", "Bytes"); !cf.rowDeletes.Load() {
		t.Fatal("Bytes had a row deleted, and forgot it across a restart")
	}
	if cf, _ := n.columnFamily("Scratch", "Longs"); cf.rowDeletes.Load() {
		t.Fatal("Longs never had a row deleted, and is flagged")
	}
	if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, SliceRange{Count: 10}); len(got) != 0 {
		t.Fatalf("deleted row reads %q after a restart", got)
	}
}

func TestRowDeletionInALargeBatch(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		muts := map[string]map[string][]Mutation{}
		col := Column{Name: long(1), Value: []byte("v"), Timestamp: 5}
		for i := range parallelThreshold + 10 { // staged on two goroutines
			muts["row"+string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676))] = map[string][]Mutation{
				"Longs": {{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &col}}}}
		}
		if err := n.BatchMutate(bg, "Scratch", muts, ONE); err != nil {
			t.Fatal(err)
		}
		// One batch: every row gets a column again at 5, and one row is deleted whole at 6.
		del := map[string]map[string][]Mutation{}
		for k := range muts {
			del[k] = muts[k]
		}
		del["rowzzz"] = map[string][]Mutation{"Longs": {{Deletion: &Deletion{Timestamp: 6}}}}
		insert(t, n, "Scratch", "Longs", "rowzzz", nil, long(2), "1", 4)
		if err := n.BatchMutate(bg, "Scratch", del, ONE); err != nil {
			t.Fatal(err)
		}
		if got := sliceNames(t, n, "Scratch", "Longs", "rowzzz", nil, SliceRange{Count: 10}); len(got) != 0 {
			t.Fatalf("row deleted in a large batch reads %q", got)
		}
		if got := sliceNames(t, n, "Scratch", "Longs", "rowaaa", nil, SliceRange{Count: 10}); len(got) != 1 {
			t.Fatalf("a row beside it reads %q", got)
		}
	})
}

func TestStoreFromBeforeRowDeletionFlagsReadsTombstones(t *testing.T) {
	dir := t.TempDir()
	n, err := Open(Options{Dir: dir, CommitLogSync: SyncPeriodic})
	if err != nil {
		t.Fatal(err)
	}
	insert(t, n, "Scratch", "Bytes", "r", nil, []byte("a"), "1", 5)
	if err := n.Remove(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes"}, 10, ONE); err != nil {
		t.Fatal(err)
	}
	// What an earlier version wrote: the tombstone, and none of the markers.
	cf, _ := n.columnFamily("Scratch", "Bytes")
	for _, k := range []string{metaRowDelTracked, metaRowDelPrefix + string(cf.prefix)} {
		if err := n.db.Delete([]byte(k), pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	n, err = Open(Options{Dir: dir, CommitLogSync: SyncPeriodic})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, SliceRange{Count: 10}); len(got) != 0 {
		t.Fatalf("a store without the markers reads its deleted row as %q", got)
	}
}
