package engine

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"twissandra/ports/oplog"
)

// Every Thrift call records itself, in the words of the 0.6 API, into the request's operations
// log when the context carries one (package oplog), so a page can show what an action cost in
// this model: "get_slice Twissandra.Timeline['…'] reversed count=41 -> 40 columns". Without a
// log a call pays one context lookup.

// maxShownKey bounds how much of a row key an operation line shows.
const maxShownKey = 40

func (n *Node) cfOf(keyspace, cf string) *cfInfo {
	info, _ := n.columnFamily(keyspace, cf)
	return info
}

// showName renders a column name as its comparator reads it.
func showName(cf *cfInfo, sub bool, b []byte) string {
	if len(b) == 0 {
		return "''"
	}
	c := BytesType
	if cf != nil {
		c = cf.cmp
		if sub {
			c = cf.sub
		}
	}
	switch c {
	case LongType:
		if len(b) == 8 {
			return strconv.FormatInt(int64(binary.BigEndian.Uint64(b)), 10)
		}
	case LexicalUUIDType, TimeUUIDType:
		if u, err := uuid.FromBytes(b); err == nil {
			return u.String()
		}
	case UTF8Type, AsciiType:
		if utf8.Valid(b) {
			return strconv.Quote(string(b))
		}
	}
	if utf8.Valid(b) && isPrintable(b) {
		return strconv.Quote(string(b))
	}
	return "0x" + hex.EncodeToString(b)
}

func isPrintable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

func showKey(key string) string {
	if len(key) > maxShownKey {
		key = key[:maxShownKey] + "…"
	}
	return "['" + key + "']"
}

func showParent(cf *cfInfo, keyspace string, parent ColumnParent) string {
	s := keyspace + "." + parent.ColumnFamily
	if len(parent.SuperColumn) > 0 {
		s += "[" + showName(cf, false, parent.SuperColumn) + "]"
	}
	return s
}

func showPredicate(cf *cfInfo, parent ColumnParent, p SlicePredicate) string {
	sub := len(parent.SuperColumn) > 0
	if p.ColumnNames != nil {
		names := make([]string, 0, min(len(p.ColumnNames), 4))
		for i, nm := range p.ColumnNames {
			if i == 3 {
				names = append(names, fmt.Sprintf("… %d names", len(p.ColumnNames)))
				break
			}
			names = append(names, showName(cf, sub, nm))
		}
		return "names=[" + strings.Join(names, ",") + "]"
	}
	r := p.SliceRange
	if r == nil {
		return ""
	}
	// Built by hand, not with fmt: every slice of a page is described (the footer lists it).
	b := make([]byte, 0, 48)
	if r.Reversed {
		b = append(b, "reversed "...)
	}
	if len(r.Start) > 0 {
		b = append(append(append(b, "start="...), showName(cf, sub, r.Start)...), ' ')
	}
	if len(r.Finish) > 0 {
		b = append(append(append(b, "finish="...), showName(cf, sub, r.Finish)...), ' ')
	}
	b = strconv.AppendInt(append(b, "count="...), int64(r.Count), 10)
	return string(b)
}

func outcome(err error, n int, what string) string {
	if err != nil {
		if _, ok := err.(*NotFoundError); ok {
			return "NotFound"
		}
		return "error"
	}
	return strconv.Itoa(n) + " " + what
}

// brief records the call alone when ctx's recorder only counts (oplog.Detailed), and reports
// whether it did: the callers describe the call in full otherwise.
func brief(ctx context.Context, kind oplog.Kind, call string) bool {
	if oplog.Detailed(ctx) {
		return false
	}
	oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: kind, Call: call})
	return true
}

// op is the record of one call; the model is this one, and cl the ConsistencyLevel the call
// carried, which the emulation applies (one node: every level but ZERO and ANY is that node's
// answer).
func op(kind oplog.Kind, call, family string, keys []string, keyCount int, pred, touched string, start time.Time, cl ConsistencyLevel, text string) oplog.Op {
	return oplog.Op{Model: "widerow", Kind: kind, Call: call, Family: family, Keys: oplog.KeysOf(keys), KeyCount: keyCount,
		Predicate: pred, Touched: touched, Took: time.Since(start), Consistency: clName(cl), Text: text}
}

// tokens sets o.Tokens to the partitioner's tokens of raw, the row keys o.Keys shows.
func (n *Node) tokens(o oplog.Op, raw ...string) oplog.Op {
	o.Tokens = make([]string, len(raw))
	for i, k := range raw {
		o.Tokens[i] = n.partitioner.Token(k)
	}
	return o
}

// noCall is the consistency level of what no Thrift call does (a compaction, the inspector's
// scan of stored cells): it carries none.
const noCall ConsistencyLevel = -1

func clName(cl ConsistencyLevel) string {
	if cl == noCall {
		return ""
	}
	return cl.String()
}

func (n *Node) recordSlice(ctx context.Context, start time.Time, cl ConsistencyLevel, keyspace, key string, parent ColumnParent, pred SlicePredicate, got int, err error) {
	if brief(ctx, oplog.Read, "get_slice") {
		return
	}
	cf := n.cfOf(keyspace, parent.ColumnFamily)
	n.recordSliceAs(ctx, start, cl, keyspace, key, cf, parent, showPredicate(cf, parent, pred), got, err)
}

// recordSliceAs records a get_slice whose predicate reads as p.
func (n *Node) recordSliceAs(ctx context.Context, start time.Time, cl ConsistencyLevel, keyspace, key string, cf *cfInfo, parent ColumnParent, p string, got int, err error) {
	family, touched := showParent(cf, keyspace, ColumnParent{ColumnFamily: parent.ColumnFamily}), outcome(err, got, "columns")
	oplog.Record(ctx, n.tokens(op(oplog.Read, "get_slice", keyspace+"."+parent.ColumnFamily, []string{showKey(key)}, 1, p, touched, start, cl,
		"get_slice "+family+showKey(key)+superSuffix(cf, parent)+" "+p+" -> "+touched), key))
}

func superSuffix(cf *cfInfo, parent ColumnParent) string {
	if len(parent.SuperColumn) == 0 {
		return ""
	}
	return "[" + showName(cf, false, parent.SuperColumn) + "]"
}

func (n *Node) recordMultiget(ctx context.Context, start time.Time, cl ConsistencyLevel, keyspace string, keys []string, parent ColumnParent, pred SlicePredicate, res [][]ColumnOrSuperColumn, err error) {
	if brief(ctx, oplog.Read, "multiget_slice") {
		return
	}
	cf := n.cfOf(keyspace, parent.ColumnFamily)
	rows := 0
	for _, cols := range res {
		if len(cols) > 0 {
			rows++
		}
	}
	p, touched := showPredicate(cf, parent, pred), outcome(err, rows, "rows")
	shown := make([]string, 0, min(len(keys), oplog.MaxKeys))
	for _, k := range keys[:min(len(keys), oplog.MaxKeys)] {
		shown = append(shown, showKey(k))
	}
	oplog.Record(ctx, n.tokens(op(oplog.Read, "multiget_slice", keyspace+"."+parent.ColumnFamily, shown, len(keys), p, touched, start, cl,
		"multiget_slice "+showParent(cf, keyspace, parent)+" "+strconv.Itoa(len(keys))+" keys "+p+" -> "+touched), keys[:len(shown)]...))
}

func (n *Node) recordPath(ctx context.Context, start time.Time, cl ConsistencyLevel, call, keyspace, key string, path ColumnPath, result string) {
	verb, _, _ := strings.Cut(call, " ")
	kind := oplog.Read
	switch verb {
	case "insert", "remove":
		kind = oplog.Write
	case "insert_if_absent", "compare_and_set":
		kind = oplog.LWT
	}
	if brief(ctx, kind, verb) {
		return
	}
	cf := n.cfOf(keyspace, path.ColumnFamily)
	s := keyspace + "." + path.ColumnFamily + showKey(key)
	if len(path.SuperColumn) > 0 {
		s += "[" + showName(cf, false, path.SuperColumn) + "]"
	}
	if len(path.Column) > 0 {
		s += "[" + showName(cf, len(path.SuperColumn) > 0, path.Column) + "]"
	}
	line := call + " " + s
	if result != "" {
		line += " -> " + result
	}
	oplog.Record(ctx, n.tokens(op(kind, verb, keyspace+"."+path.ColumnFamily, []string{showKey(key)}, 1, strings.TrimPrefix(s, keyspace+"."+path.ColumnFamily+showKey(key)), result, start, cl, line), key))
}

func (n *Node) recordBatch(ctx context.Context, start time.Time, cl ConsistencyLevel, keyspace string, m map[string]map[string][]Mutation, err error) {
	n.recordRows(ctx, start, cl, keyspace, nil, 0, m, err)
}

// recordRows records a batch_mutate of the mutations of m and, when set is not nil, of a list
// of setMuts mutations into every row of set (BatchMutateRows).
func (n *Node) recordRows(ctx context.Context, start time.Time, cl ConsistencyLevel, keyspace string, set *RowSet, setMuts int, m map[string]map[string][]Mutation, err error) {
	if brief(ctx, oplog.Write, "batch_mutate") {
		return
	}
	// A row is a key in one column family: a key written in two is two rows.
	perCF := map[string]int{}
	muts, keyCount, rows := 0, len(m), 0
	for _, byCF := range m {
		for cf, ms := range byCF {
			perCF[cf]++
			rows++
			muts += len(ms)
		}
	}
	raw := make([]string, 0, min(len(m), oplog.MaxKeys))
	for k := range m {
		if len(raw) == oplog.MaxKeys {
			break
		}
		raw = append(raw, k)
	}
	if set != nil && set.Len() > 0 {
		perCF[set.cf.name] += set.Len()
		muts += setMuts * set.Len()
		rows += set.Len()
		for i := range set.Len() {
			k := set.key(i)
			if _, ok := m[k]; !ok {
				keyCount++
			}
			if len(raw) < oplog.MaxKeys {
				raw = append(raw, k)
			}
		}
	}
	cfs := make([]string, 0, len(perCF))
	for cf, rows := range perCF {
		cfs = append(cfs, fmt.Sprintf("%s: %s", cf, plural(rows, "row", "rows")))
	}
	sort.Strings(cfs)
	result := "ok"
	if err != nil {
		result = "error"
	}
	sort.Slice(raw, func(i, j int) bool { return showKey(raw[i]) < showKey(raw[j]) })
	keys := make([]string, len(raw))
	for i, k := range raw {
		keys[i] = showKey(k)
	}
	oplog.Record(ctx, n.tokens(op(oplog.Write, "batch_mutate", keyspace+" ("+strings.Join(cfs, ", ")+")", keys, keyCount, "", fmt.Sprintf("%d mutations", muts), start, cl,
		fmt.Sprintf("batch_mutate %s %s, %s (%s) %d mutations, one Pebble batch -> %s", keyspace, plural(keyCount, "key", "keys"), plural(rows, "row", "rows"), strings.Join(cfs, ", "), muts, result)), raw...))
}

// recordScan records RowStats's pass over a column family's stored cells: the rows and the
// cells (tombstones included) it read, and whether it stopped at its bound.
func (n *Node) recordScan(ctx context.Context, start time.Time, keyspace, cf string, maxCells int, rows []RowStat, capped bool, err error) {
	if brief(ctx, oplog.Read, "scan") {
		return
	}
	cells := 0
	for _, r := range rows {
		cells += r.Cells
	}
	touched := fmt.Sprintf("%d rows, %d cells", len(rows), cells)
	switch {
	case err != nil:
		touched = "error"
	case capped:
		touched += " (stopped at the bound)"
	}
	pred := "every stored cell, tombstones included, at most " + strconv.Itoa(maxCells)
	oplog.Record(ctx, op(oplog.Read, "scan", keyspace+"."+cf, nil, 0, pred, touched, start, noCall,
		"scan "+keyspace+"."+cf+" ("+pred+") -> "+touched))
}

func appliedWord(ok bool, err error) string {
	switch {
	case err != nil:
		return "error"
	case ok:
		return "applied"
	}
	return "not applied"
}

// plural is n and the word for one or for many: "1 row", "3 rows".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
