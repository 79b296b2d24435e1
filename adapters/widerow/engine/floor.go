package engine

// Floor writes a fan-out's cells into a node's Pebble with nothing of the model above them:
// one column, the same name and value, into each of a fixed set of rows of one column family,
// the keys and cells built by the engine's own encoders, in key order, in one batch of Merge
// records committed as the engine commits. It is what any fan-out on this storage costs at the
// least (the memtable insertion, the commit log, the flushes and compactions of its keys), the
// floor that benchmarks hold batch_mutate and a post to. It is not a write path: it validates
// nothing, records nothing, and leaves the row cache alone.
type Floor struct {
	set  *RowSet // the rows, prepared as a post's are (see RowSet)
	key  []byte
	cell []byte
}

// Floor prepares a floor for rows of keyspace's column family cfName: their prefixes (tokens
// included) are computed and sorted once, outside what Write costs, as a post's row set is.
func (n *Node) Floor(keyspace, cfName string, rows []string) (*Floor, error) {
	cf, err := n.columnFamily(keyspace, cfName)
	if err != nil {
		return nil, err
	}
	if cf.super {
		return nil, invalidf("a floor writes columns; %s is a super column family", cf.name)
	}
	names := make([]Column, len(rows))
	for i, k := range rows {
		names[i].Name = []byte(k)
	}
	set, _, err := n.newRowSet(cf, names)
	if err != nil {
		return nil, err
	}
	return &Floor{set: set}, nil
}

// Write writes the column (name, value, ts) into every row of the floor, as one batch.
func (f *Floor) Write(name, value []byte, ts int64) error {
	n, s := f.set.n, f.set
	batch := n.db.NewBatchWithSize(s.Len() * stagedCellGuess)
	defer batch.Close()
	f.cell = appendCell(f.cell[:0], value, ts, false)
	for i := range s.Len() {
		f.key = AppendName(append(append(f.key[:0], s.prefix(i)...), kindColumns), s.cf.cmp, name, false)
		if err := batch.Merge(f.key, f.cell, nil); err != nil {
			return err
		}
	}
	n.gate.RLock()
	err := batch.Commit(n.writeOpts)
	n.gate.RUnlock()
	n.committed()
	return err
}
