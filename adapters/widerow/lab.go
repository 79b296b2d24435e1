package widerow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports"
)

// Lab is the comparator and slice lab (ports.ColumnLab) on its own in-memory engine node, with
// the Scratch keyspace of storage-conf.xml: one column family per comparator. It never touches
// the application's node, so it runs beside any backend.
type Lab struct {
	mu   sync.Mutex
	node *engine.Node
	rows int // rows written since the node was opened
}

// Lab bounds.
const (
	LabMaxNames  = 50
	LabMaxName   = 100
	LabMaxWrites = 4
	// labMaxRows reopens the scratch node empty after this many rows: the lab keeps no data
	// worth keeping, and a stream of distinct inputs must not grow it forever.
	labMaxRows  = 10000
	labKeyspace = "Scratch"
)

// labCFs are the comparators in the order the lab shows them, and their column families.
var labCFs = []struct{ cmp, cf string }{
	{"BytesType", "Bytes"}, {"AsciiType", "Ascii"}, {"UTF8Type", "UTF8s"},
	{"LongType", "Longs"}, {"LexicalUUIDType", "LexicalUUIDs"}, {"TimeUUIDType", "TimeUUIDs"},
}

// NewLab opens the lab's scratch node in memory.
func NewLab() (*Lab, error) {
	n, err := openLabNode()
	if err != nil {
		return nil, err
	}
	return &Lab{node: n}, nil
}

func openLabNode() (*engine.Node, error) {
	return engine.Open(engine.Options{CacheSize: 1 << 20, MemTableSize: 4 << 20, RowCacheSize: -1})
}

// Close closes the scratch node.
func (l *Lab) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.node.Close()
}

// use returns the node for one more row, reopening it empty when it has held too many.
func (l *Lab) use() (*engine.Node, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rows++
	if l.rows > labMaxRows {
		n, err := openLabNode()
		if err != nil {
			return nil, err
		}
		_ = l.node.Close()
		l.node, l.rows = n, 1
	}
	return l.node, nil
}

func labKey(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:8])
}

func checkLabNames(names []string) error {
	if len(names) == 0 || len(names) > LabMaxNames {
		return domain.Invalid("names", "give 1 to %d names", LabMaxNames)
	}
	for _, n := range names {
		if n == "" || len(n) > LabMaxName {
			return domain.Invalid("names", "each name must be 1 to %d bytes", LabMaxName)
		}
	}
	return nil
}

func labCF(cmp string) (string, engine.Comparator, bool) {
	for _, c := range labCFs {
		if c.cmp == cmp {
			k, _ := engine.ParseComparator(c.cmp)
			return c.cf, k, true
		}
	}
	return "", 0, false
}

// store inserts names into key's row of cf (one batch_mutate of the names the comparator
// accepts) and returns why it refused the others.
func (l *Lab) store(ctx context.Context, n *engine.Node, cf string, cmp engine.Comparator, key string, names []string) ([]string, error) {
	var rejected []string
	var muts []engine.Mutation
	for _, s := range names {
		b, err := parseBound(cmp, s)
		if err == nil {
			err = cmp.Validate(b)
		}
		if err != nil {
			rejected = append(rejected, fmt.Sprintf("%s refuses %q: %s", cmp, s, strings.TrimPrefix(err.Error(), "InvalidRequestException: ")))
			continue
		}
		muts = append(muts, col(string(b), []byte(s), 1))
	}
	if len(muts) == 0 {
		return rejected, nil
	}
	err := n.BatchMutate(ctx, labKeyspace, map[string]map[string][]engine.Mutation{key: {cf: muts}}, engine.ONE)
	return rejected, wrap("lab", err)
}

func labNames(cmp engine.Comparator, cols []engine.ColumnOrSuperColumn) []ports.LabName {
	out := make([]ports.LabName, 0, len(cols))
	for _, c := range cols {
		if c.Column == nil {
			continue
		}
		name, _ := decodeName(cmp, c.Column.Name)
		out = append(out, ports.LabName{Name: name, Encoded: "0x" + hex.EncodeToString(c.Column.Name)})
	}
	return out
}

// Order implements ports.ColumnLab.
func (l *Lab) Order(ctx context.Context, names []string) ([]ports.LabRow, error) {
	if err := checkLabNames(names); err != nil {
		return nil, err
	}
	n, err := l.use()
	if err != nil {
		return nil, err
	}
	key := labKey(names...)
	out := make([]ports.LabRow, 0, len(labCFs))
	for _, c := range labCFs {
		cf, cmp, _ := labCF(c.cmp)
		rejected, err := l.store(ctx, n, cf, cmp, key, names)
		if err != nil {
			return nil, err
		}
		cols, err := n.GetSlice(ctx, labKeyspace, key, engine.ColumnParent{ColumnFamily: cf}, all(LabMaxNames), engine.ONE)
		if err != nil {
			return nil, wrap("lab", err)
		}
		out = append(out, ports.LabRow{Comparator: c.cmp, ColumnFamily: cf, Names: labNames(cmp, cols), Rejected: rejected})
	}
	return out, nil
}

// Slice implements ports.ColumnLab.
func (l *Lab) Slice(ctx context.Context, names []string, comparator string, s ports.Slice) (ports.LabSlice, error) {
	if err := checkLabNames(names); err != nil {
		return ports.LabSlice{}, err
	}
	cf, cmp, ok := labCF(comparator)
	if !ok {
		return ports.LabSlice{}, domain.Invalid("comparator", "%q is none of the six comparators", comparator)
	}
	if s.Count < 1 || s.Count > LabMaxNames {
		return ports.LabSlice{}, domain.Invalid("count", "must be from 1 to %d", LabMaxNames)
	}
	start, err := parseBound(cmp, s.Start)
	if err != nil {
		return ports.LabSlice{}, domain.Invalid("start", "%s", err)
	}
	finish, err := parseBound(cmp, s.Finish)
	if err != nil {
		return ports.LabSlice{}, domain.Invalid("finish", "%s", err)
	}
	n, err := l.use()
	if err != nil {
		return ports.LabSlice{}, err
	}
	key := labKey(names...)
	if _, err := l.store(ctx, n, cf, cmp, key, names); err != nil {
		return ports.LabSlice{}, err
	}
	cols, err := n.GetSlice(ctx, labKeyspace, key, engine.ColumnParent{ColumnFamily: cf},
		engine.SlicePredicate{SliceRange: &engine.SliceRange{Start: start, Finish: finish, Reversed: s.Reversed, Count: int32(s.Count)}}, engine.ONE)
	if err != nil {
		return ports.LabSlice{}, fmt.Errorf("%w: %s", domain.ErrInvalid, strings.TrimPrefix(err.Error(), "InvalidRequestException: "))
	}
	call := fmt.Sprintf("get_slice(keyspace='Scratch', key='%s', column_parent=ColumnParent(column_family='%s'), predicate=SlicePredicate(slice_range=SliceRange(start=%s, finish=%s, reversed=%v, count=%d)))",
		key, cf, labBound(start), labBound(finish), s.Reversed, s.Count)
	return ports.LabSlice{Call: call, Names: labNames(cmp, cols)}, nil
}

func labBound(b []byte) string {
	if len(b) == 0 {
		return "''"
	}
	return "0x" + hex.EncodeToString(b)
}

// LastWriteWins implements ports.ColumnLab.
func (l *Lab) LastWriteWins(ctx context.Context, writes []ports.LabWrite) (forward, reverse ports.LabCell, err error) {
	if len(writes) == 0 || len(writes) > LabMaxWrites {
		return forward, reverse, domain.Invalid("writes", "give 1 to %d writes", LabMaxWrites)
	}
	parts := []string{"lww"}
	for _, w := range writes {
		if w.Timestamp < 0 {
			return forward, reverse, domain.Invalid("timestamp", "must not be negative")
		}
		if len(w.Value) > LabMaxName {
			return forward, reverse, domain.Invalid("value", "must be at most %d bytes", LabMaxName)
		}
		parts = append(parts, fmt.Sprint(w.Delete, w.Timestamp, w.Value))
	}
	n, err := l.use()
	if err != nil {
		return forward, reverse, err
	}
	key := labKey(parts...)
	apply := func(row string, order []ports.LabWrite) (ports.LabCell, error) {
		path := engine.ColumnPath{ColumnFamily: "Bytes", Column: []byte("name")}
		for _, w := range order {
			var err error
			if w.Delete {
				err = n.Remove(ctx, labKeyspace, row, path, w.Timestamp, engine.ONE)
			} else {
				err = n.Insert(ctx, labKeyspace, row, path, []byte(w.Value), w.Timestamp, engine.ONE)
			}
			if err != nil {
				return ports.LabCell{}, wrap("lab", err)
			}
		}
		var cell ports.LabCell
		got, err := n.Get(ctx, labKeyspace, row, path, engine.ONE)
		switch {
		case err == nil && got.Column != nil:
			cell.Found, cell.Value, cell.TS = true, string(got.Column.Value), got.Column.Timestamp
		case err != nil && !errors.Is(err, engine.ErrNotFound):
			return cell, wrap("lab", err)
		}
		in := Inspector{node: n}
		cell.Stored, err = in.StoredRow(ctx, labKeyspace, "Bytes", row, 10)
		return cell, err
	}
	if forward, err = apply(key+"-a", writes); err != nil {
		return forward, reverse, err
	}
	rev := make([]ports.LabWrite, len(writes))
	for i, w := range writes {
		rev[len(writes)-1-i] = w
	}
	reverse, err = apply(key+"-b", rev)
	return forward, reverse, err
}
