package engine

import (
	"context"
	"errors"
	"testing"
)

// A reset node holds no row, not even a deleted one a range slice would list, and takes writes
// of any timestamp after it, older ones than the tombstones it dropped included; a node with a
// row cache refuses it.
func TestResetDropsEveryRow(t *testing.T) {
	ctx := context.Background()
	n, err := Open(Options{RowCacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	path := ColumnPath{ColumnFamily: "Bytes", Column: []byte("c")}
	for _, k := range []string{"a", "b"} {
		if err := n.Insert(ctx, "Scratch", k, path, []byte("v"), 10, ONE); err != nil {
			t.Fatal(err)
		}
	}
	sc := ColumnPath{ColumnFamily: "AddressBook", SuperColumn: []byte("ann"), Column: []byte("city")}
	if err := n.Insert(ctx, "Scratch", "a", sc, []byte("Oslo"), 10, ONE); err != nil {
		t.Fatal(err)
	}
	if err := n.Remove(ctx, "Scratch", "b", ColumnPath{ColumnFamily: "Bytes"}, 20, ONE); err != nil {
		t.Fatal(err)
	}
	rows := func() []KeySlice {
		t.Helper()
		ks, err := n.GetRangeSlices(ctx, "Scratch", ColumnParent{ColumnFamily: "Bytes"}, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, KeyRange{Count: 10}, ONE)
		if err != nil {
			t.Fatal(err)
		}
		return ks
	}
	if got := rows(); len(got) != 2 { // a, and b's range ghost
		t.Fatalf("before the reset: %d rows, want 2", len(got))
	}
	if err := n.Reset(); err != nil {
		t.Fatal(err)
	}
	if got := rows(); len(got) != 0 {
		t.Fatalf("after the reset: rows %+v, want none", got)
	}
	if c, err := n.GetCount(ctx, "Scratch", "a", ColumnParent{ColumnFamily: "AddressBook"}, ONE); err != nil || c != 0 {
		t.Fatalf("the super row after the reset: %d columns (%v), want 0", c, err)
	}
	// b's row tombstone was at 20: gone with the rest, a write at 5 reads back.
	if err := n.Insert(ctx, "Scratch", "b", path, []byte("again"), 5, ONE); err != nil {
		t.Fatal(err)
	}
	got, err := n.Get(ctx, "Scratch", "b", path, ONE)
	if err != nil || got.Column == nil || string(got.Column.Value) != "again" {
		t.Fatalf("a write after the reset: %+v, %v", got, err)
	}
	if got := rows(); len(got) != 1 || got[0].Key != "b" {
		t.Fatalf("after a write: rows %+v, want b alone", got)
	}

	cached, err := Open(Options{RowCacheSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer cached.Close()
	if err := cached.Reset(); !errors.Is(err, ErrRowCache) {
		t.Fatalf("a reset with a row cache: %v, want ErrRowCache", err)
	}
}
