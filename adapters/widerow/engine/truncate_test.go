package engine

import (
	"context"
	"fmt"
	"testing"
)

// TruncateKeyspace empties one keyspace, its range ghosts included, and no other: on a schema of
// 300 column families, so that a column family's id crosses a byte (255 to 256) and the range
// of one never reaches into the next.
func TestTruncateKeyspaceEmptiesOneKeyspace(t *testing.T) {
	ctx := context.Background()
	s := &Schema{ClusterName: "t", Partitioner: RandomPartitioner, CommitLogSync: SyncBatch, GCGraceSeconds: DefaultGCGraceSeconds}
	const keyspaces = 60
	for i := range keyspaces {
		ks := KeyspaceDef{Name: fmt.Sprintf("K%02d", i), ReplicationFactor: 1}
		for _, c := range []string{"A", "B", "C", "D"} {
			ks.ColumnFamilies = append(ks.ColumnFamilies, ColumnFamilyDef{Name: c, CompareWith: BytesType})
		}
		ks.ColumnFamilies = append(ks.ColumnFamilies, ColumnFamilyDef{Name: "S", Super: true, CompareWith: BytesType, CompareSubcolumnsWith: BytesType})
		s.Keyspaces = append(s.Keyspaces, ks)
	}
	n, err := Open(Options{Schema: s, RowCacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	for _, ks := range s.Keyspaces {
		for _, cf := range ks.ColumnFamilies {
			path := ColumnPath{ColumnFamily: cf.Name, Column: []byte("c")}
			if cf.Super {
				path.SuperColumn = []byte("s")
			}
			for _, k := range []string{"a", "b"} {
				if err := n.Insert(ctx, ks.Name, k, path, []byte("v"), 10, ONE); err != nil {
					t.Fatal(err)
				}
			}
			if err := n.Remove(ctx, ks.Name, "b", ColumnPath{ColumnFamily: cf.Name}, 20, ONE); err != nil {
				t.Fatal(err)
			}
		}
	}
	rows := func(ks, cf string) int {
		t.Helper()
		got, err := n.GetRangeSlices(ctx, ks, ColumnParent{ColumnFamily: cf}, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, KeyRange{Count: 10}, ONE)
		if err != nil {
			t.Fatal(err)
		}
		return len(got)
	}
	for i, ks := range s.Keyspaces {
		if err := n.TruncateKeyspace(ks.Name); err != nil {
			t.Fatal(err)
		}
		for j, other := range s.Keyspaces {
			for _, cf := range other.ColumnFamilies {
				want := 2 // a, and b's range ghost
				if j <= i {
					want = 0
				}
				if got := rows(other.Name, cf.Name); got != want {
					t.Fatalf("after truncating %s: %s.%s lists %d rows, want %d", ks.Name, other.Name, cf.Name, got, want)
				}
			}
		}
	}
	// Written anew at an older timestamp than the tombstones it dropped, a row reads back.
	if err := n.Insert(ctx, "K00", "b", ColumnPath{ColumnFamily: "A", Column: []byte("c")}, []byte("again"), 5, ONE); err != nil {
		t.Fatal(err)
	}
	if c, err := n.GetCount(ctx, "K00", "b", ColumnParent{ColumnFamily: "A"}, ONE); err != nil || c != 1 {
		t.Fatalf("a write after the truncation: %d columns (%v), want 1", c, err)
	}
	if err := n.TruncateKeyspace("Nope"); err == nil {
		t.Error("truncating a keyspace the schema lacks: no error")
	}
	cached, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cached.Close()
	if err := cached.TruncateKeyspace("Twissandra"); err != ErrRowCache {
		t.Errorf("a keyspace with a cached column family: %v, want ErrRowCache", err)
	}
}
