package engine

import (
	"fmt"
	"testing"
)

// StoredCells shows what get_slice reads past: a column's tombstone with its deletion time, a
// super column's deletion marker, and the live cells beside them; get_slice shows only the live.
func TestStoredCellsShowTombstones(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		insert(t, n, "Scratch", "Longs", "r", nil, long(1), "one", 10)
		insert(t, n, "Scratch", "Longs", "r", nil, long(2), "two", 10)
		if err := n.Remove(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Longs", Column: long(2)}, 20, ONE); err != nil {
			t.Fatal(err)
		}
		insert(t, n, "Scratch", "Longs", "r", nil, long(3), "late", 5) // older than nothing: live
		cells, err := n.StoredCells(bg, "Scratch", "Longs", "r", 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cells {
			got = append(got, fmt.Sprintf("%x=%q@%d/%v", c.Name, c.Value, c.Timestamp, c.Tombstone))
		}
		want := []string{`0000000000000001="one"@10/false`, `0000000000000002=""@20/true`, `0000000000000003="late"@5/false`}
		if !equalStrings(got, want) {
			t.Fatalf("stored cells %v, want %v", got, want)
		}
		if live := sliceNames(t, n, "Scratch", "Longs", "r", nil, SliceRange{Count: 10}); len(live) != 2 {
			t.Fatalf("get_slice returned %v, want the two live columns", live)
		}
		if _, err := n.StoredCells(bg, "Scratch", "Nope", "r", 10); err == nil {
			t.Error("an unknown column family is an error")
		}
		if c, err := n.StoredCells(bg, "Scratch", "Longs", "r", 1); err != nil || len(c) != 1 {
			t.Errorf("limit 1: %d cells, %v", len(c), err)
		}

		insert(t, n, "Scratch", "AddressBook", "p", []byte("John"), []byte("zip"), "94404", 10)
		if err := n.Remove(bg, "Scratch", "p", ColumnPath{ColumnFamily: "AddressBook", SuperColumn: []byte("John")}, 30, ONE); err != nil {
			t.Fatal(err)
		}
		cells, err = n.StoredCells(bg, "Scratch", "AddressBook", "p", 10)
		if err != nil {
			t.Fatal(err)
		}
		got = got[:0]
		for _, c := range cells {
			got = append(got, fmt.Sprintf("%s/%s@%d/%v", c.SuperColumn, c.Name, c.Timestamp, c.Tombstone))
		}
		if !equalStrings(got, []string{"John/@30/true", "John/zip@10/false"}) {
			t.Fatalf("super column cells %v", got)
		}
	})
}

func TestRowStats(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		for i := range 3 {
			insert(t, n, "Scratch", "Longs", "wide", nil, long(int64(i)), "v", 10)
		}
		insert(t, n, "Scratch", "Longs", "narrow", nil, long(1), "value", 10)
		if err := n.Remove(bg, "Scratch", "wide", ColumnPath{ColumnFamily: "Longs", Column: long(0)}, 20, ONE); err != nil {
			t.Fatal(err)
		}
		rows, capped, err := n.RowStats(bg, "Scratch", "Longs", 100)
		if err != nil || capped || len(rows) != 2 {
			t.Fatalf("RowStats = %+v, %v, %v", rows, capped, err)
		}
		got := map[string]RowStat{}
		for _, r := range rows {
			got[r.Key] = r
		}
		// A tombstone's value is its 4-byte receipt time.
		if w := got["wide"]; w.Cells != 3 || w.Tombstones != 1 || w.Bytes != 3*8+2+4 {
			t.Errorf("wide: %+v", w)
		}
		if r := got["narrow"]; r.Cells != 1 || r.Tombstones != 0 || r.Bytes != 8+5 {
			t.Errorf("narrow: %+v", r)
		}
		if _, capped, err := n.RowStats(bg, "Scratch", "Longs", 2); err != nil || !capped {
			t.Errorf("a cap of 2 cells: capped %v, %v", capped, err)
		}
	})
}
