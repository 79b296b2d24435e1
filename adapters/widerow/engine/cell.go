package engine

import (
	"bytes"
	"encoding/binary"
	"io"
	"sync"

	"github.com/cockroachdb/pebble"
)

// A stored cell is flags(1) | timestamp(8, big-endian int64) | value.
// Row and super column deletion markers are cells too: a tombstone with an
// empty value, whose timestamp is the deletion time.
const (
	cellHeader    = 9
	flagTombstone = 0x01
)

func appendCell(dst []byte, value []byte, ts int64, tombstone bool) []byte {
	var flags byte
	if tombstone {
		flags = flagTombstone
	}
	dst = append(dst, flags)
	dst = binary.BigEndian.AppendUint64(dst, uint64(ts))
	return append(dst, value...)
}

type cellView struct {
	tombstone bool
	ts        int64
	value     []byte
}

func parseCell(b []byte) (cellView, bool) {
	if len(b) < cellHeader {
		return cellView{}, false
	}
	return cellView{
		tombstone: b[0]&flagTombstone != 0,
		ts:        int64(binary.BigEndian.Uint64(b[1:9])),
		value:     b[cellHeader:],
	}, true
}

// cellWins reports whether cell a supersedes cell b under Cassandra 0.6's
// reconciliation: the higher timestamp wins; on a tie a tombstone wins; on
// a tie of two live cells the larger value (unsigned bytes) wins.
func cellWins(a, b []byte) bool {
	ca, okA := parseCell(a)
	cb, okB := parseCell(b)
	switch {
	case !okB:
		return okA
	case !okA:
		return false
	case ca.ts != cb.ts:
		return ca.ts > cb.ts
	case ca.tombstone != cb.tombstone:
		return ca.tombstone
	}
	return bytes.Compare(ca.value, cb.value) > 0
}

// Every cell is written with pebble's Merge, never Set. Reconciliation is
// a commutative, associative "max", so writes are blind (no read before
// write), and Pebble resolves versions on read and during compaction,
// much as Cassandra reconciles memtables and SSTables.
const mergerName = "twissandra.widerow.lww.v1"

var lwwMerger = &pebble.Merger{
	Name: mergerName,
	Merge: func(_, value []byte) (pebble.ValueMerger, error) {
		m := mergerPool.Get().(*lwwValueMerger)
		m.buf = append(m.buf[:0], value...)
		return m, nil
	},
}

// lwwValueMerger keeps the winning operand. It is pooled: Pebble closes
// the returned io.Closer when it no longer needs the result, so reading a
// merged cell allocates nothing in the steady state.
type lwwValueMerger struct{ buf []byte }

var mergerPool = sync.Pool{New: func() any { return new(lwwValueMerger) }}

func (m *lwwValueMerger) MergeNewer(value []byte) error { m.take(value); return nil }
func (m *lwwValueMerger) MergeOlder(value []byte) error { m.take(value); return nil }

func (m *lwwValueMerger) take(value []byte) {
	if cellWins(value, m.buf) {
		m.buf = append(m.buf[:0], value...)
	}
}

func (m *lwwValueMerger) Finish(bool) ([]byte, io.Closer, error) { return m.buf, m, nil }

func (m *lwwValueMerger) Close() error {
	if cap(m.buf) <= 64<<10 {
		mergerPool.Put(m)
	}
	return nil
}
