package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/cockroachdb/pebble"

	"twissandra/ports/oplog"
)

// StoredCell is one cell as the node keeps it, before a read reconciles anything: a live
// column, a column's tombstone, or a row or super column deletion marker.
type StoredCell struct {
	// SuperColumn names the cell's super column in a super column family, nil otherwise.
	SuperColumn []byte
	// Name is the column (or subcolumn) name; nil for a deletion marker of the whole row or
	// super column.
	Name []byte
	// Value is empty for a tombstone.
	Value []byte
	// Timestamp is the write's; for a tombstone, the deletion time: it hides every cell of the
	// same name (or, for a marker, of the row or super column) written at or before it.
	Timestamp int64
	Tombstone bool
}

// StoredCells returns up to limit cells of one row in storage order, the tombstones that a
// get_slice reads past included. It is for teaching and repair tools: the read paths never
// need it. A tombstone stays until the compaction after its grace period drops it.
func (n *Node) StoredCells(ctx context.Context, keyspace, columnFamily, key string, limit int) ([]StoredCell, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cf, err := n.columnFamily(keyspace, columnFamily)
	if err != nil {
		return nil, err
	}
	if err := validateKey(key); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, invalidf("limit must be positive")
	}
	prefix := n.appendRowPrefix(nil, cf, key)
	it, err := n.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixSuccessor(nil, prefix)})
	if err != nil {
		return nil, err
	}
	var out []StoredCell
	for valid := it.First(); valid && len(out) < limit; valid = it.Next() {
		k := it.Key()[len(prefix):]
		cell, ok := parseCell(it.Value())
		if !ok || len(k) == 0 {
			return nil, errors.Join(fmt.Errorf("%w: bad cell in %s[%q]", ErrCorrupt, columnFamily, key), it.Close())
		}
		sc := StoredCell{Value: append([]byte(nil), cell.value...), Timestamp: cell.ts, Tombstone: cell.tombstone}
		if k[0] == kindColumns {
			if sc.SuperColumn, sc.Name, err = splitStoredName(cf, k[1:]); err != nil {
				return nil, errors.Join(err, it.Close())
			}
		}
		out = append(out, sc)
	}
	return out, it.Close()
}

// splitStoredName decodes the column part of a data key: a name, or a super column's name and
// then a subcolumn's name (nil for the super column's deletion marker).
func splitStoredName(cf *cfInfo, k []byte) (super, name []byte, err error) {
	if !cf.super {
		name, _, err = DecodeName(nil, cf.cmp, k, false)
		return nil, name, err
	}
	l, err := encodedNameLen(cf.cmp, k, true)
	if err != nil || len(k) <= l {
		return nil, nil, errCorruptKey
	}
	if super, _, err = DecodeName(nil, cf.cmp, k[:l], true); err != nil {
		return nil, nil, err
	}
	if k[l] == kindSubcolumn {
		name, _, err = DecodeName(nil, cf.sub, k[l+1:], false)
	}
	return super, name, err
}

// RowStat is the size of one stored row: its cells (tombstones included, counted apart) and
// the bytes of their names and values.
type RowStat struct {
	Key        string
	Cells      int
	Tombstones int
	Bytes      int64
}

// RowStats walks a column family's stored cells in partitioner order, at most maxCells of
// them, and returns the size of every row it saw; capped reports that it stopped at maxCells
// (the last row's figures are then partial). Like StoredCells it is for teaching and repair
// tools, and costs one pass over what it reads, which it records (a "scan": 0.6 had no call
// that reads tombstones, so it is no Thrift call) with the rows and cells it read.
func (n *Node) RowStats(ctx context.Context, keyspace, columnFamily string, maxCells int) (rows []RowStat, capped bool, err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() { n.recordScan(ctx, start, keyspace, columnFamily, maxCells, rows, capped, err) }()
	}
	cf, err := n.columnFamily(keyspace, columnFamily)
	if err != nil {
		return nil, false, err
	}
	it, err := n.db.NewIter(&pebble.IterOptions{LowerBound: cf.prefix, UpperBound: prefixSuccessor(nil, cf.prefix)})
	if err != nil {
		return nil, false, err
	}
	var (
		row     []byte // the current row's prefix (after the column family's)
		keyBuf  []byte
		cells   int
		current *RowStat
	)
	for valid := it.First(); valid; valid = it.Next() {
		if cells >= maxCells {
			capped = true
			break
		}
		if cells%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, false, errors.Join(err, it.Close())
			}
		}
		k := it.Key()[len(cf.prefix):]
		if current == nil || !bytes.HasPrefix(k, row) {
			key, plen, err := n.splitRowKey(k, keyBuf)
			if err != nil {
				return nil, false, errors.Join(err, it.Close())
			}
			row = append(row[:0], k[:plen]...)
			rows = append(rows, RowStat{Key: string(key)})
			current = &rows[len(rows)-1]
		}
		cell, ok := parseCell(it.Value())
		if !ok {
			return nil, false, errors.Join(fmt.Errorf("%w: bad cell in %s", ErrCorrupt, columnFamily), it.Close())
		}
		cells++
		current.Cells++
		if cell.tombstone {
			current.Tombstones++
		}
		current.Bytes += int64(len(k) - len(row) - 1 + len(cell.value)) // the stored name (after its kind byte) and the value
	}
	return rows, capped, it.Close()
}

// Compacted is what CompactRow dropped from a row.
type Compacted struct {
	// Shadowed counts the cells a row or super column tombstone hid: a compaction never keeps
	// them, whatever their age.
	Shadowed int
	// Purged counts the tombstones (of columns, super columns or the row) deleted before
	// gcBefore: past their grace period, nothing needs them any more on this node.
	Purged int
}

// CompactRow compacts one row as a Cassandra compaction would with gcBefore: it drops every
// cell a row or super column tombstone hides, and every tombstone whose deletion time is
// before gcBefore (a compaction's "now" minus GCGraceSeconds). A column's versions are already
// one cell here (the merge keeps the newest), so a column tombstone that goes takes nothing
// with it but itself.
//
// The engine keeps no GCGraceSeconds and its compactions (Compact) keep every tombstone: a
// node's tombstones are dropped only here, and only when asked. The engine stores a tombstone's
// timestamp, not the time the delete reached the node (0.6's localDeletionTime): CompactRow
// reads the timestamp as that time, which a caller that chooses its writes' timestamps (the
// teaching lab's simulated replicas) makes true. It is for teaching and repair tools, and must
// not race with writes to the row: a write between its read and its delete may be lost.
func (n *Node) CompactRow(ctx context.Context, keyspace, columnFamily, key string, gcBefore int64) (got Compacted, err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() {
			if brief(ctx, oplog.Write, "compaction") {
				return
			}
			result := fmt.Sprintf("%d shadowed cells and %d tombstones dropped", got.Shadowed, got.Purged)
			if err != nil {
				result = "error"
			}
			s := keyspace + "." + columnFamily + showKey(key)
			oplog.Record(ctx, op(oplog.Write, "compaction", keyspace+"."+columnFamily, []string{showKey(key)}, 1,
				fmt.Sprintf("gc_before=%d", gcBefore), result, start, noCall, fmt.Sprintf("compaction %s gc_before=%d -> %s", s, gcBefore, result)))
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
	b := n.db.NewBatch()
	defer b.Close()
	var (
		rowDel    int64  = math.MinInt64
		superDel  int64  = math.MinInt64
		superName []byte // the encoded super column the current cells belong to
	)
	for valid := it.First(); valid; valid = it.Next() {
		k := it.Key()[len(prefix):]
		cell, ok := parseCell(it.Value())
		if !ok || len(k) == 0 {
			return got, errors.Join(fmt.Errorf("%w: bad cell in %s[%q]", ErrCorrupt, columnFamily, key), it.Close())
		}
		drop := false
		switch {
		case k[0] == kindRowTombstone:
			rowDel = cell.ts
			drop = purged(cell, gcBefore, &got)
		case cf.super:
			l, err := encodedNameLen(cf.cmp, k[1:], true)
			if err != nil || len(k) <= 1+l {
				return got, errors.Join(errCorruptKey, it.Close())
			}
			if sc := k[1 : 1+l]; !bytes.Equal(sc, superName) {
				superName, superDel = append(superName[:0], sc...), math.MinInt64
			}
			if k[1+l] == kindSuperTombstone {
				superDel = cell.ts
				drop = shadowedOrPurged(cell, rowDel, gcBefore, &got)
				break
			}
			drop = shadowedOrPurged(cell, max(rowDel, superDel), gcBefore, &got)
		default:
			drop = shadowedOrPurged(cell, rowDel, gcBefore, &got)
		}
		if drop {
			if err := b.Delete(it.Key(), nil); err != nil {
				return got, errors.Join(err, it.Close())
			}
		}
	}
	if err := it.Close(); err != nil {
		return got, err
	}
	if b.Empty() {
		return got, nil
	}
	err = b.Commit(n.writeOpts)
	n.committed()
	if err != nil {
		return got, err
	}
	if cf.rowsCached > 0 {
		n.rows.drop([]rowCacheKey{{cf, key}})
	}
	return got, nil
}

// shadowedOrPurged says whether a column's cell goes in a compaction, and counts it: a cell
// (live or a tombstone) that a row or super column tombstone at del hides, or a tombstone
// deleted before gcBefore.
func shadowedOrPurged(cell cellView, del, gcBefore int64, got *Compacted) bool {
	if cell.ts <= del {
		got.Shadowed++
		return true
	}
	return cell.tombstone && purged(cell, gcBefore, got)
}

// purged says whether a tombstone was deleted before gcBefore, and counts it.
func purged(cell cellView, gcBefore int64, got *Compacted) bool {
	if cell.ts < gcBefore {
		got.Purged++
		return true
	}
	return false
}
