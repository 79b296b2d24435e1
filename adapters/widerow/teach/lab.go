package teach

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// Lab is the comparator and slice lab (teaching.ColumnLab) on its own in-memory engine node, with
// the Scratch keyspace of storage-conf.xml: one column family per comparator. It never touches
// the application's node, so it runs beside any backend.
type Lab struct {
	// mu guards node: operations hold it shared, starting the node over takes it alone.
	mu       sync.RWMutex
	node     *engine.Node
	ring     [teaching.RingReplicas]*engine.Node // the consistency lab's replicas
	cells    atomic.Int64                        // cells written since the node was opened
	maxCells int64
	runs     atomic.Int64 // last write wins runs, each on rows of its own

	clock sync.Mutex
	last  int64 // the last timestamp the lab gave its own writes
}

// Lab bounds.
const (
	LabMaxNames   = 50                 // names in one insert
	LabMaxName    = 100                // bytes of one name or value
	LabMaxRow     = teaching.LabMaxRow // names in one session's row
	LabMaxWrites  = 4                  // writes of one last write wins run
	LabMaxSession = 64                 // bytes of a session id
	// labMaxCells starts the scratch node over empty after this many cells: the lab keeps no
	// data worth keeping, and a stream of learners must not grow it forever.
	labMaxCells = 200_000
	labKeyspace = "Scratch"
	labColumn   = "name" // the column last write wins writes
)

// labCFs are the comparators in the order the lab shows them, and their column families.
var labCFs = []struct {
	cmp engine.Comparator
	cf  string
}{
	{engine.BytesType, "Bytes"}, {engine.AsciiType, "Ascii"}, {engine.UTF8Type, "UTF8s"},
	{engine.LongType, "Longs"}, {engine.LexicalUUIDType, "LexicalUUIDs"}, {engine.TimeUUIDType, "TimeUUIDs"},
}

// NewLab opens the lab's scratch node in memory, and the consistency lab's ring of three.
func NewLab() (*Lab, error) {
	l := &Lab{maxCells: labMaxCells}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

// open opens the scratch node and the ring's nodes, all empty, closing what it opened if one
// fails.
func (l *Lab) open() error {
	var nodes []*engine.Node
	for range 1 + teaching.RingReplicas {
		n, err := openLabNode()
		if err != nil {
			for _, o := range nodes {
				_ = o.Close()
			}
			return fmt.Errorf("lab: %w", err)
		}
		nodes = append(nodes, n)
	}
	l.node = nodes[0]
	copy(l.ring[:], nodes[1:])
	return nil
}

func openLabNode() (*engine.Node, error) {
	return engine.Open(engine.Options{CacheSize: 1 << 20, MemTableSize: 4 << 20, RowCacheSize: -1})
}

// Close closes the scratch node and the ring's.
func (l *Lab) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closeAll()
}

func (l *Lab) closeAll() error {
	errs := []error{l.node.Close()}
	for _, n := range l.ring {
		errs = append(errs, n.Close())
	}
	return errors.Join(errs...)
}

// with runs fn on the node, counting the cells fn may write; when the nodes have taken too
// many they are first replaced by empty ones. No operation runs on a node being replaced.
func (l *Lab) with(cells int, fn func(n *engine.Node) error) error {
	return l.withAll(cells, func(n *engine.Node, _ [teaching.RingReplicas]*engine.Node) error { return fn(n) })
}

// withRing runs fn on the consistency lab's ring, as with does on the scratch node.
func (l *Lab) withRing(cells int, fn func(ring [teaching.RingReplicas]*engine.Node) error) error {
	return l.withAll(cells, func(_ *engine.Node, ring [teaching.RingReplicas]*engine.Node) error { return fn(ring) })
}

func (l *Lab) withAll(cells int, fn func(n *engine.Node, ring [teaching.RingReplicas]*engine.Node) error) error {
	if l.cells.Add(int64(cells)) > l.maxCells {
		l.mu.Lock()
		if l.cells.Load() > l.maxCells {
			node, ring := l.node, l.ring
			if err := l.open(); err != nil {
				l.mu.Unlock()
				return err
			}
			_ = (&Lab{node: node, ring: ring}).closeAll()
			l.cells.Store(int64(cells))
		}
		l.mu.Unlock()
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	return fn(l.node, l.ring)
}

// now is a timestamp after every one the lab gave before, so that a clear and the insert that
// follows it in the same microsecond still read in that order.
func (l *Lab) now() int64 {
	l.clock.Lock()
	defer l.clock.Unlock()
	l.last = max(time.Now().UnixMicro(), l.last+1)
	return l.last
}

// Comparators implements teaching.ColumnLab.
func (l *Lab) Comparators() []string {
	out := make([]string, len(labCFs))
	for i, c := range labCFs {
		out[i] = c.cmp.String()
	}
	return out
}

// labKey is the session's row key: a hash, so that the page never shows the id it keeps.
func labKey(session string) (string, error) {
	if session == "" || len(session) > LabMaxSession {
		return "", domain.Invalid("session", "the lab needs a session id of 1 to %d bytes", LabMaxSession)
	}
	sum := sha256.Sum256([]byte("lab\x00" + session))
	return "lab-" + hex.EncodeToString(sum[:6]), nil
}

// labName turns a name typed by a learner into a column name of the comparator, or says why
// the comparator cannot take it.
func labName(cmp engine.Comparator, s string) ([]byte, error) {
	b, err := parseBound(cmp, s)
	if err == nil {
		err = cmp.Validate(b)
	}
	if err == nil {
		return b, nil
	}
	why := strings.TrimPrefix(err.Error(), "InvalidRequestException: ")
	switch cmp {
	case engine.LongType:
		why = "LongType names are 8-byte big-endian signed integers: type a whole number like 832416"
	case engine.LexicalUUIDType, engine.TimeUUIDType:
		if len(b) != 16 {
			why = "its names are 16-byte UUIDs, typed like 6ba7b810-9dad-11d1-80b4-00c04fd430c8"
		} else {
			why += " (version 1 is the time-based kind)"
		}
	case engine.BytesType:
		why = "after 0x it takes hex bytes, like 0x00ff"
	}
	return nil, fmt.Errorf("%s is not a %s name: %s", strconv.Quote(s), cmp, why)
}

func labCF(comparator string) (string, engine.Comparator, bool) {
	for _, c := range labCFs {
		if c.cmp.String() == comparator {
			return c.cf, c.cmp, true
		}
	}
	return "", 0, false
}

func checkLabNames(names []string, value string) error {
	if len(names) == 0 || len(names) > LabMaxNames {
		return domain.Invalid("names", "give 1 to %d names", LabMaxNames)
	}
	for _, n := range names {
		if n == "" || len(n) > LabMaxName {
			return domain.Invalid("names", "each name must be 1 to %d bytes", LabMaxName)
		}
	}
	if len(value) > LabMaxName {
		return domain.Invalid("value", "must be at most %d bytes", LabMaxName)
	}
	return nil
}

func labNames(cmp engine.Comparator, cols []engine.ColumnOrSuperColumn) []teaching.LabName {
	out := make([]teaching.LabName, 0, len(cols))
	for _, c := range cols {
		if c.Column == nil {
			continue
		}
		name, _ := decodeName(cmp, c.Column.Name)
		out = append(out, teaching.LabName{Name: name, Encoded: "0x" + hex.EncodeToString(c.Column.Name)})
	}
	return out
}

// Insert implements teaching.ColumnLab.
func (l *Lab) Insert(ctx context.Context, session string, names []string, value string) ([]teaching.LabRow, error) {
	key, err := labKey(session)
	if err != nil {
		return nil, err
	}
	if err := checkLabNames(names, value); err != nil {
		return nil, err
	}
	var rows []teaching.LabRow
	err = l.with(len(names)*len(labCFs), func(n *engine.Node) error {
		held := 0
		for _, c := range labCFs {
			k, err := n.GetCount(ctx, labKeyspace, key, engine.ColumnParent{ColumnFamily: c.cf}, engine.ONE)
			if err != nil {
				return widerow.Wrap("lab", err)
			}
			held = max(held, k)
		}
		if held+len(names) > LabMaxRow {
			return domain.Invalid("names", "your lab row holds %d names and takes at most %d: clear it first", held, LabMaxRow)
		}
		ts := l.now()
		rejected := make([][]string, len(labCFs))
		muts := map[string][]engine.Mutation{}
		for i, c := range labCFs {
			for _, s := range names {
				b, err := labName(c.cmp, s)
				if err != nil {
					rejected[i] = append(rejected[i], err.Error())
					continue
				}
				muts[c.cf] = append(muts[c.cf], col(string(b), []byte(value), ts))
			}
		}
		if len(muts) > 0 {
			// One row key, so one batch_mutate applies to every column family at once.
			if err := n.BatchMutate(ctx, labKeyspace, map[string]map[string][]engine.Mutation{key: muts}, engine.ONE); err != nil {
				return widerow.Wrap("lab", err)
			}
		}
		var err error
		if rows, err = l.read(ctx, n, key); err != nil {
			return err
		}
		for i := range rows {
			rows[i].Rejected = rejected[i]
		}
		return nil
	})
	return rows, err
}

// Rows implements teaching.ColumnLab.
func (l *Lab) Rows(ctx context.Context, session string) ([]teaching.LabRow, error) {
	key, err := labKey(session)
	if err != nil {
		return nil, err
	}
	var rows []teaching.LabRow
	err = l.with(0, func(n *engine.Node) error {
		var err error
		rows, err = l.read(ctx, n, key)
		return err
	})
	return rows, err
}

func (l *Lab) read(ctx context.Context, n *engine.Node, key string) ([]teaching.LabRow, error) {
	out := make([]teaching.LabRow, 0, len(labCFs))
	for _, c := range labCFs {
		cols, err := n.GetSlice(ctx, labKeyspace, key, engine.ColumnParent{ColumnFamily: c.cf}, all(LabMaxRow), engine.ONE)
		if err != nil {
			return nil, widerow.Wrap("lab", err)
		}
		out = append(out, teaching.LabRow{Comparator: c.cmp.String(), ColumnFamily: c.cf, Key: key, Names: labNames(c.cmp, cols)})
	}
	return out, nil
}

// Clear implements teaching.ColumnLab.
func (l *Lab) Clear(ctx context.Context, session string) error {
	key, err := labKey(session)
	if err != nil {
		return err
	}
	return l.with(len(labCFs)+2, func(n *engine.Node) error {
		ts := l.now()
		del := []engine.Mutation{{Deletion: &engine.Deletion{Timestamp: ts}}}
		muts := map[string][]engine.Mutation{}
		for _, c := range labCFs {
			muts[c.cf] = del
		}
		primer := map[string][]engine.Mutation{teaching.PrimerStandard: del, teaching.PrimerSuper: del}
		return widerow.Wrap("lab", n.BatchMutate(ctx, labKeyspace, map[string]map[string][]engine.Mutation{key: muts, key + primerSuffix: primer}, engine.ONE))
	})
}

// ClearRow implements teaching.ColumnLab.
func (l *Lab) ClearRow(ctx context.Context, session, comparator string) error {
	key, err := labKey(session)
	if err != nil {
		return err
	}
	cf, _, ok := labCF(comparator)
	if !ok {
		return domain.Invalid("comparator", "%q is none of the six comparators", comparator)
	}
	return l.with(1, func(n *engine.Node) error {
		return widerow.Wrap("lab", n.Remove(ctx, labKeyspace, key, engine.ColumnPath{ColumnFamily: cf}, l.now(), engine.ONE))
	})
}

// labSlice is a checked get_slice of the lab: the row, the column family, its comparator and
// the bounds as the comparator reads them.
type labSlice struct {
	key, cf       string
	cmp           engine.Comparator
	start, finish []byte
	s             teaching.Slice
}

func newLabSlice(session, comparator string, s teaching.Slice) (labSlice, error) {
	key, err := labKey(session)
	if err != nil {
		return labSlice{}, err
	}
	cf, cmp, ok := labCF(comparator)
	if !ok {
		return labSlice{}, domain.Invalid("comparator", "%q is none of the six comparators", comparator)
	}
	if s.Count < 0 || s.Count > LabMaxRow {
		return labSlice{}, domain.Invalid("count", "must be from 0 to %d", LabMaxRow)
	}
	start, err := labName(cmp, s.Start)
	if err != nil {
		return labSlice{}, domain.Invalid("start", "%s", err)
	}
	finish, err := labName(cmp, s.Finish)
	if err != nil {
		return labSlice{}, domain.Invalid("finish", "%s", err)
	}
	return labSlice{key: key, cf: cf, cmp: cmp, start: start, finish: finish, s: s}, nil
}

// run runs the get_slice on n.
func (q labSlice) run(ctx context.Context, n *engine.Node) (teaching.LabSlice, error) {
	out := teaching.LabSlice{Call: fmt.Sprintf("get_slice(keyspace='Scratch', key='%s', column_parent=ColumnParent(column_family='%s'), predicate=SlicePredicate(slice_range=SliceRange(start=%s, finish=%s, reversed=%s, count=%d)), consistency_level=ONE)",
		q.key, q.cf, labBound(q.cmp, q.start), labBound(q.cmp, q.finish), pyBool(q.s.Reversed), q.s.Count)}
	cols, err := n.GetSlice(ctx, labKeyspace, q.key, engine.ColumnParent{ColumnFamily: q.cf},
		engine.SlicePredicate{SliceRange: &engine.SliceRange{Start: q.start, Finish: q.finish, Reversed: q.s.Reversed, Count: int32(q.s.Count)}}, engine.ONE)
	if errors.Is(err, engine.ErrInvalidRequest) {
		return out, domain.Invalid("", "%s", strings.TrimPrefix(err.Error(), "InvalidRequestException: "))
	}
	if err != nil {
		return out, widerow.Wrap("lab", err)
	}
	out.Names = labNames(q.cmp, cols)
	return out, nil
}

// Slice implements teaching.ColumnLab.
func (l *Lab) Slice(ctx context.Context, session, comparator string, s teaching.Slice) (teaching.LabSlice, error) {
	q, err := newLabSlice(session, comparator, s)
	if err != nil {
		return teaching.LabSlice{}, err
	}
	var out teaching.LabSlice
	err = l.with(0, func(n *engine.Node) error {
		out, err = q.run(ctx, n)
		return err
	})
	return out, err
}

// InsertSlice implements teaching.ColumnLab: one get_count of the comparator's row (the bound
// Insert holds every row to), one batch_mutate of the names the comparator takes, one
// get_slice.
func (l *Lab) InsertSlice(ctx context.Context, session, comparator string, names []string, value string, s teaching.Slice) (teaching.LabSlice, []string, error) {
	q, err := newLabSlice(session, comparator, s)
	if err != nil {
		return teaching.LabSlice{}, nil, err
	}
	if err := checkLabNames(names, value); err != nil {
		return teaching.LabSlice{}, nil, err
	}
	var out teaching.LabSlice
	var rejected []string
	err = l.with(len(names), func(n *engine.Node) error {
		held, err := n.GetCount(ctx, labKeyspace, q.key, engine.ColumnParent{ColumnFamily: q.cf}, engine.ONE)
		if err != nil {
			return widerow.Wrap("lab", err)
		}
		if held+len(names) > LabMaxRow {
			return domain.Invalid("names", "your lab row holds %d names and takes at most %d: clear it first", held, LabMaxRow)
		}
		ts := l.now()
		var muts []engine.Mutation
		for _, name := range names {
			b, err := labName(q.cmp, name)
			if err != nil {
				rejected = append(rejected, err.Error())
				continue
			}
			muts = append(muts, col(string(b), []byte(value), ts))
		}
		if len(muts) > 0 {
			if err := n.BatchMutate(ctx, labKeyspace, map[string]map[string][]engine.Mutation{q.key: {q.cf: muts}}, engine.ONE); err != nil {
				return widerow.Wrap("lab", err)
			}
		}
		out, err = q.run(ctx, n)
		return err
	})
	return out, rejected, err
}

// labBound writes a slice bound as a Python client would pass it: ” for none, a string for
// the text comparators, packed bytes for the others.
func labBound(cmp engine.Comparator, b []byte) string {
	switch {
	case len(b) == 0:
		return "''"
	case cmp == engine.LongType:
		name, _ := decodeName(cmp, b)
		return "struct.pack('>q', " + name + ")"
	case cmp == engine.LexicalUUIDType || cmp == engine.TimeUUIDType:
		name, _ := decodeName(cmp, b)
		return "UUID('" + name + "').bytes"
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(string(b)) + "'"
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// LastWriteWins implements teaching.ColumnLab.
func (l *Lab) LastWriteWins(ctx context.Context, session string, writes []teaching.LabWrite) (forward, reverse teaching.LabCell, err error) {
	key, err := labKey(session)
	if err != nil {
		return forward, reverse, err
	}
	if len(writes) == 0 || len(writes) > LabMaxWrites {
		return forward, reverse, domain.Invalid("writes", "give 1 to %d writes", LabMaxWrites)
	}
	for _, w := range writes {
		if w.Timestamp < 0 {
			return forward, reverse, domain.Invalid("timestamp", "must not be negative")
		}
		if len(w.Value) > LabMaxName {
			return forward, reverse, domain.Invalid("value", "must be at most %d bytes", LabMaxName)
		}
	}
	// Each run writes rows of its own: a tombstone of an earlier run must not hide this one's.
	run := fmt.Sprintf("%s/lww-%d", key, l.runs.Add(1))
	rev := make([]teaching.LabWrite, len(writes))
	for i, w := range writes {
		rev[len(writes)-1-i] = w
	}
	err = l.with(2*len(writes), func(n *engine.Node) error {
		var err error
		if forward, err = applyWrites(ctx, n, run+"a", writes); err != nil {
			return err
		}
		reverse, err = applyWrites(ctx, n, run+"b", rev)
		return err
	})
	return forward, reverse, err
}

// applyWrites applies the writes to the lab column of row, in order, then reads the column and
// the row's stored cells.
func applyWrites(ctx context.Context, n *engine.Node, row string, writes []teaching.LabWrite) (teaching.LabCell, error) {
	cell := teaching.LabCell{Key: row}
	path := engine.ColumnPath{ColumnFamily: "Bytes", Column: []byte(labColumn)}
	for _, w := range writes {
		var err error
		if w.Delete {
			err = n.Remove(ctx, labKeyspace, row, path, w.Timestamp, engine.ONE)
			cell.Calls = append(cell.Calls, fmt.Sprintf("remove(key='%s', column_path=ColumnPath('Bytes', column='%s'), timestamp=%d)", row, labColumn, w.Timestamp))
		} else {
			err = n.Insert(ctx, labKeyspace, row, path, []byte(w.Value), w.Timestamp, engine.ONE)
			cell.Calls = append(cell.Calls, fmt.Sprintf("insert(key='%s', column_path=ColumnPath('Bytes', column='%s'), value=%s, timestamp=%d)", row, labColumn, strconv.Quote(w.Value), w.Timestamp))
		}
		if err != nil {
			return cell, widerow.Wrap("lab", err)
		}
	}
	got, err := n.Get(ctx, labKeyspace, row, path, engine.ONE)
	switch {
	case err == nil && got.Column != nil:
		cell.Found, cell.Value, cell.TS = true, string(got.Column.Value), got.Column.Timestamp
	case err != nil && !errors.Is(err, engine.ErrNotFound):
		return cell, widerow.Wrap("lab", err)
	}
	in := Inspector{node: n}
	cell.Stored, err = in.StoredRow(ctx, labKeyspace, "Bytes", row, 10)
	return cell, err
}

func col(name string, value []byte, ts int64) engine.Mutation {
	return engine.Mutation{ColumnOrSuperColumn: &engine.ColumnOrSuperColumn{Column: &engine.Column{Name: []byte(name), Value: value, Timestamp: ts}}}
}

// all is a predicate of a row's first count columns.
func all(count int) engine.SlicePredicate {
	return engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: int32(count)}}
}
