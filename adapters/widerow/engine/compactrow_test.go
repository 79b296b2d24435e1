package engine

import (
	"fmt"
	"testing"
)

// storedOf lists a row's stored cells as name=value@ts, a tombstone as name†@ts (a super column
// name before a slash; a deletion marker has no name).
func storedOf(t *testing.T, n *Node, cf, key string) []string {
	t.Helper()
	cells, err := n.StoredCells(bg, "Scratch", cf, key, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cells {
		s := string(c.Name)
		if cf == "Longs" && len(c.Name) == 8 {
			s = fmt.Sprint(int64(c.Name[7]))
		}
		if c.SuperColumn != nil {
			s = string(c.SuperColumn) + "/" + s
		}
		if c.Tombstone {
			out = append(out, fmt.Sprintf("%s†@%d", s, c.Timestamp))
		} else {
			out = append(out, fmt.Sprintf("%s=%s@%d", s, c.Value, c.Timestamp))
		}
	}
	return out
}

// CompactRow keeps a tombstone until gcBefore passes its deletion time, then drops it; it
// always drops what a row or super column tombstone hides, and a get_slice reads the same
// before and after.
func TestCompactRow(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		remove := func(cf, key string, sc, name []byte, ts int64) {
			t.Helper()
			if err := n.Remove(bg, "Scratch", key, ColumnPath{ColumnFamily: cf, SuperColumn: sc, Column: name}, ts, ONE); err != nil {
				t.Fatal(err)
			}
		}
		insert(t, n, "Scratch", "Longs", "r", nil, long(1), "one", 10)
		insert(t, n, "Scratch", "Longs", "r", nil, long(2), "two", 10)
		insert(t, n, "Scratch", "Longs", "r", nil, long(3), "three", 10)
		remove("Longs", "r", nil, long(2), 20)
		remove("Longs", "r", nil, long(3), 50)
		for _, step := range []struct {
			gcBefore int64
			want     Compacted
			stored   string
		}{
			{20, Compacted{}, "[1=one@10 2†@20 3†@50]"},    // deleted at 20: not before 20
			{21, Compacted{Purged: 1}, "[1=one@10 3†@50]"}, // 2's tombstone goes, 3's stays
			{21, Compacted{}, "[1=one@10 3†@50]"},          // nothing more to drop
			{1 << 62, Compacted{Purged: 1}, "[1=one@10]"},  // every tombstone is old
		} {
			got, err := n.CompactRow(bg, "Scratch", "Longs", "r", step.gcBefore)
			if err != nil || got != step.want {
				t.Fatalf("CompactRow(gcBefore=%d): %+v, %v; want %+v", step.gcBefore, got, err, step.want)
			}
			if s := fmt.Sprint(storedOf(t, n, "Longs", "r")); s != step.stored {
				t.Fatalf("after CompactRow(gcBefore=%d): %s, want %s", step.gcBefore, s, step.stored)
			}
			if live := sliceNames(t, n, "Scratch", "Longs", "r", nil, SliceRange{Count: 10}); len(live) != 1 {
				t.Fatalf("get_slice after CompactRow(gcBefore=%d): %v", step.gcBefore, live)
			}
		}

		// A row tombstone hides what it covers: a compaction drops those cells at once and
		// keeps the tombstone until its grace has passed.
		insert(t, n, "Scratch", "UTF8s", "rd", nil, []byte("a"), "old", 10)
		insert(t, n, "Scratch", "UTF8s", "rd", nil, []byte("b"), "new", 40)
		remove("UTF8s", "rd", nil, nil, 30)
		if got, err := n.CompactRow(bg, "Scratch", "UTF8s", "rd", 0); err != nil || got != (Compacted{Shadowed: 1}) {
			t.Fatalf("row tombstone: %+v, %v", got, err)
		}
		if s := fmt.Sprint(storedOf(t, n, "UTF8s", "rd")); s != "[†@30 b=new@40]" {
			t.Fatalf("after the row tombstone's compaction: %s", s)
		}
		if got, _ := n.CompactRow(bg, "Scratch", "UTF8s", "rd", 31); got != (Compacted{Purged: 1}) {
			t.Fatalf("row tombstone past its grace: %+v", got)
		}
		if s := fmt.Sprint(storedOf(t, n, "UTF8s", "rd")); s != "[b=new@40]" {
			t.Fatalf("after the row tombstone went: %s", s)
		}

		// A super column's tombstone hides its older subcolumns, not its newer ones nor another
		// super column's.
		insert(t, n, "Scratch", "AddressBook", "p", []byte("John"), []byte("zip"), "94404", 10)
		insert(t, n, "Scratch", "AddressBook", "p", []byte("John"), []byte("city"), "FC", 60)
		insert(t, n, "Scratch", "AddressBook", "p", []byte("Kim"), []byte("zip"), "87876", 10)
		remove("AddressBook", "p", []byte("John"), nil, 50)
		if got, err := n.CompactRow(bg, "Scratch", "AddressBook", "p", 50); err != nil || got != (Compacted{Shadowed: 1}) {
			t.Fatalf("super column tombstone: %+v, %v", got, err)
		}
		if s := fmt.Sprint(storedOf(t, n, "AddressBook", "p")); s != "[John/†@50 John/city=FC@60 Kim/zip=87876@10]" {
			t.Fatalf("after the super column's compaction: %s", s)
		}
		if got, _ := n.CompactRow(bg, "Scratch", "AddressBook", "p", 51); got != (Compacted{Purged: 1}) {
			t.Fatalf("super column tombstone past its grace: %+v", got)
		}

		if _, err := n.CompactRow(bg, "Scratch", "Nope", "r", 0); err == nil {
			t.Error("an unknown column family is an error")
		}
		if _, err := n.CompactRow(bg, "Scratch", "Longs", "", 0); err == nil {
			t.Error("an empty key is an error")
		}
	})
}
