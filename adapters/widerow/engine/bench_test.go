package engine

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/internal/testkit/cputime"
	"twissandra/ports/oplog"
)

// buildWideRow writes width LongType columns into one Timeline row, in
// batches of 50,000 columns.
func buildWideRow(b *testing.B, n *Node, key string, width int) {
	b.Helper()
	const chunk = 50_000
	value := []byte("0123456789abcdef") // a tweet id
	for lo := 0; lo < width; lo += chunk {
		muts := make([]Mutation, 0, chunk)
		cols := make([]Column, 0, chunk)
		for i := lo; i < min(lo+chunk, width); i++ {
			cols = append(cols, Column{Name: long(int64(i)), Value: value, Timestamp: int64(i)})
			muts = append(muts, Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &cols[len(cols)-1]}})
		}
		if err := n.BatchMutate(bg, "Twissandra", map[string]map[string][]Mutation{key: {"Timeline": muts}}, ONE); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReversedSlice40 reads the newest 40 columns of a timeline row
// (reversed, from the end) for rows of very different widths: the cost is
// one seek plus 40 steps, so it must not grow with the width.
func BenchmarkReversedSlice40(b *testing.B) {
	n, err := Open(Options{Dir: b.TempDir(), CommitLogSync: SyncPeriodic})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	widths := []struct {
		name  string
		width int
	}{{"1e3", 1_000}, {"1e5", 100_000}, {"1e6", 1_000_000}}
	for _, w := range widths {
		buildWideRow(b, n, "row"+w.name, w.width)
	}
	// Steady state: versions merged into SSTables, as after a while in production.
	if err := n.Compact(bg); err != nil {
		b.Fatal(err)
	}
	for _, w := range widths {
		b.Run(w.name, func(b *testing.B) {
			key := "row" + w.name
			parent := ColumnParent{ColumnFamily: "Timeline"}
			pred := SlicePredicate{SliceRange: &SliceRange{Reversed: true, Count: 40}}
			b.ReportAllocs()
			for b.Loop() {
				res, err := n.GetSlice(bg, "Twissandra", key, parent, pred, ONE)
				if err != nil || len(res) != 40 {
					b.Fatalf("%d columns, %v", len(res), err)
				}
			}
		})
		// each is the same slice as GetSliceEach reads it for widerow's lines: each column
		// handed over from the reader's reused buffers, as raw below copies into one buffer.
		b.Run(w.name+"/each", func(b *testing.B) {
			key := "row" + w.name
			parent := ColumnParent{ColumnFamily: "Timeline"}
			pred := SlicePredicate{SliceRange: &SliceRange{Reversed: true, Count: 40}}
			var names []byte
			b.ReportAllocs()
			for b.Loop() {
				names = names[:0]
				got, err := n.GetSliceEach(bg, "Twissandra", key, parent, pred, ONE, func(c Column) { names = append(names, c.Name...) })
				if err != nil || got != 40 {
					b.Fatalf("%d columns, %v", got, err)
				}
			}
		})
		// raw is the floor: the same 40 newest keys of the same row, read straight from Pebble
		// with one iterator, one seek and 40 steps, each key and value copied out. The
		// engine's slice adds the row tombstone's lookup, the cells' parsing and the names'
		// decoding; its ns/op over this one's is the overhead of the 0.6 model.
		b.Run(w.name+"/raw", func(b *testing.B) {
			cf, err := n.columnFamily("Twissandra", "Timeline")
			if err != nil {
				b.Fatal(err)
			}
			P := append(n.appendRowPrefix(nil, cf, "row"+w.name), kindColumns)
			end := prefixSuccessor(nil, P)
			var buf []byte
			b.ReportAllocs()
			for b.Loop() {
				it, err := n.db.NewIter(nil)
				if err != nil {
					b.Fatal(err)
				}
				buf = buf[:0]
				got := 0
				for valid := it.SeekLT(end); valid && got < 40; valid = it.Prev() {
					buf = append(append(buf, it.Key()...), it.Value()...)
					got++
				}
				if err := it.Close(); err != nil || got != 40 {
					b.Fatalf("%d keys, %v", got, err)
				}
			}
		})
		b.Run(w.name+"/middle", func(b *testing.B) {
			key := "row" + w.name
			parent := ColumnParent{ColumnFamily: "Timeline"}
			pred := SlicePredicate{SliceRange: &SliceRange{Start: long(int64(w.width / 2)), Reversed: true, Count: 40}}
			b.ReportAllocs()
			for b.Loop() {
				res, err := n.GetSlice(bg, "Twissandra", key, parent, pred, ONE)
				if err != nil || len(res) != 40 {
					b.Fatalf("%d columns, %v", len(res), err)
				}
			}
		})
	}
}

// BenchmarkBatchMutate10kRows is a Twissandra post fanned out to 10,000
// follower timelines: 10,000 rows, one column each, one batch, on disk
// with periodic commit log sync.
func BenchmarkBatchMutate10kRows(b *testing.B) {
	n, err := Open(Options{Dir: b.TempDir(), CommitLogSync: SyncPeriodic})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	const rows = 10_000
	keys := make([]string, rows)
	for i := range keys {
		keys[i] = fmt.Sprintf("follower%05d", i)
	}
	value := []byte("0123456789abcdef")
	ts := int64(0)
	b.ReportAllocs()
	for b.Loop() {
		ts++
		col := Column{Name: long(ts), Value: value, Timestamp: ts}
		one := []Mutation{{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &col}}}
		muts := make(map[string]map[string][]Mutation, rows)
		for _, k := range keys {
			muts[k] = map[string][]Mutation{"Timeline": one}
		}
		if err := n.BatchMutate(bg, "Twissandra", muts, ONE); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBatchMutate10kRowsApply is the same, without the cost of
// building the caller's map (measures the engine alone).
func BenchmarkBatchMutate10kRowsApply(b *testing.B) {
	n, err := Open(Options{Dir: b.TempDir(), CommitLogSync: SyncPeriodic})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	const rows = 10_000
	value := []byte("0123456789abcdef")
	col := Column{Name: long(1), Value: value, Timestamp: 1}
	one := []Mutation{{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &col}}}
	muts := make(map[string]map[string][]Mutation, rows)
	for i := range rows {
		muts[fmt.Sprintf("follower%05d", i)] = map[string][]Mutation{"Timeline": one}
	}
	b.ReportAllocs()
	for b.Loop() {
		col.Timestamp++
		col.Name = long(col.Timestamp)
		if err := n.BatchMutate(bg, "Twissandra", muts, ONE); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMultiget40CachedParallel is a page's multiget of 40 Tweet rows that the row cache
// holds, by every core at once (run it with -cpu 1,2,4,...): a hit must not queue behind the
// other cores' hits, so the time per multiget should fall as cores are added.
func BenchmarkMultiget40CachedParallel(b *testing.B) {
	n, err := Open(Options{Schema: everyRowCached(nil, 1000)})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	keys := make([]string, 40)
	for i := range keys {
		keys[i] = fmt.Sprintf("tweet-%02d", i)
		for _, c := range []string{"username", "body", "_ts"} {
			if err := n.Insert(bg, "Twissandra", keys[i], ColumnPath{ColumnFamily: "Tweet", Column: []byte(c)}, []byte("a value of "+c), 1, ONE); err != nil {
				b.Fatal(err)
			}
		}
	}
	pred := SlicePredicate{SliceRange: &SliceRange{Count: 100}}
	if _, err := n.MultigetSliceList(bg, "Twissandra", keys, ColumnParent{ColumnFamily: "Tweet"}, pred, ONE); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			res, err := n.MultigetSliceList(bg, "Twissandra", keys, ColumnParent{ColumnFamily: "Tweet"}, pred, ONE)
			if err != nil || len(res) != 40 || len(res[39]) != 3 {
				b.Errorf("multiget: %d rows, %v", len(res), err)
				return
			}
		}
	})
	if s := n.RowCacheStats(); s.Hits < int64(40*b.N) {
		b.Fatalf("the rows were not served by the row cache: %+v", s)
	}
}

// BenchmarkFanoutFloor is a post fanned out to 10,000 follower timelines as widerow writes it
// (row keys of 36-character uuids, an 8-byte LongType name, a 36-character tweet id as the
// value, a new one at each write), on disk with periodic commit log sync, twice over, each on
// a node of its own: through BatchMutate, and through a Floor, the same cells written straight
// into Pebble by the engine's own encoders, in one batch committed as the engine commits. The second is the floor
// of any fan-out on this storage: the memtable insertion, commit log, flushes and compactions
// of 10,000 keys, with nothing of the engine's above them. It reports each one's process CPU
// per operation, and their CPU and wall time per operation against each other.
func BenchmarkFanoutFloor(b *testing.B) {
	const rows = 10_000
	keys := make([]string, rows)
	for i := range keys {
		keys[i] = uuid.NewString()
	}
	value := []byte(uuid.NewString())
	open := func(b *testing.B) *Node {
		n, err := Open(Options{Dir: b.TempDir(), CommitLogSync: SyncPeriodic, CommitLogSyncPeriod: time.Second})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { n.Close() })
		return n
	}
	bm, raw := open(b), open(b)
	col := Column{Value: value}
	one := []Mutation{{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &col}}}
	timelineOnly := map[string][]Mutation{"Timeline": one} // shared by every row, as widerow does
	muts := make(map[string]map[string][]Mutation, rows)
	for _, k := range keys {
		muts[k] = timelineOnly
	}
	floor, err := raw.Floor("Twissandra", "Timeline", keys)
	if err != nil {
		b.Fatal(err)
	}
	// The floor writes what the engine would: the engine reads the cells back as columns.
	if err := floor.Write(long(0), value, 0); err != nil {
		b.Fatal(err)
	}
	for _, k := range []string{keys[0], keys[rows-1]} {
		got, err := raw.GetSlice(bg, "Twissandra", k, ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, ONE)
		if err != nil || len(got) != 1 || !bytes.Equal(got[0].Column.Name, long(0)) || !bytes.Equal(got[0].Column.Value, value) {
			b.Fatalf("row %s after a raw write: %v, %v", k, got, err)
		}
	}
	// Each way pays for all of its storage work: a phase of its own on its own node, ended
	// with the node flushed and compacted, counted as the phase's (see cputime.Meter).
	// A new value per write, like a post's tweet id: a constant value compresses to nothing in
	// the tables and makes flushes and compactions cheaper than any fan-out's.
	ways := []struct {
		node *Node
		op   func(ts int64) error
	}{
		{bm, func(ts int64) error {
			col.Timestamp, col.Name, col.Value = ts, long(ts), []byte(uuid.Must(uuid.NewUUID()).String())
			return bm.BatchMutate(bg, "Twissandra", muts, ONE)
		}},
		{raw, func(ts int64) error { return floor.Write(long(ts), []byte(uuid.Must(uuid.NewUUID()).String()), ts) }},
	}
	m := cputime.NewMeter("batch_mutate", "floor")
	b.ResetTimer()
	for i, w := range ways {
		for ts := range int64(b.N) {
			m.Measure(i, func() error { return w.op(ts + 1) })
		}
		m.Charge(i, func() error { return w.node.Compact(bg) })
	}
	m.Report(b)
}

// BenchmarkRecordedSlice40 is a page's get_slice of 40 columns unrecorded, recorded in full in a
// page's log (its text, consistency level and its key's token), and the token alone: the
// share of a call a footer's record costs, and of that the token's.
func BenchmarkRecordedSlice40(b *testing.B) {
	n, err := Open(Options{Dir: b.TempDir(), CommitLogSync: SyncPeriodic})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	key := uuid.NewString()
	buildWideRow(b, n, key, 1_000)
	parent := ColumnParent{ColumnFamily: "Timeline"}
	pred := SlicePredicate{SliceRange: &SliceRange{Reversed: true, Count: 40}}
	b.Run("unrecorded", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := n.GetSlice(bg, "Twissandra", key, parent, pred, QUORUM); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("recorded", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ctx := oplog.With(bg, oplog.NewLog(false))
			if _, err := n.GetSlice(ctx, "Twissandra", key, parent, pred, QUORUM); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("token", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = n.partitioner.Token(key)
		}
	})
}
