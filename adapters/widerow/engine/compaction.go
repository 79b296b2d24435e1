package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/cockroachdb/pebble"

	"twissandra/ports/oplog"
)

// A tombstone's value is the time the node received the delete, 0.6's localDeletionTime: the
// node's clock in whole seconds, 4 bytes big-endian, as 0.6 stores it in a deleted column's
// value. A compaction counts GCGraceSeconds from it, not from the client's timestamp. A
// tombstone written before the engine kept it has an empty value (see purge.stamp).
const deletionTimeLen = 4

func appendDeletionTime(dst []byte, t time.Time) []byte {
	s := t.Unix()
	s = max(min(s, math.MaxInt32), math.MinInt32)
	return binary.BigEndian.AppendUint32(dst, uint32(int32(s)))
}

// deletionTime is a tombstone's receipt time in seconds, and whether it has one.
func deletionTime(c cellView) (int64, bool) {
	if len(c.value) != deletionTimeLen {
		return 0, false
	}
	return int64(int32(binary.BigEndian.Uint32(c.value))), true
}

type clockKey struct{}

// ReceivedAt returns a context under which the node's clock reads t: a delete made with it is
// received at t (its tombstone's localDeletionTime), and a compaction made with it takes t as
// its now. It is how a simulation plays several replicas, each on its own day, on one node.
func ReceivedAt(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, clockKey{}, t)
}

// clock is the node's time for one call.
func (n *Node) clock(ctx context.Context) time.Time {
	if ctx != nil {
		if t, ok := ctx.Value(clockKey{}).(time.Time); ok {
			return t
		}
	}
	return n.now()
}

// GCGrace is the node's GCGraceSeconds.
func (n *Node) GCGrace() time.Duration { return time.Duration(n.grace) * time.Second }

// GCBefore is the gcBefore of a compaction run now (the node's clock, or ReceivedAt's), in
// seconds: 0.6's getDefaultGCBefore, now minus GCGraceSeconds. A tombstone received at or
// before it is old enough to go.
func (n *Node) GCBefore(ctx context.Context) int64 { return n.clock(ctx).Unix() - n.grace }

// Compacted is what a compaction dropped.
type Compacted struct {
	// Shadowed counts the cells a row or super column tombstone hid: a compaction never keeps
	// them, whatever their age.
	Shadowed int
	// Purged counts the tombstones (of columns, super columns or rows) received at or before
	// gcBefore: past their grace period, nothing needs them any more on this node.
	Purged int
}

func (c Compacted) String() string {
	return fmt.Sprintf("%d shadowed cells and %d tombstones dropped", c.Shadowed, c.Purged)
}

// purgeBatch is how many cells a compaction checks and drops under the gate at once: the
// longest writes wait for it is that many point reads (about a millisecond).
const purgeBatch = 256

// Purge is the part of a major compaction (nodetool compact) that drops cells, for every row
// of every column family, with gcBefore = GCBefore(ctx), as 0.6's ColumnFamilyStore.
// removeDeleted does in a major compaction:
//
//   - a column or subcolumn (live or a tombstone) at or before a row or super column
//     tombstone that hides it;
//   - a column or subcolumn tombstone received at or before gcBefore;
//   - a super column tombstone received at or before gcBefore, once none of its subcolumns
//     remains;
//   - a row tombstone received at or before gcBefore, once nothing else remains in the row.
//
// So a row or super column tombstone with newer live cells stays, and keeps hiding older
// writes that arrive later. Pebble's own compactions, like 0.6's minor ones, merge versions
// and keep every tombstone. The cells dropped leave Pebble's files when it compacts them
// (Compact does it at once). Purge runs beside writes: a cell written again since Purge read
// it is kept. It reads the whole store once (the node's loop runs it every
// Options.CompactionInterval).
func (n *Node) Purge(ctx context.Context) (got Compacted, err error) {
	gcBefore := n.GCBefore(ctx)
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() {
			n.recordCompaction(ctx, start, "every column family", "", gcBefore, got, err,
				fmt.Sprintf("compaction of every column family, gc_before=%d (now - GCGraceSeconds %d)", gcBefore, n.grace))
		}()
	}
	if err := ctx.Err(); err != nil {
		return got, err
	}
	byPrefix := map[[3]byte]*cfInfo{}
	for _, m := range n.cfs {
		for _, cf := range m {
			byPrefix[[3]byte(cf.prefix)] = cf
		}
	}
	it, err := n.db.NewIter(&pebble.IterOptions{LowerBound: []byte{dataPrefix}, UpperBound: []byte{dataPrefix + 1}})
	if err != nil {
		return got, err
	}
	p := purge{n: n, gcBefore: gcBefore, now: n.clock(ctx)}
	var (
		cf      *cfInfo
		row     []byte // the current row's prefix, the column family's included
		keyBuf  []byte
		skipped []byte // the prefix of a column family the schema no longer has
		cells   int
	)
	for valid := it.First(); valid; valid = it.Next() {
		if cells++; cells%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return p.got, errors.Join(err, it.Close())
			}
		}
		k := it.Key()
		if len(k) < 3 || (skipped != nil && bytes.HasPrefix(k, skipped)) {
			continue
		}
		if row == nil || !bytes.HasPrefix(k, row) {
			if err := p.endRow(); err != nil {
				return p.got, errors.Join(err, it.Close())
			}
			if cf = byPrefix[[3]byte(k[:3])]; cf == nil {
				skipped = append(skipped[:0], k[:3]...)
				continue
			}
			key, plen, err := n.splitRowKey(k[3:], keyBuf)
			if err != nil {
				return p.got, errors.Join(err, it.Close())
			}
			keyBuf = key
			row = append(row[:0], k[:3+plen]...)
			p.startRow(cf, string(key))
		}
		if err := p.cell(k, len(row), it.Value()); err != nil {
			return p.got, errors.Join(err, it.Close())
		}
	}
	if err := it.Close(); err != nil {
		return p.got, err
	}
	return p.got, p.endRow()
}

// recordCompaction records a compaction of family (of the row key, when one) and what it dropped.
func (n *Node) recordCompaction(ctx context.Context, start time.Time, family, key string, gcBefore int64, got Compacted, err error, text string) {
	if brief(ctx, oplog.Write, "compaction") {
		return
	}
	result := got.String()
	if err != nil {
		result = "error"
	}
	var keys []string
	if key != "" {
		keys = []string{key}
	}
	oplog.Record(ctx, op(oplog.Write, "compaction", family, keys, len(keys), fmt.Sprintf("gc_before=%d", gcBefore), result, start, noCall, text+" -> "+result))
}

// compactionLoop runs Purge every interval until Close.
func (n *Node) compactionLoop(interval time.Duration) {
	defer close(n.compactDone)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-n.stopCompact:
			return
		case <-t.C:
			// Close cancels a compaction under way.
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				select {
				case <-n.stopCompact:
					cancel()
				case <-ctx.Done():
				}
			}()
			if _, err := n.Purge(ctx); err != nil && !errors.Is(err, context.Canceled) {
				n.logger.Errorf("widerow: compaction: %v", err)
			}
			cancel()
		}
	}
}

// CompactRow compacts one row as Purge compacts every row, with the gcBefore given (in the
// seconds of the node's clock). It is for teaching and repair tools: the lab's replicas
// compact on the day they choose.
func (n *Node) CompactRow(ctx context.Context, keyspace, columnFamily, key string, gcBefore int64) (got Compacted, err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() {
			n.recordCompaction(ctx, start, keyspace+"."+columnFamily, showKey(key), gcBefore, got, err,
				fmt.Sprintf("compaction %s.%s%s gc_before=%d", keyspace, columnFamily, showKey(key), gcBefore))
		}()
	}
	if err := ctx.Err(); err != nil {
		return got, err
	}
	cf, err := n.columnFamily(keyspace, columnFamily)
	if err != nil {
		return got, err
	}
	if err := validateKey(key); err != nil {
		return got, err
	}
	prefix := n.appendRowPrefix(nil, cf, key)
	it, err := n.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixSuccessor(nil, prefix)})
	if err != nil {
		return got, err
	}
	p := purge{n: n, gcBefore: gcBefore, now: n.clock(ctx)}
	p.startRow(cf, key)
	for valid := it.First(); valid; valid = it.Next() {
		if err := p.cell(it.Key(), len(prefix), it.Value()); err != nil {
			return p.got, errors.Join(err, it.Close())
		}
	}
	if err := it.Close(); err != nil {
		return p.got, err
	}
	return p.got, p.endRow()
}

// purge decides, row by row, which cells a compaction drops (removeDeleted), and drops them.
type purge struct {
	n        *Node
	gcBefore int64
	now      time.Time
	got      Compacted

	// The row being read: its column family and key, its tombstone's timestamp, whether a
	// cell of it stays, and the drop of its tombstone, decided at its end.
	cf      *cfInfo
	key     string
	rowID   int
	rowDel  int64
	rowLive bool
	rowTomb *dropCell
	// The super column being read (encoded name), its tombstone's timestamp, whether a
	// subcolumn of it stays, and the drop of its tombstone, decided at its end.
	super     []byte
	superDel  int64
	superLive bool
	superTomb *dropCell

	drops  []dropCell
	failed int // the last row a drop of which found its cell changed (0: none)
}

// dropCell is a cell a compaction drops (or, with stamp, gives a receipt time), and the value
// it read: the cell goes only if it still holds that value.
type dropCell struct {
	key, seen []byte
	row       int
	purged    bool // a tombstone past its grace (else a shadowed cell)
	stamp     bool
	// afterRow: a row or super column tombstone that goes only if every drop of its row before
	// it went (so that nothing it hides is left).
	afterRow bool
	cf       *cfInfo
	rowKey   string
}

func (p *purge) startRow(cf *cfInfo, key string) {
	p.rowID++
	p.cf, p.key, p.rowDel, p.rowLive, p.rowTomb = cf, key, math.MinInt64, false, nil
	p.super, p.superDel, p.superLive, p.superTomb = p.super[:0], math.MinInt64, false, nil
}

// old says whether a tombstone was received at or before gcBefore; stamp, that it carries no
// receipt time.
func (p *purge) old(c cellView) (old, stamp bool) {
	t, ok := deletionTime(c)
	if !ok {
		return false, true
	}
	return t <= p.gcBefore, false
}

func (p *purge) add(k []byte, v []byte, purged, stamp bool) {
	p.drops = append(p.drops, dropCell{key: bytes.Clone(k), seen: bytes.Clone(v), row: p.rowID, purged: purged, stamp: stamp,
		cf: p.cf, rowKey: p.key})
}

// cell reads one stored cell of the current row (k its whole key, rowLen its row prefix's length).
func (p *purge) cell(k []byte, rowLen int, v []byte) error {
	c, ok := parseCell(v)
	if !ok || len(k) <= rowLen {
		return fmt.Errorf("%w: bad cell in %s[%q]", ErrCorrupt, p.cf.name, p.key)
	}
	name := k[rowLen:]
	if name[0] == kindRowTombstone {
		p.rowDel = c.ts
		if old, stamp := p.old(c); old || stamp {
			// Decided at the row's end: a stamp is given at once, a drop waits.
			if stamp {
				p.add(k, v, false, true)
			} else {
				p.rowTomb = &dropCell{key: bytes.Clone(k), seen: bytes.Clone(v), purged: true, afterRow: true, cf: p.cf, rowKey: p.key}
			}
		}
		return nil
	}
	if !p.cf.super {
		return p.column(k, v, c, p.rowDel, &p.rowLive)
	}
	l, err := encodedNameLen(p.cf.cmp, name[1:], true)
	if err != nil || len(name) <= 1+l {
		return errCorruptKey
	}
	if sc := name[1 : 1+l]; !bytes.Equal(sc, p.super) {
		p.endSuper()
		p.super = append(p.super[:0], sc...)
	}
	if name[1+l] == kindSuperTombstone {
		// 0.6 keeps a super column's tombstone, even one older than the row's, until it is
		// past its grace and no subcolumn remains.
		p.superDel = c.ts
		old, stamp := p.old(c)
		switch {
		case stamp:
			p.add(k, v, false, true)
		case old:
			p.superTomb = &dropCell{key: bytes.Clone(k), seen: bytes.Clone(v), purged: true, afterRow: true, cf: p.cf, rowKey: p.key}
		}
		return nil
	}
	return p.column(k, v, c, max(p.rowDel, p.superDel), &p.superLive)
}

// column decides a column's or subcolumn's cell: hidden by a tombstone at del, a tombstone past
// its grace, or kept (live set).
func (p *purge) column(k, v []byte, c cellView, del int64, live *bool) error {
	if c.ts <= del {
		p.add(k, v, false, false)
		return p.flush(false)
	}
	if c.tombstone {
		old, stamp := p.old(c)
		if old {
			p.add(k, v, true, false)
			return p.flush(false)
		}
		if stamp {
			p.add(k, v, false, true)
		}
	}
	*live = true
	return p.flush(false)
}

// endSuper decides the tombstone of the super column just read.
func (p *purge) endSuper() {
	switch {
	case p.superLive:
		p.rowLive = true
	case p.superTomb != nil:
		t := *p.superTomb
		t.row = p.rowID
		p.drops = append(p.drops, t)
	case p.superDel != math.MinInt64:
		p.rowLive = true // a tombstone that stays
	}
	p.superDel, p.superLive, p.superTomb = math.MinInt64, false, nil
}

// endRow decides the tombstone of the row just read, and drops what is pending.
func (p *purge) endRow() error {
	if p.cf == nil {
		return p.flush(true)
	}
	if p.cf.super && len(p.super) > 0 {
		p.endSuper()
	}
	if p.rowTomb != nil && !p.rowLive {
		t := *p.rowTomb
		t.row = p.rowID
		p.drops = append(p.drops, t)
	}
	p.cf, p.rowTomb = nil, nil
	return p.flush(true)
}

// flush drops the pending cells, when there are enough of them or when all is asked, under the
// gate: each only if it still holds the value read (a write since then keeps it, and keeps its
// row's tombstone).
func (p *purge) flush(all bool) error {
	if len(p.drops) == 0 || (!all && len(p.drops) < purgeBatch) {
		return nil
	}
	n := p.n
	b := n.db.NewBatch()
	defer b.Close()
	var (
		touched []rowCacheKey
		got     Compacted
		stamp   []byte
	)
	n.gate.Lock()
	for i := range p.drops {
		d := &p.drops[i]
		if d.afterRow && d.row == p.failed {
			continue
		}
		cur, closer, err := n.db.Get(d.key)
		same := err == nil && bytes.Equal(cur, d.seen)
		if err == nil {
			closer.Close()
		} else if !errors.Is(err, pebble.ErrNotFound) {
			n.gate.Unlock()
			return err
		}
		if !same {
			p.failed = d.row
			continue
		}
		switch {
		case d.stamp:
			// A tombstone from before receipt times were kept counts as received now: it goes
			// one grace later. Same timestamp, a larger value: the merge keeps this one.
			c, _ := parseCell(d.seen)
			stamp = appendCell(stamp[:0], appendDeletionTime(nil, p.now), c.ts, true)
			err = b.Merge(d.key, stamp, nil)
		case d.purged:
			got.Purged++
			err = b.Delete(d.key, nil)
		default:
			got.Shadowed++
			err = b.Delete(d.key, nil)
		}
		if err != nil {
			n.gate.Unlock()
			return err
		}
		if d.cf.rowsCached > 0 && (len(touched) == 0 || touched[len(touched)-1] != (rowCacheKey{d.cf, d.rowKey})) {
			touched = append(touched, rowCacheKey{d.cf, d.rowKey})
		}
	}
	var err error
	if !b.Empty() {
		err = b.Commit(n.writeOpts)
	}
	n.gate.Unlock()
	p.drops = p.drops[:0]
	if b.Empty() {
		return err
	}
	n.committed()
	if len(touched) > 0 {
		n.rows.drop(touched)
	}
	if err == nil {
		p.got.Shadowed += got.Shadowed
		p.got.Purged += got.Purged
	}
	return err
}
