package engine

import (
	"testing"
)

// The figures follow the write path: a write grows the log and the memtable, a flush adds a
// table file to L0, a compaction merges the files into one of the last level, which holds the
// newest version alone.
func TestStorageFiguresFollowFlushAndCompaction(t *testing.T) {
	n, err := Open(Options{MemTableSize: 1 << 20, CacheSize: 1 << 20, ManualCompactionsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	start := n.StorageFigures()
	if start.TableFiles() != 0 || start.MemTableSize != 1<<20 {
		t.Fatalf("a fresh node has %d table files, a memtable of %d bytes", start.TableFiles(), start.MemTableSize)
	}
	// The same column, written again: each table file holds a version of it, so the files
	// overlap and a compaction merges them (files that overlap nothing are moved down whole).
	ts := int64(0)
	write := func(v string) {
		t.Helper()
		ts++
		if err := n.Insert(bg, "Scratch", "row", ColumnPath{ColumnFamily: "UTF8s", Column: []byte("c")}, []byte(v), ts, ONE); err != nil {
			t.Fatal(err)
		}
	}
	write("a")
	w := n.StorageFigures()
	if w.WALBytesIn <= start.WALBytesIn {
		t.Errorf("WAL bytes in %d after a write, %d before", w.WALBytesIn, start.WALBytesIn)
	}
	if w.TableFiles() != 0 {
		t.Errorf("a write made %d table files", w.TableFiles())
	}
	for i, v := range []string{"b", "c"} {
		if err := n.Flush(); err != nil {
			t.Fatal(err)
		}
		f := n.StorageFigures()
		if f.Levels[0].Files != int64(i+1) || f.Flushes != start.Flushes+int64(i+1) {
			t.Fatalf("after flush %d: L0 %d files, %d flushes", i+1, f.Levels[0].Files, f.Flushes-start.Flushes)
		}
		write(v)
	}
	if err := n.Compact(bg); err != nil {
		t.Fatal(err)
	}
	c := n.StorageFigures()
	if c.Levels[0].Files != 0 || c.Levels[6].Files != 1 || c.Compactions == w.Compactions {
		t.Errorf("after compaction: L0 %d, L6 %d files, %d compactions (before %d)", c.Levels[0].Files, c.Levels[6].Files, c.Compactions, w.Compactions)
	}
	files, err := n.TableFiles()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Level != 6 || files[0].Bytes == 0 {
		t.Errorf("table files after compaction: %+v", files)
	}
	col, err := n.Get(bg, "Scratch", "row", ColumnPath{ColumnFamily: "UTF8s", Column: []byte("c")}, ONE)
	if err != nil || col.Column == nil || string(col.Column.Value) != "c" {
		t.Errorf("after compaction the column reads %+v, %v", col, err)
	}
}
