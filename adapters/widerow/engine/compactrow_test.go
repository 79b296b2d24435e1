package engine

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// storedOf lists a row's stored cells as name=value@ts, a tombstone as name†@ts/received (a
// super column name before a slash; a deletion marker has no name).
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
			out = append(out, fmt.Sprintf("%s†@%d/%d", s, c.Timestamp, c.DeletedAt))
		} else {
			out = append(out, fmt.Sprintf("%s=%s@%d", s, c.Value, c.Timestamp))
		}
	}
	return out
}

// at is a context under which the node's clock reads sec seconds.
func at(sec int64) context.Context { return ReceivedAt(bg, time.Unix(sec, 0)) }

// removeAt deletes a column, super column (name nil) or row (both nil), received at sec.
func removeAt(t *testing.T, n *Node, cf, key string, sc, name []byte, ts, sec int64) {
	t.Helper()
	if err := n.Remove(at(sec), "Scratch", key, ColumnPath{ColumnFamily: cf, SuperColumn: sc, Column: name}, ts, ONE); err != nil {
		t.Fatal(err)
	}
}

// CompactRow keeps a tombstone until gcBefore reaches the time the node received it, then
// drops it; it always drops what a row or super column tombstone hides, and a get_slice reads
// the same before and after.
func TestCompactRow(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		insert(t, n, "Scratch", "Longs", "r", nil, long(1), "one", 10)
		insert(t, n, "Scratch", "Longs", "r", nil, long(2), "two", 10)
		insert(t, n, "Scratch", "Longs", "r", nil, long(3), "three", 10)
		removeAt(t, n, "Longs", "r", nil, long(2), 20, 1000)
		removeAt(t, n, "Longs", "r", nil, long(3), 50, 5000)
		for _, step := range []struct {
			gcBefore int64
			want     Compacted
			stored   string
		}{
			{999, Compacted{}, "[1=one@10 2†@20/1000 3†@50/5000]"}, // received at 1000: not at or before 999
			{1000, Compacted{Purged: 1}, "[1=one@10 3†@50/5000]"},  // 2's tombstone goes (0.6: <= gcBefore), 3's stays
			{1000, Compacted{}, "[1=one@10 3†@50/5000]"},           // nothing more to drop
			{1 << 40, Compacted{Purged: 1}, "[1=one@10]"},          // every tombstone is old
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

		// A row tombstone hides what it covers: a compaction drops those cells at once. Past
		// its grace it stays while a newer column remains (0.6's removeDeleted drops a row only
		// when no column is left), and goes with the last one.
		insert(t, n, "Scratch", "UTF8s", "rd", nil, []byte("a"), "old", 10)
		insert(t, n, "Scratch", "UTF8s", "rd", nil, []byte("b"), "new", 40)
		removeAt(t, n, "UTF8s", "rd", nil, nil, 30, 100)
		if got, err := n.CompactRow(bg, "Scratch", "UTF8s", "rd", 0); err != nil || got != (Compacted{Shadowed: 1}) {
			t.Fatalf("row tombstone: %+v, %v", got, err)
		}
		if s := fmt.Sprint(storedOf(t, n, "UTF8s", "rd")); s != "[†@30/100 b=new@40]" {
			t.Fatalf("after the row tombstone's compaction: %s", s)
		}
		if got, _ := n.CompactRow(bg, "Scratch", "UTF8s", "rd", 1<<40); got != (Compacted{}) {
			t.Fatalf("row tombstone past its grace, with a newer column: %+v, want it kept", got)
		}
		if s := fmt.Sprint(storedOf(t, n, "UTF8s", "rd")); s != "[†@30/100 b=new@40]" {
			t.Fatalf("the row tombstone went with a newer column left: %s", s)
		}
		// It still hides a write older than itself that arrives now.
		insert(t, n, "Scratch", "UTF8s", "rd", nil, []byte("c"), "late", 20)
		if live := sliceNames(t, n, "Scratch", "UTF8s", "rd", nil, SliceRange{Count: 10}); fmt.Sprint(live) != "[b]" {
			t.Fatalf("a late write older than the kept row tombstone: %v, want [b]", live)
		}
		removeAt(t, n, "UTF8s", "rd", nil, []byte("b"), 60, 200)
		if got, _ := n.CompactRow(bg, "Scratch", "UTF8s", "rd", 200); got != (Compacted{Shadowed: 1, Purged: 2}) {
			t.Fatalf("the row's last column's tombstone past its grace: %+v, want the late cell, b's tombstone and the row's", got)
		}
		if s := fmt.Sprint(storedOf(t, n, "UTF8s", "rd")); s != "[]" {
			t.Fatalf("after the row's last tombstone went: %s", s)
		}

		// A super column's tombstone hides its older subcolumns, not its newer ones nor another
		// super column's; past its grace it stays while a newer subcolumn remains.
		insert(t, n, "Scratch", "AddressBook", "p", []byte("John"), []byte("zip"), "94404", 10)
		insert(t, n, "Scratch", "AddressBook", "p", []byte("John"), []byte("city"), "FC", 60)
		insert(t, n, "Scratch", "AddressBook", "p", []byte("Kim"), []byte("zip"), "87876", 10)
		removeAt(t, n, "AddressBook", "p", []byte("John"), nil, 50, 100)
		if got, err := n.CompactRow(bg, "Scratch", "AddressBook", "p", 1<<40); err != nil || got != (Compacted{Shadowed: 1}) {
			t.Fatalf("super column tombstone: %+v, %v", got, err)
		}
		if s := fmt.Sprint(storedOf(t, n, "AddressBook", "p")); s != "[John/†@50/100 John/city=FC@60 Kim/zip=87876@10]" {
			t.Fatalf("after the super column's compaction: %s", s)
		}
		removeAt(t, n, "AddressBook", "p", []byte("John"), []byte("city"), 70, 300)
		if got, _ := n.CompactRow(bg, "Scratch", "AddressBook", "p", 299); got != (Compacted{}) {
			t.Fatalf("the subcolumn's tombstone within its grace: %+v", got)
		}
		if got, _ := n.CompactRow(bg, "Scratch", "AddressBook", "p", 300); got != (Compacted{Purged: 2}) {
			t.Fatalf("the super column's tombstone once its last subcolumn went: %+v", got)
		}
		if s := fmt.Sprint(storedOf(t, n, "AddressBook", "p")); s != "[Kim/zip=87876@10]" {
			t.Fatalf("after the super column went: %s", s)
		}

		if _, err := n.CompactRow(bg, "Scratch", "Nope", "r", 0); err == nil {
			t.Error("an unknown column family is an error")
		}
		if _, err := n.CompactRow(bg, "Scratch", "Longs", "", 0); err == nil {
			t.Error("an empty key is an error")
		}
	})
}
