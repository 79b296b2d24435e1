package engine

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/pebble"

	"twissandra/ports/oplog"
)

// fakeClock is a node clock a test sets.
type fakeClock struct{ sec atomic.Int64 }

func (c *fakeClock) now() time.Time { return time.Unix(c.sec.Load(), 0) }

// Purge, the compaction a node runs (and nodetool compact), drops a tombstone once
// GCGraceSeconds have passed since the node received the delete, with the cells it hides, and
// keeps a younger one; the grace counts from the receipt, not from the client's timestamp.
func TestPurgeCountsTheGraceFromReceipt(t *testing.T) {
	const grace = 3600
	clock := &fakeClock{}
	clock.sec.Store(1_000_000)
	n, err := Open(Options{Now: clock.now, GCGrace: grace * time.Second, Schema: everyRowCached(nil, 4)})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if n.GCGrace() != grace*time.Second || n.GCBefore(bg) != 1_000_000-grace {
		t.Fatalf("grace %v, gcBefore %d", n.GCGrace(), n.GCBefore(bg))
	}
	insert(t, n, "Scratch", "UTF8s", "old", nil, []byte("a"), "x", 10)
	insert(t, n, "Scratch", "UTF8s", "old", nil, []byte("b"), "y", 10)
	insert(t, n, "Scratch", "UTF8s", "young", nil, []byte("a"), "x", 10)
	// The row "old" is deleted at 1,000,000 s by the node's clock, with a client timestamp of
	// 20 µs (1970); "young" half an hour later with a timestamp of now.
	if err := n.Remove(bg, "Scratch", "old", ColumnPath{ColumnFamily: "UTF8s"}, 20, ONE); err != nil {
		t.Fatal(err)
	}
	if s := fmt.Sprint(storedOf(t, n, "UTF8s", "old")); s != "[†@20/1000000 a=x@10 b=y@10]" {
		t.Fatalf("the row tombstone keeps the node's receipt time: %s", s)
	}
	clock.sec.Add(grace / 2)
	if err := n.Remove(bg, "Scratch", "young", ColumnPath{ColumnFamily: "UTF8s", Column: []byte("a")}, clock.sec.Load()*1_000_000, ONE); err != nil {
		t.Fatal(err)
	}

	// An old client timestamp is no old tombstone: within the grace of its receipt, it stays
	// (what it hides goes at once).
	if got, err := n.Purge(bg); err != nil || got != (Compacted{Shadowed: 2}) {
		t.Fatalf("Purge within the grace: %+v, %v", got, err)
	}
	if s := fmt.Sprint(storedOf(t, n, "UTF8s", "old")); s != "[†@20/1000000]" {
		t.Fatalf("within the grace: %s", s)
	}

	// A grace after the first delete, its tombstone goes (received at gcBefore: 0.6's <=); the
	// younger one stays.
	clock.sec.Store(1_000_000 + grace)
	var ops lines
	got, err := n.Purge(oplog.With(context.Background(), &ops))
	if err != nil || got != (Compacted{Purged: 1}) {
		t.Fatalf("Purge a grace later: %+v, %v", got, err)
	}
	if s := fmt.Sprint(storedOf(t, n, "UTF8s", "old")); s != "[]" {
		t.Fatalf("the old tombstone stays: %s", s)
	}
	if s := fmt.Sprint(storedOf(t, n, "UTF8s", "young")); s != fmt.Sprintf("[a†@%d/%d]", (1_000_000+grace/2)*1_000_000, 1_000_000+grace/2) {
		t.Fatalf("the young tombstone: %s", s)
	}
	if len(ops) != 1 || !strings.Contains(ops[0], "compaction") || !strings.Contains(ops[0], fmt.Sprint("gc_before=", 1_000_000)) || !strings.Contains(ops[0], "0 shadowed cells and 1 tombstones dropped") {
		t.Fatalf("the operation log: %q", ops)
	}
	// A call's clock (ReceivedAt) stands for the node's.
	if got, err := n.Purge(at(1_000_000 + grace + grace/2)); err != nil || got != (Compacted{Purged: 1}) {
		t.Fatalf("Purge a grace after the young delete: %+v, %v", got, err)
	}
	if s := fmt.Sprint(storedOf(t, n, "UTF8s", "young")); s != "[]" {
		t.Fatalf("after Purge a grace after the young delete: %s", s)
	}
	if err := n.Compact(bg); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"old", "young"} {
		if live := sliceNames(t, n, "Scratch", "UTF8s", key, nil, SliceRange{Count: 10}); len(live) != 0 {
			t.Fatalf("get_slice of %s after the compactions: %v", key, live)
		}
	}
}

// A row tombstone past its grace stays while a newer column remains, and keeps hiding older
// writes; a super column's likewise with a newer subcolumn.
func TestPurgeKeepsTombstonesOverNewerCells(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		insert(t, n, "Scratch", "UTF8s", "r", nil, []byte("a"), "old", 10)
		insert(t, n, "Scratch", "UTF8s", "r", nil, []byte("b"), "new", 40)
		removeAt(t, n, "UTF8s", "r", nil, nil, 30, 100)
		insert(t, n, "Scratch", "AddressBook", "p", []byte("John"), []byte("zip"), "94404", 10)
		insert(t, n, "Scratch", "AddressBook", "p", []byte("John"), []byte("city"), "FC", 60)
		removeAt(t, n, "AddressBook", "p", []byte("John"), nil, 50, 100)
		got, err := n.Purge(at(100 + int64(n.GCGrace()/time.Second) + 1))
		if err != nil || got != (Compacted{Shadowed: 2}) {
			t.Fatalf("Purge: %+v, %v", got, err)
		}
		if s := fmt.Sprint(storedOf(t, n, "UTF8s", "r")); s != "[†@30/100 b=new@40]" {
			t.Fatalf("the row: %s", s)
		}
		if s := fmt.Sprint(storedOf(t, n, "AddressBook", "p")); s != "[John/†@50/100 John/city=FC@60]" {
			t.Fatalf("the super column: %s", s)
		}
		insert(t, n, "Scratch", "UTF8s", "r", nil, []byte("a"), "late", 20)
		insert(t, n, "Scratch", "AddressBook", "p", []byte("John"), []byte("zip"), "late", 20)
		if live := sliceNames(t, n, "Scratch", "UTF8s", "r", nil, SliceRange{Count: 10}); fmt.Sprint(live) != "[b]" {
			t.Fatalf("a late write under the row tombstone: %v", live)
		}
		if live := sliceNames(t, n, "Scratch", "AddressBook", "p", []byte("John"), SliceRange{Count: 10}); fmt.Sprint(live) != "[city]" {
			t.Fatalf("a late write under the super column tombstone: %v", live)
		}
	})
}

// A cell written again between the compaction's read and its drop is kept, and so is the
// tombstone of its row: the drop checks each cell under the gate that commits wait for.
func TestPurgeKeepsCellsWrittenSince(t *testing.T) {
	n, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	insert(t, n, "Scratch", "UTF8s", "r", nil, []byte("a"), "old", 10)
	removeAt(t, n, "UTF8s", "r", nil, nil, 30, 100)
	cf, _ := n.columnFamily("Scratch", "UTF8s")
	prefix := n.appendRowPrefix(nil, cf, "r")
	p := purge{n: n, gcBefore: 1000, now: time.Unix(1000, 0)}
	p.startRow(cf, "r")
	it, err := n.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixSuccessor(nil, prefix)})
	if err != nil {
		t.Fatal(err)
	}
	for valid := it.First(); valid; valid = it.Next() {
		if err := p.cell(it.Key(), len(prefix), it.Value()); err != nil {
			t.Fatal(err)
		}
	}
	it.Close()
	if len(p.drops) != 1 || p.rowTomb == nil {
		t.Fatalf("decided: %d drops, row tombstone %v", len(p.drops), p.rowTomb != nil)
	}
	insert(t, n, "Scratch", "UTF8s", "r", nil, []byte("a"), "new", 40) // since the read
	if err := p.endRow(); err != nil || p.got != (Compacted{}) {
		t.Fatalf("endRow: %+v, %v", p.got, err)
	}
	if s := fmt.Sprint(storedOf(t, n, "UTF8s", "r")); s != "[†@30/100 a=new@40]" {
		t.Fatalf("after the compaction: %s", s)
	}
}

// A tombstone stored before the engine kept receipt times counts as received at the first
// compaction that meets it, and goes a grace later.
func TestPurgeStampsTombstonesWithoutReceipt(t *testing.T) {
	n, err := Open(Options{GCGrace: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	insert(t, n, "Scratch", "UTF8s", "r", nil, []byte("a"), "old", 10)
	cf, _ := n.columnFamily("Scratch", "UTF8s")
	k := AppendName(append(n.appendRowPrefix(nil, cf, "r"), kindColumns), cf.cmp, []byte("a"), false)
	if err := n.db.Merge(k, appendCell(nil, nil, 20, true), pebble.NoSync); err != nil {
		t.Fatal(err)
	}
	n.committed()
	if got, err := n.Purge(at(5000)); err != nil || got != (Compacted{}) {
		t.Fatalf("first Purge: %+v, %v", got, err)
	}
	if s := fmt.Sprint(storedOf(t, n, "UTF8s", "r")); s != "[a†@20/5000]" {
		t.Fatalf("after the first Purge: %s", s)
	}
	if got, _ := n.Purge(at(5009)); got != (Compacted{}) {
		t.Fatalf("within the grace of the stamp: %+v", got)
	}
	if got, _ := n.Purge(at(5010)); got != (Compacted{Purged: 1}) {
		t.Fatalf("a grace after the stamp: %+v", got)
	}
}

// A node with a CompactionInterval runs its loop, and Close stops it.
func TestCompactionLoopStopsOnClose(t *testing.T) {
	n, err := Open(Options{CompactionInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	insert(t, n, "Scratch", "UTF8s", "r", nil, []byte("a"), "x", 10)
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-n.compactDone:
	default:
		t.Fatal("the compaction loop still runs after Close")
	}
}

// Writes that run beside a compaction are never lost: each cell a compaction drops is checked,
// under the gate, to still be the version it read.
func TestPurgeBesideWrites(t *testing.T) {
	n, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	const cols = 2000
	for c := range cols {
		insert(t, n, "Scratch", "Longs", "r", nil, long(int64(c)), "old", 10)
	}
	removeAt(t, n, "Longs", "r", nil, nil, 30, 100) // hides every column
	done := make(chan error, 1)
	go func() {
		for c := range cols {
			if err := n.Insert(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Longs", Column: long(int64(c))}, []byte("new"), 40, ONE); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	got, err := n.Purge(at(1 << 40))
	if werr := <-done; err != nil || werr != nil {
		t.Fatalf("Purge: %v; writes: %v", err, werr)
	}
	live := sliceNames(t, n, "Scratch", "Longs", "r", nil, SliceRange{Count: cols + 1})
	if len(live) != cols {
		t.Fatalf("%d columns live after Purge (%+v) beside the writes, want every one of the %d written", len(live), got, cols)
	}
	// Whatever this compaction kept, the next one drops the rest of what the tombstone hides;
	// the tombstone went only if the row was empty when it was checked, before the new writes.
	if _, err := n.Purge(at(1 << 40)); err != nil {
		t.Fatal(err)
	}
	cells, err := n.StoredCells(bg, "Scratch", "Longs", "r", cols+10)
	if err != nil {
		t.Fatal(err)
	}
	newer := 0
	for _, c := range cells {
		switch {
		case c.Tombstone && c.Name == nil:
		case c.Timestamp == 40:
			newer++
		default:
			t.Fatalf("a cell the row tombstone hides is left after two compactions: %+v", c)
		}
	}
	if newer != cols {
		t.Fatalf("%d new columns stored, want %d", newer, cols)
	}
}
