package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
	// DeletedAt is, for a tombstone, when the node received the delete (0.6's
	// localDeletionTime, the node's clock in seconds), from which GCGraceSeconds counts; zero
	// for a tombstone written before the engine kept it.
	DeletedAt int64
}

// StoredCells returns up to limit cells of one row in storage order, the tombstones that a
// get_slice reads past included. It is for teaching and repair tools: the read paths never
// need it. A tombstone stays until a compaction after its GCGraceSeconds drops it (see Purge),
// and a row or super column tombstone longer, while newer cells of it remain.
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
		sc := StoredCell{Timestamp: cell.ts, Tombstone: cell.tombstone}
		if cell.tombstone {
			sc.DeletedAt, _ = deletionTime(cell)
		} else {
			sc.Value = append([]byte(nil), cell.value...)
		}
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
