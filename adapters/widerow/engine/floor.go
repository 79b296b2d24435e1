package engine

import (
	"bytes"
	"slices"
)

// Floor writes a fan-out's cells into a node's Pebble with nothing of the model above them:
// one column, the same name and value, into each of a fixed set of rows of one column family,
// the keys and cells built by the engine's own encoders, in key order, in one batch of Merge
// records committed as the engine commits. It is what any fan-out on this storage costs at the
// least (the memtable insertion, the commit log, the flushes and compactions of its keys), the
// floor that benchmarks hold batch_mutate and a post to. It is not a write path: it validates
// nothing, records nothing, and leaves the row cache alone.
type Floor struct {
	n        *Node
	cf       *cfInfo
	prefixes [][]byte // each row's prefix and kindColumns, sorted
	key      []byte
	cell     []byte
}

// Floor prepares a floor for rows of keyspace's column family cfName: their prefixes (tokens
// included) are computed and sorted once, outside what Write costs.
func (n *Node) Floor(keyspace, cfName string, rows []string) (*Floor, error) {
	cf, err := n.columnFamily(keyspace, cfName)
	if err != nil {
		return nil, err
	}
	if cf.super {
		return nil, invalidf("a floor writes columns; %s is a super column family", cf.name)
	}
	f := &Floor{n: n, cf: cf, prefixes: make([][]byte, len(rows))}
	for i, k := range rows {
		f.prefixes[i] = append(n.appendRowPrefix(nil, cf, k), kindColumns)
	}
	slices.SortFunc(f.prefixes, bytes.Compare) // the order the engine commits in
	return f, nil
}

// Write writes the column (name, value, ts) into every row of the floor, as one batch.
func (f *Floor) Write(name, value []byte, ts int64) error {
	batch := f.n.db.NewBatchWithSize(len(f.prefixes) * stagedCellGuess)
	defer batch.Close()
	f.cell = appendCell(f.cell[:0], value, ts, false)
	for _, p := range f.prefixes {
		f.key = AppendName(append(f.key[:0], p...), f.cf.cmp, name, false)
		if err := batch.Merge(f.key, f.cell, nil); err != nil {
			return err
		}
	}
	err := batch.Commit(f.n.writeOpts)
	f.n.committed()
	return err
}
