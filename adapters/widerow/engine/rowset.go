package engine

import (
	"bytes"
	"context"
	"slices"
	"time"

	"twissandra/ports/oplog"
)

// A RowSet is the rows of one column family named by the live column names of one row-cached
// row: an index row, such as Twissandra's Followers[author], whose column names are the keys of
// the rows a post writes (each follower's Timeline). A fan-out writes the same rows again and
// again, and batch_mutate takes its rows by key: every post computes each key's MD5 token,
// escapes each key and sorts the lot. A RowSet does that once, and is kept with the cached row
// it was read from: a write to that row drops the row from the cache and the set with it, so a
// set is never older than the row a read would find (see rowcache.go's coherence).
//
// Cassandra 0.6 had nothing of the kind: its clients read the index row and sent batch_mutate
// the keys, and the coordinator hashed every one. The set is this emulation's server doing
// less work for the same reads and writes; BatchMutateRows writes what BatchMutate writes.
type RowSet struct {
	n     *Node
	cf    *cfInfo
	names []Column // the cached row's live columns, whose names are the rows' keys (read-only)
	order []int32  // the rows in token order, as indexes of names
	buf   []byte   // the rows' prefixes (column family, token, escaped key), in that order
	ends  []int32  // where each prefix ends in buf
}

// Len is the number of rows in the set.
func (s *RowSet) Len() int { return len(s.order) }

// key is the key of the set's i-th row in token order.
func (s *RowSet) key(i int) string { return string(s.names[s.order[i]].Name) }

// prefix is the prefix of the set's i-th row in token order.
func (s *RowSet) prefix(i int) []byte {
	start := int32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.buf[start:s.ends[i]:s.ends[i]]
}

// RowsNamedBy returns the rows of column family target named by the live column names of row
// key of column family source, when the row cache holds that row (ok is false otherwise: the
// caller reads the row itself, which fills the cache for the next time). The set is built at
// the first call after the row was cached and shared by the calls after it; it is read-only.
func (n *Node) RowsNamedBy(ctx context.Context, keyspace, source, key, target string, cl ConsistencyLevel) (set *RowSet, ok bool, err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() {
			if (!ok && err == nil) || brief(ctx, oplog.Read, "get_slice") {
				return // not cached: the caller reads the row, and records that
			}
			p, got := "the whole row", 0
			if ok {
				p, got = "the whole row, from the row cache (its rows' tokens kept with it)", set.Len()
			}
			n.recordSliceAs(ctx, start, cl, keyspace, key, n.cfOf(keyspace, source), ColumnParent{ColumnFamily: source}, p, got, err)
		}()
	}
	src, _, err := n.prepareRead(ctx, keyspace, &ColumnParent{ColumnFamily: source}, nil, cl)
	if err != nil {
		return nil, false, err
	}
	dst, err := n.columnFamily(keyspace, target)
	if err != nil {
		return nil, false, err
	}
	if src.super || dst.super {
		return nil, false, invalidf("a row set names the rows of a standard column family by the column names of a standard row")
	}
	if err := validateKey(key); err != nil {
		return nil, false, err
	}
	row := n.rows.peek(src, key) // a miss is counted by the read the caller makes instead
	if row == nil {
		return nil, false, nil
	}
	n.rows.hit(1)
	if s := row.named.Load(); s != nil && s.cf == dst {
		return s, true, nil
	}
	s, size, err := n.newRowSet(dst, row.live)
	if err != nil {
		return nil, false, err
	}
	n.rows.attach(row, s, size)
	return s, true, nil
}

// newRowSet is the set of the rows of cf keyed by names' names, and its memory in bytes: each
// name's prefix, in names' order, then the order of the prefixes, then the prefixes packed in
// that order (about 60 bytes a row, with no allocation of its own).
func (n *Node) newRowSet(cf *cfInfo, names []Column) (*RowSet, int, error) {
	var all []byte
	ends := make([]int32, len(names))
	for i, c := range names {
		if err := validateKey(string(c.Name)); err != nil {
			return nil, 0, err
		}
		all = n.appendRowPrefix(all, cf, string(c.Name))
		ends[i] = int32(len(all))
	}
	at := func(i int32) []byte {
		if i == 0 {
			return all[:ends[0]]
		}
		return all[ends[i-1]:ends[i]]
	}
	s := &RowSet{n: n, cf: cf, names: names, order: make([]int32, len(names)), buf: make([]byte, 0, len(all)), ends: make([]int32, len(names))}
	for i := range s.order {
		s.order[i] = int32(i)
	}
	slices.SortFunc(s.order, func(a, b int32) int { return bytes.Compare(at(a), at(b)) }) // the order the engine commits in
	for i, o := range s.order {
		s.buf = append(s.buf, at(o)...)
		s.ends[i] = int32(len(s.buf))
	}
	return s, cap(s.buf) + 4*(cap(s.order)+cap(s.ends)), nil
}

// BatchMutateRows is BatchMutate of the mutation list muts into every row of set (of the set's
// column family) and of the mutations of rows, in one batch: what BatchMutate writes when each
// of set's keys maps to {set's column family: muts}, without a token, an escape or a sort per
// key. The set's rows come last, in token order, which is the order Pebble's memtable inserts
// cheapest.
func (n *Node) BatchMutateRows(ctx context.Context, keyspace string, set *RowSet, muts []Mutation, rows map[string]map[string][]Mutation, cl ConsistencyLevel) (err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() { n.recordRows(ctx, start, cl, keyspace, set, len(muts), rows, err) }()
	}
	if err := n.prepareBatch(ctx, keyspace, cl); err != nil {
		return err
	}
	switch {
	case set.n != n:
		return invalidf("the row set was read from another node")
	case set.cf.keyspace != keyspace:
		return invalidf("the row set's column family %s is not of keyspace %s", set.cf.name, keyspace)
	}
	w := n.newWriter(ctx)
	defer w.release()
	w.b.Close() // sized once: a fan-out's batch would otherwise grow by copies
	w.b = n.db.NewBatchWithSize((len(rows) + set.Len()) * stagedCellGuess)
	for key, byCF := range rows {
		if err := w.applyKey(ctx, keyspace, key, byCF); err != nil {
			return err
		}
	}
	for i := range set.Len() {
		if i%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		w.cf, w.row = set.cf, append(w.row[:0], set.prefix(i)...)
		if set.cf.rowsCached > 0 {
			w.touched = append(w.touched, rowCacheKey{set.cf, set.key(i)})
		}
		if err := w.applyRow(set.cf, muts); err != nil {
			return err
		}
	}
	if w.empty() {
		return nil
	}
	return w.commit()
}
