package engine

import (
	"context"
	"strings"
	"testing"

	"twissandra/ports/oplog"
)

type lines []string

func (l *lines) Record(op oplog.Op) { *l = append(*l, op.Text) }

type records []oplog.Op

func (l *records) Record(op oplog.Op) { *l = append(*l, op) }

// Each call's record is structured too: kind, call, column family, keys, predicate, what it
// touched, and its time.
func TestCallsRecordStructure(t *testing.T) {
	n, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	var got records
	ctx := oplog.With(context.Background(), &got)
	if err := n.Insert(ctx, "Scratch", "r", ColumnPath{ColumnFamily: "Longs", Column: long(7)}, []byte("v"), 1, ONE); err != nil {
		t.Fatal(err)
	}
	if _, _, err := n.InsertIfAbsent(ctx, "Scratch", "r", ColumnParent{ColumnFamily: "Longs"}, Column{Name: long(8), Value: []byte("w"), Timestamp: 1}, ONE); err != nil {
		t.Fatal(err)
	}
	if _, err := n.GetSlice(ctx, "Scratch", "r", ColumnParent{ColumnFamily: "Longs"}, SlicePredicate{SliceRange: &SliceRange{Count: 5}}, ONE); err != nil {
		t.Fatal(err)
	}
	if _, err := n.MultigetSlice(ctx, "Scratch", []string{"r", "s"}, ColumnParent{ColumnFamily: "Longs"}, SlicePredicate{SliceRange: &SliceRange{Count: 5}}, ONE); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind         oplog.Kind
		call, family string
		keys         []string
		count        int
		touched      string
	}{
		{oplog.Write, "insert", "Scratch.Longs", []string{"['r']"}, 1, "applied"},
		{oplog.LWT, "insert_if_absent", "Scratch.Longs", []string{"['r']"}, 1, "applied"},
		{oplog.Read, "get_slice", "Scratch.Longs", []string{"['r']"}, 1, "2 columns"},
		{oplog.Read, "multiget_slice", "Scratch.Longs", []string{"['r']", "['s']"}, 2, "1 rows"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d records: %+v", len(got), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Model != "widerow" || g.Kind != w.kind || g.Call != w.call || g.Family != w.family || strings.Join(g.Keys, ",") != strings.Join(w.keys, ",") || g.KeyCount != w.count || g.Touched != w.touched || g.Took <= 0 || g.Text == "" {
			t.Errorf("record %d: %+v, want %+v", i, g, w)
		}
	}
}

// TestCallsRecordThemselves: with a recorder in the context every Thrift call leaves one line in
// the 0.6 API's words; without one, nothing is recorded and nothing breaks.
func TestCallsRecordThemselves(t *testing.T) {
	n, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	var got lines
	ctx := oplog.With(context.Background(), &got)
	m := map[string]map[string][]Mutation{}
	for _, k := range []string{"u1", "u2", "u3"} {
		m[k] = map[string][]Mutation{"Timeline": {{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &Column{Name: long(1273656000123456), Value: []byte("t"), Timestamp: 1}}}}}
	}
	m["u1"]["Userline"] = m["u1"]["Timeline"]
	if err := n.BatchMutate(ctx, "Twissandra", m, ONE); err != nil {
		t.Fatal(err)
	}
	if _, err := n.GetSlice(ctx, "Twissandra", "u1", ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Reversed: true, Count: 41}}, ONE); err != nil {
		t.Fatal(err)
	}
	if _, err := n.MultigetSlice(ctx, "Twissandra", []string{"u1", "u2", "nobody"}, ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, ONE); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Get(ctx, "Twissandra", "bob", ColumnPath{ColumnFamily: "Username", Column: []byte("id")}, ONE); err == nil {
		t.Fatal("Get of a missing column found something")
	}
	if ok, _, err := n.InsertIfAbsent(ctx, "Twissandra", "bob", ColumnParent{ColumnFamily: "Username"}, Column{Name: []byte("id"), Value: []byte("x"), Timestamp: 2}, QUORUM); err != nil || !ok {
		t.Fatal(ok, err)
	}
	want := []string{
		"batch_mutate Twissandra 3 keys, 4 rows (Timeline: 3 rows, Userline: 1 row) 4 mutations, one Pebble batch -> ok", // a row is a key in one column family
		"get_slice Twissandra.Timeline['u1'] reversed count=41 -> 1 columns",
		"multiget_slice Twissandra.Timeline 3 keys count=10 -> 2 rows",
		`get Twissandra.Username['bob']["id"] -> NotFound`,
		`insert_if_absent (an extension 0.6 lacked) Twissandra.Username['bob']["id"] -> applied`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("recorded:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// LongType bounds read as numbers.
	got = nil
	_, _ = n.GetSlice(ctx, "Twissandra", "u1", ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Start: long(99), Reversed: true, Count: 5}}, ONE)
	if len(got) != 1 || !strings.Contains(got[0], "start=99 count=5") {
		t.Fatalf("LongType bound rendered as %q", got)
	}
	// Without a recorder: nothing to record into, and the call works.
	if _, err := n.GetSlice(context.Background(), "Twissandra", "u1", ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Count: 1}}, ONE); err != nil {
		t.Fatal(err)
	}
}

// Each Thrift call's record names the ConsistencyLevel it carried, which the emulation
// applied; what no Thrift call does (a compaction) names none.
func TestCallsRecordTheirConsistencyLevel(t *testing.T) {
	n, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	var got records
	ctx := oplog.With(context.Background(), &got)
	if err := n.Insert(ctx, "Scratch", "r", ColumnPath{ColumnFamily: "Longs", Column: long(7)}, []byte("v"), 1, ALL); err != nil {
		t.Fatal(err)
	}
	if err := n.BatchMutate(ctx, "Scratch", map[string]map[string][]Mutation{"r": {"Longs": {{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &Column{Name: long(9), Value: []byte("x"), Timestamp: 2}}}}}}, ANY); err != nil {
		t.Fatal(err)
	}
	if _, err := n.GetSlice(ctx, "Scratch", "r", ColumnParent{ColumnFamily: "Longs"}, SlicePredicate{SliceRange: &SliceRange{Count: 5}}, QUORUM); err != nil {
		t.Fatal(err)
	}
	if _, err := n.MultigetSlice(ctx, "Scratch", []string{"r"}, ColumnParent{ColumnFamily: "Longs"}, SlicePredicate{SliceRange: &SliceRange{Count: 5}}, ONE); err != nil {
		t.Fatal(err)
	}
	if _, err := n.GetCount(ctx, "Scratch", "r", ColumnParent{ColumnFamily: "Longs"}, ALL); err != nil {
		t.Fatal(err)
	}
	if _, err := n.CompactRow(ctx, "Scratch", "Longs", "r", 0); err != nil {
		t.Fatal(err)
	}
	// Each names the tokens of the keys it shows, the partitioner's.
	for i, o := range got[:5] {
		if len(o.Tokens) != 1 || o.Tokens[0] != RandomPartitioner.Token("r") || len(o.Keys) != 1 {
			t.Errorf("record %d (%s): keys %q, tokens %q, want the token of 'r'", i, o.Text, o.Keys, o.Tokens)
		}
	}
	want := []string{"ALL", "ANY", "QUORUM", "ONE", "ALL", ""}
	if len(got) != len(want) {
		t.Fatalf("%d records: %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].Consistency != w || got[i].Coordinator != "" {
			t.Errorf("record %d (%s): consistency %q coordinator %q, want %q and none", i, got[i].Text, got[i].Consistency, got[i].Coordinator, w)
		}
	}
}
