package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"
	"unsafe"

	"twissandra/ports/oplog"

	"github.com/cockroachdb/pebble"
)

// noDeletion is Cassandra's "markedForDeleteAt = Long.MIN_VALUE".
const noDeletion = math.MinInt64

// collector accumulates a read result. Names and values are copied into
// one growing arena and columns into one slice, so a slice of k columns
// costs O(log k) allocations, not O(k). (Growing the arena never moves
// bytes already handed out: append copies them to a new array and the old
// one stays valid for the slices that reference it.)
type collector struct {
	countOnly bool
	count     int
	arena     []byte
	cols      []Column
	supers    []superRef
}

type superRef struct {
	name       []byte
	start, end int // range in cols
}

func (c *collector) bytes(b []byte) []byte {
	start := len(c.arena)
	c.arena = append(c.arena, b...)
	return c.arena[start:len(c.arena):len(c.arena)]
}

// name decodes an encoded column name into the arena.
func (c *collector) name(cmp Comparator, enc []byte, terminated bool) ([]byte, error) {
	start := len(c.arena)
	var err error
	c.arena, _, err = DecodeName(c.arena, cmp, enc, terminated)
	return c.arena[start:len(c.arena):len(c.arena)], err
}

func (c *collector) addColumn(cmp Comparator, encName []byte, cell cellView) error {
	if c.countOnly {
		c.count++
		return nil
	}
	name, err := c.name(cmp, encName, false)
	if err != nil {
		return err
	}
	c.cols = append(c.cols, Column{Name: name, Value: c.bytes(cell.value), Timestamp: cell.ts})
	return nil
}

// standard returns the standard columns collected, as ColumnOrSuperColumns.
func (c *collector) standard() []ColumnOrSuperColumn {
	out := make([]ColumnOrSuperColumn, len(c.cols))
	for i := range c.cols {
		out[i].Column = &c.cols[i]
	}
	return out
}

func (c *collector) superColumns() []ColumnOrSuperColumn {
	out := make([]ColumnOrSuperColumn, len(c.supers))
	scs := make([]SuperColumn, len(c.supers))
	for i, s := range c.supers {
		scs[i] = SuperColumn{Name: s.name, Columns: c.cols[s.start:s.end:s.end]}
		out[i].SuperColumn = &scs[i]
	}
	return out
}

// reader holds the scratch buffers of one read; it is pooled.
type reader struct {
	n   *Node
	it  kvIter           // what the read paths walk: pit, or a cached row (ri)
	pit *pebble.Iterator // the storage, as of newReader
	gen uint64           // the row cache's generation before pit was opened
	// commits is the node's commit count when pit was opened: pit goes back to the node's
	// idle iterators if it is still the count when the read ends (iterpool.go).
	commits uint64
	ri      rowIter
	k       []byte // seek key
	k2      []byte // encoded bound
	row     []byte // row prefix
	grp     []byte // super column group prefix
	p       []byte // column prefix
	// cols and arena are a GetSliceEach's result, kept for the next one.
	cols  []Column
	arena []byte
}

var readerPool = sync.Pool{New: func() any { return new(reader) }}

func (n *Node) newReader() (*reader, error) {
	e, ok := n.iters.take(n.commits.Load())
	if !ok {
		// Both before the snapshot: the generation for rowcache.go, the count for iterpool.go.
		e.gen, e.commits = n.rows.generation(), n.commits.Load()
		var err error
		if e.it, err = n.db.NewIter(nil); err != nil {
			return nil, err
		}
		n.iters.opened.Add(1)
	}
	r := readerPool.Get().(*reader)
	r.n, r.it, r.pit, r.gen, r.commits = n, e.it, e.it, e.gen, e.commits
	return r, nil
}

func (r *reader) close() error {
	var err error
	if !r.n.iters.put(idleIter{it: r.pit, commits: r.commits, gen: r.gen}, r.n.commits.Load()) {
		err = r.pit.Close()
	}
	r.it, r.pit, r.n, r.ri = nil, nil, nil, rowIter{}
	if cap(r.k)+cap(r.k2)+cap(r.row)+cap(r.grp)+cap(r.p)+cap(r.arena)+cap(r.cols)*int(unsafe.Sizeof(Column{})) < 1<<20 {
		readerPool.Put(r)
	}
	return err
}

// cellAt reads the cell stored exactly at key, if any.
func (r *reader) cellAt(key []byte) (cellView, bool, error) {
	if !r.it.SeekGE(key) || !bytes.Equal(r.it.Key(), key) {
		return cellView{}, false, r.it.Error()
	}
	c, ok := parseCell(r.it.Value())
	if !ok {
		return cellView{}, false, fmt.Errorf("%w: short cell at %q", ErrCorrupt, key)
	}
	return c, true, nil
}

// deletionAt returns the timestamp of the deletion marker at key, or noDeletion.
func (r *reader) deletionAt(key []byte) (int64, error) {
	c, ok, err := r.cellAt(key)
	if err != nil || !ok {
		return noDeletion, err
	}
	return c.ts, nil
}

// rowDeletion loads the row prefix of (cf, key) into r.row and returns the
// row tombstone timestamp.
func (r *reader) rowDeletion(cf *cfInfo, key string) (int64, error) {
	r.row = r.n.appendRowPrefix(r.row[:0], cf, key)
	if !cf.rowDeletes.Load() {
		// No row of cf was ever deleted whole (the flag is read after this read's snapshot
		// was taken, and raised before a first row tombstone commits): nothing to look up.
		return noDeletion, nil
	}
	r.k = append(append(r.k[:0], r.row...), kindRowTombstone)
	return r.deletionAt(r.k)
}

// superPrefix sets r.grp to rowPrefix|0x01|enc(sc) and returns the super
// column's own deletion time combined with the row's.
func (r *reader) superPrefix(cf *cfInfo, sc []byte, rowDel int64) (int64, error) {
	r.grp = append(append(r.grp[:0], r.row...), kindColumns)
	r.grp = AppendName(r.grp, cf.cmp, sc, true)
	r.k = append(append(r.k[:0], r.grp...), kindSuperTombstone)
	d, err := r.deletionAt(r.k)
	return max(d, rowDel), err
}

func live(c cellView, del int64) bool { return !c.tombstone && c.ts > del }

// sliceColumns walks the cells directly under prefix P (P|enc(name) for
// each cell; names unterminated), honouring a SliceRange. It costs one seek
// plus one step per cell visited; dead cells (tombstones, or shadowed by
// del) are stepped over and not counted, so a run of dead cells inside the
// range is the only thing that lengthens the walk.
func (r *reader) sliceColumns(P []byte, cmp Comparator, sr *SliceRange, del int64, out *collector) error {
	it := r.it
	want := int(sr.Count)
	if want == 0 {
		return nil
	}
	var finish []byte
	if len(sr.Finish) > 0 {
		finish = AppendName(r.k2[:0], cmp, sr.Finish, false)
		r.k2 = finish
	}
	got := 0
	seek := append(r.k[:0], P...)
	var valid bool
	if !sr.Reversed {
		if len(sr.Start) > 0 {
			seek = AppendName(seek, cmp, sr.Start, false)
		}
		r.k = seek
		valid = it.SeekGE(seek)
	} else {
		if len(sr.Start) > 0 {
			seek = append(AppendName(seek, cmp, sr.Start, false), 0x00)
		} else {
			seek = prefixSuccessor(seek[:0], P)
		}
		r.k = seek
		valid = it.SeekLT(seek)
	}
	for ; valid && got < want; valid = r.step(sr.Reversed) {
		k := it.Key()
		if !bytes.HasPrefix(k, P) {
			break
		}
		name := k[len(P):]
		if finish != nil {
			c := bytes.Compare(name, finish)
			if (!sr.Reversed && c > 0) || (sr.Reversed && c < 0) {
				break
			}
		}
		cell, ok := parseCell(it.Value())
		if !ok {
			return fmt.Errorf("%w: short cell", ErrCorrupt)
		}
		if !live(cell, del) {
			continue
		}
		if got == 0 && !out.countOnly {
			// The first cell's size stands for the rest: the arena grows once, not log(k) times.
			out.arena = slices.Grow(out.arena, min(want, 1024)*(len(name)+len(cell.value)+8))
		}
		if err := out.addColumn(cmp, name, cell); err != nil {
			return err
		}
		got++
	}
	return it.Error()
}

func (r *reader) step(reversed bool) bool {
	if reversed {
		return r.it.Prev()
	}
	return r.it.Next()
}

// columnsByName looks up each (sorted, validated) name under prefix P.
func (r *reader) columnsByName(P []byte, cmp Comparator, names [][]byte, del int64, out *collector) error {
	for _, name := range names {
		r.k = AppendName(append(r.k[:0], P...), cmp, name, false)
		cell, ok, err := r.cellAt(r.k)
		if err != nil {
			return err
		}
		if ok && live(cell, del) {
			if err := out.addColumn(cmp, r.k[len(P):], cell); err != nil {
				return err
			}
		}
	}
	return nil
}

// sliceSupers walks the super columns of the row in r.row. A super column
// is a group of keys rowPrefix|0x01|enc(sc)|...: first its deletion marker
// (0x00), then its subcolumns (0x01|enc(sub)). Reversed reverses the order of
// super columns only: subcolumns stay ascending.
//
// Count counts super columns as 0.6.6's SliceQueryFilter.collectReducedColumns
// does (0.6.2's is the same): a super column counts when it carries no tombstone
// of its own and, under a row tombstone, has a subcolumn that is not a
// tombstone and is newer than the row's. What is answered is each super column
// with a live subcolumn, as CassandraServer.thriftifySuperColumns answers. The
// two differ, so a slice may answer fewer super columns than count (one whose
// subcolumns are all tombstones counts and is dropped) or more (one deleted
// whole and written again since is answered and not counted).
func (r *reader) sliceSupers(cf *cfInfo, sr *SliceRange, rowDel int64, out *collector) error {
	it := r.it
	want := int(sr.Count)
	if want == 0 {
		return nil
	}
	P := append(append(r.p[:0], r.row...), kindColumns)
	r.p = P
	var finish []byte
	if len(sr.Finish) > 0 {
		finish = AppendName(r.k2[:0], cf.cmp, sr.Finish, true)
		r.k2 = finish
	}
	seek := append(r.k[:0], P...)
	var valid bool
	if !sr.Reversed {
		if len(sr.Start) > 0 {
			seek = AppendName(seek, cf.cmp, sr.Start, true)
		}
		r.k = seek
		valid = it.SeekGE(seek)
	} else {
		if len(sr.Start) > 0 {
			seek = append(AppendName(seek, cf.cmp, sr.Start, true), kindSubcolumn+1)
		} else {
			seek = prefixSuccessor(seek[:0], P)
		}
		r.k = seek
		valid = it.SeekLT(seek)
	}
	got := 0
	for valid && got < want {
		k := it.Key()
		if !bytes.HasPrefix(k, P) {
			break
		}
		l, err := encodedNameLen(cf.cmp, k[len(P):], true)
		if err != nil {
			return err
		}
		scEnc := k[len(P) : len(P)+l]
		if finish != nil {
			c := bytes.Compare(scEnc, finish)
			if (!sr.Reversed && c > 0) || (sr.Reversed && c < 0) {
				break
			}
		}
		r.grp = append(r.grp[:0], k[:len(P)+l]...)
		g := len(r.grp)
		arenaMark, colMark := len(out.arena), len(out.cols)
		countMark := out.count
		scDel := rowDel
		var name []byte
		if !out.countOnly {
			if name, err = out.name(cf.cmp, scEnc, true); err != nil {
				return err
			}
		}
		// In a forward walk the deletion marker comes first; in a reversed
		// one it comes last, so candidates are filtered once the group ends.
		var tsBuf [16]int64
		tss := tsBuf[:0]
		// scTomb is the super column's own tombstone; newest, its newest subcolumn
		// that is not a tombstone, shadowed or not (0.6's mostRecentLiveChangeAt).
		scTomb, newest := int64(noDeletion), int64(noDeletion)
		for ; valid; valid = r.step(sr.Reversed) {
			k = it.Key()
			if len(k) <= g || !bytes.HasPrefix(k, r.grp) {
				break
			}
			cell, ok := parseCell(it.Value())
			if !ok {
				return fmt.Errorf("%w: short cell", ErrCorrupt)
			}
			if k[g] == kindSuperTombstone {
				scDel, scTomb = max(scDel, cell.ts), cell.ts
				continue
			}
			if !cell.tombstone {
				newest = max(newest, cell.ts)
			}
			if !live(cell, scDel) {
				continue
			}
			if out.countOnly {
				tss = append(tss, cell.ts)
				continue
			}
			if err := out.addColumn(cf.sub, k[g+1:], cell); err != nil {
				return err
			}
		}
		if err := it.Error(); err != nil {
			return err
		}
		live := 0
		if out.countOnly {
			for _, ts := range tss {
				if ts > scDel {
					live++
				}
			}
			out.count = countMark
		} else {
			cols := out.cols[colMark:]
			cols = slices.DeleteFunc(cols, func(c Column) bool { return c.Timestamp <= scDel })
			if sr.Reversed {
				slices.Reverse(cols)
			}
			out.cols = out.cols[:colMark+len(cols)]
			live = len(cols)
		}
		if scTomb == noDeletion && (rowDel == noDeletion || newest > rowDel) {
			got++
		}
		if live == 0 {
			out.arena, out.cols = out.arena[:arenaMark], out.cols[:colMark]
			continue
		}
		if out.countOnly {
			out.count++
		} else {
			out.supers = append(out.supers, superRef{name: name, start: colMark, end: len(out.cols)})
		}
	}
	return it.Error()
}

// readParent reads the columns selected by pred under parent in one row: from the row cache
// when the column family has one (RowsCached) and the row is there or this read may fill it.
func (r *reader) readParent(cf *cfInfo, key string, parent *ColumnParent, names [][]byte, sr *SliceRange, out *collector) error {
	row, err := r.cachedRow(cf, key, parent, sr)
	if err != nil {
		return err
	}
	return r.readFrom(row, cf, key, parent, names, sr, out)
}

// fromStart is the number of cells a read asks for from the row's first column, or 0 when it
// reads anything else.
func fromStart(parent *ColumnParent, sr *SliceRange) int {
	if sr != nil && !sr.Reversed && len(sr.Start) == 0 && len(parent.SuperColumn) == 0 {
		return int(sr.Count)
	}
	return 0
}

// cacheLookup is the row from the row cache, or nil and what the cache knows of its width (see
// rowCache.get); nil and 0 when the column family has no cache.
func (n *Node) cacheLookup(cf *cfInfo, key string) (*cachedRow, int) {
	if cf.rowsCached == 0 {
		return nil, 0
	}
	return n.rows.get(cf, key)
}

// cachedRow is the row from the row cache, when its column family has one and the row is
// there or this read may fill it; nil otherwise.
func (r *reader) cachedRow(cf *cfInfo, key string, parent *ColumnParent, sr *SliceRange) (*cachedRow, error) {
	if cf.rowsCached == 0 {
		return nil, nil
	}
	return r.cachedRowFor(cf, key, fromStart(parent, sr))
}

// wholeLive reports whether the read takes the cached row's live columns as they are.
func wholeLive(row *cachedRow, parent *ColumnParent, sr *SliceRange, out *collector) bool {
	return row != nil && row.live != nil && fromStart(parent, sr) > 0 && len(sr.Finish) == 0 && !out.countOnly
}

// readFrom is readParent with the row cache already asked: row is the cached row, or nil to
// read the storage.
func (r *reader) readFrom(row *cachedRow, cf *cfInfo, key string, parent *ColumnParent, names [][]byte, sr *SliceRange, out *collector) error {
	if row == nil {
		rowDel, err := r.rowDeletion(cf, key)
		if err != nil {
			return err
		}
		return r.readRow(cf, parent, names, sr, rowDel, out)
	}
	if wholeLive(row, parent, sr, out) {
		// From the row's first column: its live columns, decoded when it was cached. Their
		// bytes are the cache's, shared and never written again (see GetSlice).
		out.cols = append(out.cols, row.live[:min(int(sr.Count), len(row.live))]...)
		return nil
	}
	r.ri = rowIter{row: row, i: -1}
	r.it = &r.ri
	defer func() { r.it = r.pit }()
	if sr != nil && !out.countOnly {
		// The row's size bounds what the read can collect: size the result once.
		n := min(int(sr.Count), len(row.keys))
		out.cols = slices.Grow(out.cols, n)
		out.arena = slices.Grow(out.arena, n*(row.payload/max(len(row.keys), 1)+1))
	}
	// The cached row knows its prefix and its deletion: no token to hash, no marker to look up.
	r.row = append(r.row[:0], row.prefix...)
	return r.readRow(cf, parent, names, sr, row.del, out)
}

// readRow is readParent for the row already loaded in r.row.
func (r *reader) readRow(cf *cfInfo, parent *ColumnParent, names [][]byte, sr *SliceRange, rowDel int64, out *collector) error {
	switch {
	case !cf.super:
		P := append(append(r.p[:0], r.row...), kindColumns)
		r.p = P
		if sr != nil {
			return r.sliceColumns(P, cf.cmp, sr, rowDel, out)
		}
		return r.columnsByName(P, cf.cmp, names, rowDel, out)
	case len(parent.SuperColumn) > 0:
		del, err := r.superPrefix(cf, parent.SuperColumn, rowDel)
		if err != nil {
			return err
		}
		P := append(append(r.p[:0], r.grp...), kindSubcolumn)
		r.p = P
		if sr != nil {
			return r.sliceColumns(P, cf.sub, sr, del, out)
		}
		return r.columnsByName(P, cf.sub, names, del, out)
	default:
		if sr != nil {
			return r.sliceSupers(cf, sr, rowDel, out)
		}
		for _, name := range names {
			one := SliceRange{Start: name, Finish: name, Count: 1}
			if err := r.sliceSupers(cf, &one, rowDel, out); err != nil {
				return err
			}
		}
		return nil
	}
}

func (out *collector) result(cf *cfInfo, parent *ColumnParent) []ColumnOrSuperColumn {
	if cf.super && len(parent.SuperColumn) == 0 {
		return out.superColumns()
	}
	return out.standard()
}

// prepareRead validates what every read shares.
func (n *Node) prepareRead(ctx context.Context, keyspace string, parent *ColumnParent, pred *SlicePredicate, cl ConsistencyLevel) (*cfInfo, [][]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if err := validateConsistency(cl, true); err != nil {
		return nil, nil, err
	}
	cf, err := n.columnFamily(keyspace, parent.ColumnFamily)
	if err != nil {
		return nil, nil, err
	}
	cmp, err := validateParent(cf, parent)
	if err != nil {
		return nil, nil, err
	}
	if pred == nil {
		return cf, nil, nil
	}
	names, err := validatePredicate(cmp, pred)
	return cf, names, err
}

// sizeHint is how many columns a read reserves room for before it knows the row: the count
// asked, up to 64. A count is a bound, not a width: an unbounded slice of a short row (the
// pulled authors' row, all(65536), read on every home page) must not reserve a thousand
// columns, and a wide row's result grows by doubling, O(k) in all.
func sizeHint(pred *SlicePredicate) int {
	if pred.SliceRange != nil {
		return min(int(pred.SliceRange.Count), 64)
	}
	return len(pred.ColumnNames)
}

// GetSlice returns the live columns of one row selected by pred, in
// comparator order (reversed for a reversed SliceRange). For a super CF
// without parent.SuperColumn the result holds super columns, each with its
// live subcolumns. A missing row gives an empty result, not an error. A result's names and
// values may be shared with the row cache: callers read them and never write into them.
func (n *Node) GetSlice(ctx context.Context, keyspace, key string, parent ColumnParent, pred SlicePredicate, cl ConsistencyLevel) (res []ColumnOrSuperColumn, err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() { n.recordSlice(ctx, start, cl, keyspace, key, parent, pred, len(res), err) }()
	}
	var out collector
	cf, cached, r, err := n.sliceRow(ctx, keyspace, key, &parent, &pred, cl, &out, false)
	if err != nil || r == nil {
		return cached, err
	}
	res = out.result(cf, &parent)
	if err := r.close(); err != nil {
		return nil, err
	}
	return res, nil
}

// GetSliceEach is GetSlice of standard columns (of a standard column family, or of one super
// column) for a caller in this process that copies what it keeps: it hands each column of the
// result to fn, in order, and returns how many. The columns' bytes are valid only during the
// call: they lie in buffers that later reads reuse, so a read that keeps nothing allocates
// nothing for its result. It records itself as the get_slice it is.
func (n *Node) GetSliceEach(ctx context.Context, keyspace, key string, parent ColumnParent, pred SlicePredicate, cl ConsistencyLevel, fn func(Column)) (count int, err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() { n.recordSlice(ctx, start, cl, keyspace, key, parent, pred, count, err) }()
	}
	var out collector
	_, cached, r, err := n.sliceRow(ctx, keyspace, key, &parent, &pred, cl, &out, true)
	if err != nil {
		return 0, err
	}
	if r == nil {
		for _, c := range cached {
			fn(*c.Column)
		}
		return len(cached), nil
	}
	for i := range out.cols {
		fn(out.cols[i])
	}
	count = len(out.cols)
	// For the next read (fn kept none of it), holding no pointer into rows the cache may drop.
	clear(out.cols)
	r.cols, r.arena = out.cols[:0], out.arena[:0]
	if err := r.close(); err != nil {
		return 0, err
	}
	return count, nil
}

// sliceRow is the read of GetSlice and GetSliceEach, into out. When the row cache holds the
// row's live columns from its start, they answer (cached; no reader). Otherwise r is the open
// reader, which the caller closes once done with out; with each, out is built in r's reused
// buffers, and only standard columns may be asked for.
func (n *Node) sliceRow(ctx context.Context, keyspace, key string, parent *ColumnParent, pred *SlicePredicate, cl ConsistencyLevel, out *collector, each bool) (cf *cfInfo, cached []ColumnOrSuperColumn, r *reader, err error) {
	cf, names, err := n.prepareRead(ctx, keyspace, parent, pred, cl)
	if err != nil {
		return nil, nil, nil, err
	}
	if each && cf.super && parent.SuperColumn == nil {
		return nil, nil, nil, invalidf("GetSliceEach reads standard columns: %s is a super column family and no super column is named", cf.name)
	}
	if err := validateKey(key); err != nil {
		return nil, nil, nil, err
	}
	row, wide := n.cacheLookup(cf, key)
	if row != nil {
		n.rows.hit(1)
	}
	if wholeLive(row, parent, pred.SliceRange, out) {
		return cf, row.head(int(pred.SliceRange.Count)), nil, nil // no snapshot to open
	}
	if r, err = n.newReader(); err != nil {
		return nil, nil, nil, err
	}
	if row == nil && cf.rowsCached > 0 {
		row, err = r.fillRow(cf, key, fromStart(parent, pred.SliceRange), wide)
	}
	if each {
		out.cols, out.arena = r.cols[:0], r.arena[:0]
		r.cols, r.arena = nil, nil // out's until the caller hands them back
	}
	out.cols = slices.Grow(out.cols, sizeHint(pred))
	if err == nil {
		err = r.readFrom(row, cf, key, parent, names, pred.SliceRange, out)
	}
	if err != nil {
		return nil, nil, nil, errors.Join(err, r.close())
	}
	return cf, nil, r, nil
}

// MultigetSlice is GetSlice for many keys; the map has an entry for every
// key asked (an empty list when the row has nothing live).
func (n *Node) MultigetSlice(ctx context.Context, keyspace string, keys []string, parent ColumnParent, pred SlicePredicate, cl ConsistencyLevel) (map[string][]ColumnOrSuperColumn, error) {
	lists, err := n.MultigetSliceList(ctx, keyspace, keys, parent, pred, cl)
	if err != nil {
		return nil, err
	}
	res := make(map[string][]ColumnOrSuperColumn, len(keys))
	for i, key := range keys {
		res[key] = lists[i]
	}
	return res, nil
}

// MultigetSliceList is MultigetSlice with the results in a list aligned with keys, not a map (a
// key asked twice is read twice): what a caller that walks its keys in order wants, without
// building and probing a map. It records itself as the multiget_slice it is. Its results' names
// and values are never written again, by the engine or by its row cache (a cached row's bytes
// are shared and read-only, a read's are its own): a caller may keep them, as strings too.
func (n *Node) MultigetSliceList(ctx context.Context, keyspace string, keys []string, parent ColumnParent, pred SlicePredicate, cl ConsistencyLevel) (res [][]ColumnOrSuperColumn, err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() { n.recordMultiget(ctx, start, cl, keyspace, keys, parent, pred, res, err) }()
	}
	cf, names, err := n.prepareRead(ctx, keyspace, &parent, &pred, cl)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if err := validateKey(k); err != nil {
			return nil, err
		}
	}
	// The row cache first: when it holds every row, no snapshot of the storage is opened; the
	// rows it holds say how much they will take, so the collector is sized once (the others
	// get sizeHint's guess).
	cached := make([]*cachedRow, len(keys))
	var wide []int // what the cache knows of the rows it lacks
	var out collector
	ncols, allCached, hits := 0, true, 0
	for i, key := range keys {
		row, w := n.cacheLookup(cf, key)
		cached[i] = row
		if row != nil {
			hits++
		}
		if !wholeLive(row, &parent, pred.SliceRange, &out) {
			ncols += min(sizeHint(&pred), 16)
			allCached = false
		}
		if row == nil && cf.rowsCached > 0 {
			if wide == nil {
				wide = make([]int, len(keys))
			}
			wide[i] = w
		}
	}
	n.rows.hit(hits)
	if allCached {
		res = make([][]ColumnOrSuperColumn, len(keys))
		for i, row := range cached {
			res[i] = row.head(int(pred.SliceRange.Count))
		}
		return res, nil
	}
	r, err := n.newReader()
	if err != nil {
		return nil, err
	}
	defer r.close()
	for i, key := range keys {
		if i%64 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if cached[i] == nil && wide != nil {
			if cached[i], err = r.fillRow(cf, key, fromStart(&parent, pred.SliceRange), wide[i]); err != nil {
				return nil, err
			}
		}
	}
	// One collector serves every row, and one array of results serves every row's list: a
	// multiget of k rows allocates O(log k) times, not k times.
	out.cols = make([]Column, 0, ncols)
	res = make([][]ColumnOrSuperColumn, len(keys))
	type span struct{ i, lo, hi int } // the row's columns (super columns for a super CF) in out
	var spans []span
	supers := cf.super && len(parent.SuperColumn) == 0
	for i, key := range keys {
		if row := cached[i]; wholeLive(row, &parent, pred.SliceRange, &out) {
			res[i] = row.head(int(pred.SliceRange.Count))
			continue
		}
		lo := len(out.cols)
		if supers {
			lo = len(out.supers)
		}
		if err := r.readFrom(cached[i], cf, key, &parent, names, pred.SliceRange, &out); err != nil {
			return nil, err
		}
		hi := len(out.cols)
		if supers {
			hi = len(out.supers)
		}
		spans = append(spans, span{i, lo, hi})
	}
	all := out.result(cf, &parent)
	for _, s := range spans {
		res[s.i] = all[s.lo:s.hi:s.hi]
	}
	return res, nil
}

// GetCount counts the live columns under parent (for a super CF without
// parent.SuperColumn: the super columns with at least one live subcolumn).
// It walks the whole row.
func (n *Node) GetCount(ctx context.Context, keyspace, key string, parent ColumnParent, cl ConsistencyLevel) (count int, err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() {
			n.recordPath(ctx, start, cl, "get_count", keyspace, key, ColumnPath{ColumnFamily: parent.ColumnFamily, SuperColumn: parent.SuperColumn}, outcome(err, count, "columns"))
		}()
	}
	cf, _, err := n.prepareRead(ctx, keyspace, &parent, nil, cl)
	if err != nil {
		return 0, err
	}
	if err := validateKey(key); err != nil {
		return 0, err
	}
	r, err := n.newReader()
	if err != nil {
		return 0, err
	}
	out := collector{countOnly: true}
	all := SliceRange{Count: math.MaxInt32}
	err = r.readParent(cf, key, &parent, nil, &all, &out)
	if err = errors.Join(err, r.close()); err != nil {
		return 0, err
	}
	return out.count, nil
}

// Get returns one column (path.Column set) or one whole super column
// (super CF, only path.SuperColumn set). It returns ErrNotFound (a
// *NotFoundError) when nothing live is there.
func (n *Node) Get(ctx context.Context, keyspace, key string, path ColumnPath, cl ConsistencyLevel) (got ColumnOrSuperColumn, err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() { n.recordPath(ctx, start, cl, "get", keyspace, key, path, outcome(err, 1, "column")) }()
	}
	var zero ColumnOrSuperColumn
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if err := validateConsistency(cl, true); err != nil {
		return zero, err
	}
	cf, err := n.columnFamily(keyspace, path.ColumnFamily)
	if err != nil {
		return zero, err
	}
	if err := validateKey(key); err != nil {
		return zero, err
	}
	if err := validateColumnPath(cf, &path); err != nil {
		return zero, err
	}
	parent := ColumnParent{ColumnFamily: path.ColumnFamily, SuperColumn: path.SuperColumn}
	r, err := n.newReader()
	if err != nil {
		return zero, err
	}
	out := collector{}
	if len(path.Column) > 0 {
		err = r.readParent(cf, key, &parent, [][]byte{path.Column}, nil, &out)
	} else {
		// A whole super column: all its live subcolumns.
		parent.SuperColumn = nil
		err = r.readParent(cf, key, &parent, [][]byte{path.SuperColumn}, nil, &out)
	}
	if err = errors.Join(err, r.close()); err != nil {
		return zero, err
	}
	if len(path.Column) > 0 {
		if len(out.cols) == 0 {
			return zero, &NotFoundError{}
		}
		return ColumnOrSuperColumn{Column: &out.cols[0]}, nil
	}
	if len(out.supers) == 0 {
		return zero, &NotFoundError{}
	}
	return out.superColumns()[0], nil
}
