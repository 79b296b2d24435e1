package engine

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"twissandra/ports/oplog"
)

// Reference section 1: comparators.

func TestComparatorValidation(t *testing.T) {
	t.Parallel()
	v1 := mustUUID("00000000-0000-1000-8000-000000000001")
	v4 := mustUUID("00000000-0000-4000-8000-000000000001")
	tests := []struct {
		c    Comparator
		name []byte
		why  string // "" = valid
	}{
		{BytesType, []byte{0xff, 0}, ""},
		{AsciiType, []byte{0xff}, ""},
		{UTF8Type, []byte("héllo"), ""},
		{UTF8Type, []byte{0xff, 'a'}, "invalid UTF8 bytes [-1, 97]"},
		{LongType, long(7), ""},
		{LongType, nil, ""},
		{LongType, []byte("123"), "A long is exactly 8 bytes"},
		{LexicalUUIDType, v4, ""},
		{LexicalUUIDType, []byte("short"), "UUIDs must be exactly 16 bytes"},
		{TimeUUIDType, v1, ""},
		{TimeUUIDType, nil, ""},
		{TimeUUIDType, []byte("short"), "UUIDs must be exactly 16 bytes"},
		{TimeUUIDType, v4, "TimeUUID only makes sense with version 1 UUIDs"},
	}
	for _, tt := range tests {
		err := tt.c.Validate(tt.name)
		if tt.why == "" {
			if err != nil {
				t.Errorf("%v.Validate(%x) = %v", tt.c, tt.name, err)
			}
			continue
		}
		wantInvalid(t, err, tt.why)
	}
}

var (
	uuidA = mustUUID("00000000-0000-1000-8000-000000000001")
	uuidB = mustUUID("80000000-0000-1000-8000-000000000000")
	uuidC = mustUUID("ffffffff-0000-1000-8000-000000000000")
	uuidD = mustUUID("00000000-0000-1001-8000-000000000000")
)

// orderVectors are the reference's ordering vectors: inserted in the given
// order, each must slice back in want order.
func orderVectors() []struct {
	name string
	cf   string
	in   [][]byte
	want [][]byte
} {
	longs := func(vs ...int64) [][]byte {
		out := make([][]byte, len(vs))
		for i, v := range vs {
			out[i] = long(v)
		}
		return out
	}
	strs := func(vs ...string) [][]byte {
		out := make([][]byte, len(vs))
		for i, v := range vs {
			out[i] = []byte(v)
		}
		return out
	}
	abcd := [][]byte{uuidA, uuidB, uuidC, uuidD}
	return []struct {
		name string
		cf   string
		in   [][]byte
		want [][]byte
	}{
		{"LongType signed", "Longs", longs(3, 123, 976, 832416, -1, 0), longs(-1, 0, 3, 123, 976, 832416)},
		{"BytesType on longs", "Bytes", longs(3, 123, 976, 832416, -1, 0), longs(0, 3, 123, 976, 832416, -1)},
		{"seed article LongType", "Longs", longs(123, 832416, 3, 976), longs(3, 123, 976, 832416)},
		{"seed article UTF8Type", "UTF8s", strs("123", "832416", "3", "976"), strs("123", "3", "832416", "976")},
		{"UTF8 code point order", "UTF8s", strs("\U0001F600", "\uFF61"), strs("\uFF61", "\U0001F600")},
		{"AsciiType byte order", "Ascii", strs("b", "ab", "a"), strs("a", "ab", "b")},
		{"BytesType prefix first", "Bytes", strs("ab", "a\x00", "a"), strs("a", "a\x00", "ab")},
		{"TimeUUIDType", "TimeUUIDs", abcd, [][]byte{uuidA, uuidB, uuidC, uuidD}},
		{"LexicalUUIDType", "LexicalUUIDs", abcd, [][]byte{uuidB, uuidC, uuidA, uuidD}},
		{"BytesType on UUIDs", "Bytes", abcd, [][]byte{uuidA, uuidD, uuidB, uuidC}},
	}
}

func TestComparatorOrders(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		for i, v := range orderVectors() {
			t.Run(v.name, func(t *testing.T) {
				key := fmt.Sprintf("row%d", i)
				for _, name := range v.in {
					insert(t, n, "Scratch", v.cf, key, nil, name, "x", 1)
				}
				want := make([]string, len(v.want))
				for j, w := range v.want {
					want[j] = string(w)
				}
				got := sliceNames(t, n, "Scratch", v.cf, key, nil, SliceRange{Count: 100})
				if !equalStrings(got, want) {
					t.Fatalf("forward: got %q, want %q", got, want)
				}
				rev := sliceNames(t, n, "Scratch", v.cf, key, nil, SliceRange{Reversed: true, Count: 100})
				for j := range want {
					if rev[j] != want[len(want)-1-j] {
						t.Fatalf("reversed: got %q", rev)
					}
				}
				// The reference comparator agrees.
				cf, _ := n.columnFamily("Scratch", v.cf)
				for j := 1; j < len(v.want); j++ {
					if cf.cmp.Compare(v.want[j-1], v.want[j]) >= 0 {
						t.Fatalf("%v.Compare disagrees at %d", cf.cmp, j)
					}
				}
			})
		}
	})
}

// Reference section 2: reads.

func fillAtoE(t *testing.T, n *Node, key string) {
	for _, c := range []string{"a", "b", "c", "d", "e"} {
		insert(t, n, "Scratch", "Bytes", key, nil, []byte(c), "v"+c, 1)
	}
}

func TestSliceVectors(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		fillAtoE(t, n, "r")
		b := func(s string) []byte { return []byte(s) }
		tests := []struct {
			name string
			sr   SliceRange
			want []string
			why  string
		}{
			{"b..d", SliceRange{Start: b("b"), Finish: b("d"), Count: 100}, []string{"b", "c", "d"}, ""},
			{"reversed from end count 2", SliceRange{Reversed: true, Count: 2}, []string{"e", "d"}, ""},
			{"reversed d..b", SliceRange{Start: b("d"), Finish: b("b"), Reversed: true, Count: 100}, []string{"d", "c", "b"}, ""},
			{"forward d..b invalid", SliceRange{Start: b("d"), Finish: b("b"), Count: 100}, nil, "range finish must come after start in the order of traversal"},
			{"reversed b..d invalid", SliceRange{Start: b("b"), Finish: b("d"), Reversed: true, Count: 100}, nil, "range finish must come after start in the order of traversal"},
			{"negative count", SliceRange{Count: -1}, nil, "get_slice requires non-negative count"},
			{"count 0", SliceRange{Count: 0}, []string{}, ""},
			{"all", SliceRange{Count: 100}, []string{"a", "b", "c", "d", "e"}, ""},
			{"start only", SliceRange{Start: b("c"), Count: 100}, []string{"c", "d", "e"}, ""},
			{"finish only", SliceRange{Finish: b("b"), Count: 100}, []string{"a", "b"}, ""},
			{"bounds between names", SliceRange{Start: b("bb"), Finish: b("dd"), Count: 100}, []string{"c", "d"}, ""},
			{"reversed bounds between names", SliceRange{Start: b("dd"), Finish: b("bb"), Reversed: true, Count: 100}, []string{"d", "c"}, ""},
			{"reversed finish only", SliceRange{Finish: b("d"), Reversed: true, Count: 100}, []string{"e", "d"}, ""},
			{"start past end", SliceRange{Start: b("f"), Count: 100}, []string{}, ""},
		}
		for _, tt := range tests {
			res, err := n.GetSlice(bg, "Scratch", "r", ColumnParent{ColumnFamily: "Bytes"}, SlicePredicate{SliceRange: &tt.sr}, ONE)
			if tt.why != "" {
				wantInvalid(t, err, tt.why)
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if got := names(res); !equalStrings(got, tt.want) {
				t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
			}
			sameAsEach(t, n, "Scratch", "r", ColumnParent{ColumnFamily: "Bytes"}, SlicePredicate{SliceRange: &tt.sr}, res)
		}
		// After deleting c, count counts live columns only.
		if err := n.Remove(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes", Column: b("c")}, 2, ONE); err != nil {
			t.Fatal(err)
		}
		if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, SliceRange{Count: 3}); !equalStrings(got, []string{"a", "b", "d"}) {
			t.Fatalf("after delete c: %q", got)
		}
		if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, SliceRange{Reversed: true, Start: b("d"), Count: 2}); !equalStrings(got, []string{"d", "b"}) {
			t.Fatalf("reversed after delete c: %q", got)
		}
		pred := SlicePredicate{SliceRange: &SliceRange{Reversed: true, Count: 10}}
		res, err := n.GetSlice(bg, "Scratch", "r", ColumnParent{ColumnFamily: "Bytes"}, pred, ONE)
		if err != nil {
			t.Fatal(err)
		}
		sameAsEach(t, n, "Scratch", "r", ColumnParent{ColumnFamily: "Bytes"}, pred, res) // past the tombstone
		if c, err := n.GetCount(bg, "Scratch", "r", ColumnParent{ColumnFamily: "Bytes"}, ONE); err != nil || c != 4 {
			t.Fatalf("GetCount = %d, %v; want 4", c, err)
		}
		res, err = n.GetSlice(bg, "Scratch", "r", ColumnParent{ColumnFamily: "Bytes"}, SlicePredicate{SliceRange: &SliceRange{Start: b("a"), Finish: b("a"), Count: 1}}, ONE)
		if err != nil || len(res) != 1 || string(res[0].Column.Value) != "va" || res[0].Column.Timestamp != 1 {
			t.Fatalf("value/timestamp: %+v %v", res, err)
		}
	})
}

func TestColumnNamesPredicate(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		fillAtoE(t, n, "r")
		pred := SlicePredicate{ColumnNames: [][]byte{[]byte("e"), []byte("zz"), []byte("a"), []byte("c"), []byte("a")}}
		res, err := n.GetSlice(bg, "Scratch", "r", ColumnParent{ColumnFamily: "Bytes"}, pred, ONE)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(res); !equalStrings(got, []string{"a", "c", "e"}) {
			t.Fatalf("got %q", got)
		}
		// LongType: comparator order, not request order.
		for _, v := range []int64{5, -5, 50} {
			insert(t, n, "Scratch", "Longs", "r", nil, long(v), "x", 1)
		}
		res, err = n.GetSlice(bg, "Scratch", "r", ColumnParent{ColumnFamily: "Longs"}, SlicePredicate{ColumnNames: [][]byte{long(50), long(-5), long(7)}}, ONE)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(res); !equalStrings(got, []string{string(long(-5)), string(long(50))}) {
			t.Fatalf("got %x", got)
		}
	})
}

func TestGetMultigetCount(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		fillAtoE(t, n, "r")
		got, err := n.Get(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes", Column: []byte("b")}, QUORUM)
		if err != nil || string(got.Column.Value) != "vb" {
			t.Fatalf("Get = %+v, %v", got, err)
		}
		_, err = n.Get(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes", Column: []byte("zz")}, ONE)
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get missing: %v", err)
		}
		var nf *NotFoundError
		if !errors.As(err, &nf) {
			t.Fatalf("errors.As NotFoundError: %v", err)
		}
		_, err = n.Get(bg, "Scratch", "nobody", ColumnPath{ColumnFamily: "Bytes", Column: []byte("a")}, ONE)
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get missing row: %v", err)
		}
		if res, err := n.GetSlice(bg, "Scratch", "nobody", ColumnParent{ColumnFamily: "Bytes"}, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, ONE); err != nil || len(res) != 0 {
			t.Fatalf("GetSlice missing row = %v, %v", res, err)
		}
		m, err := n.MultigetSlice(bg, "Scratch", []string{"r", "nobody"}, ColumnParent{ColumnFamily: "Bytes"}, SlicePredicate{SliceRange: &SliceRange{Count: 2}}, ALL)
		if err != nil {
			t.Fatal(err)
		}
		if len(m) != 2 || !equalStrings(names(m["r"]), []string{"a", "b"}) || m["nobody"] == nil || len(m["nobody"]) != 0 {
			t.Fatalf("MultigetSlice = %v", m)
		}
		if c, err := n.GetCount(bg, "Scratch", "nobody", ColumnParent{ColumnFamily: "Bytes"}, ONE); err != nil || c != 0 {
			t.Fatalf("GetCount missing = %d, %v", c, err)
		}
	})
}

// Reference section 4: timestamps and deletion.

func TestTimestampVectors(t *testing.T) {
	type op struct {
		del   bool
		value string
		ts    int64
	}
	tests := []struct {
		name string
		ops  []op
		want string // "" = absent
	}{
		{"higher timestamp wins", []op{{false, "a", 10}, {false, "b", 9}}, "a"},
		{"later higher wins", []op{{false, "a", 9}, {false, "b", 10}}, "b"},
		{"tie: larger value wins", []op{{false, "a", 10}, {false, "b", 10}}, "b"},
		{"tie: larger value wins in any order", []op{{false, "b", 10}, {false, "a", 10}}, "b"},
		{"tie: tombstone wins", []op{{true, "", 10}, {false, "a", 10}}, ""},
		{"tie: tombstone wins after insert", []op{{false, "a", 10}, {true, "", 10}}, ""},
		{"newer insert after delete", []op{{true, "", 10}, {false, "a", 10}, {false, "a", 11}}, "a"},
		{"older delete loses", []op{{false, "a", 10}, {true, "", 9}}, "a"},
	}
	stores(t, func(t *testing.T, n *Node) {
		for i, tt := range tests {
			key := fmt.Sprintf("ts%d", i)
			path := ColumnPath{ColumnFamily: "Bytes", Column: []byte("c")}
			for _, o := range tt.ops {
				var err error
				if o.del {
					err = n.Remove(bg, "Scratch", key, path, o.ts, ONE)
				} else {
					err = n.Insert(bg, "Scratch", key, path, []byte(o.value), o.ts, ONE)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			got, err := n.Get(bg, "Scratch", key, path, ONE)
			switch {
			case tt.want == "" && !errors.Is(err, ErrNotFound):
				t.Errorf("%s: got %+v, %v; want NotFound", tt.name, got, err)
			case tt.want != "" && (err != nil || string(got.Column.Value) != tt.want):
				t.Errorf("%s: got %+v, %v; want %q", tt.name, got, err, tt.want)
			}
		}
	})
}

func TestRowDeleteHidesOlderWrites(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		insert(t, n, "Scratch", "Bytes", "r", nil, []byte("a"), "1", 5)
		insert(t, n, "Scratch", "Bytes", "r", nil, []byte("b"), "1", 15)
		if err := n.Remove(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes"}, 10, ONE); err != nil {
			t.Fatal(err)
		}
		// Written after the delete, but with older timestamps: hidden.
		insert(t, n, "Scratch", "Bytes", "r", nil, []byte("c"), "1", 9)
		insert(t, n, "Scratch", "Bytes", "r", nil, []byte("d"), "1", 10)
		insert(t, n, "Scratch", "Bytes", "r", nil, []byte("e"), "1", 11)
		if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, SliceRange{Count: 100}); !equalStrings(got, []string{"b", "e"}) {
			t.Fatalf("got %q, want [b e]", got)
		}
		// An older row delete does not undo the newer one.
		if err := n.Remove(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes"}, 3, ONE); err != nil {
			t.Fatal(err)
		}
		insert(t, n, "Scratch", "Bytes", "r", nil, []byte("a"), "1", 7)
		if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, SliceRange{Reversed: true, Count: 100}); !equalStrings(got, []string{"e", "b"}) {
			t.Fatalf("got %q, want [e b]", got)
		}
	})
}

// Reference section 3: super column families.

func TestSuperColumnFamily(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		const ks, cf = "BloggyAppy", "Comments"
		sc := [][]byte{uuidA, uuidB, uuidC, uuidD} // TimeUUID order A,B,C,D
		for i, s := range []int{2, 0, 3, 1} {      // inserted out of order
			for _, sub := range []string{"commenter", "body", "email"} {
				insert(t, n, ks, cf, "post", sc[s], []byte(sub), fmt.Sprintf("%s%d", sub, s), int64(10+i))
			}
		}
		parent := ColumnParent{ColumnFamily: cf}
		res, err := n.GetSlice(bg, ks, "post", parent, SlicePredicate{SliceRange: &SliceRange{Count: 100}}, ONE)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{string(uuidA), string(uuidB), string(uuidC), string(uuidD)}
		if got := names(res); !equalStrings(got, want) {
			t.Fatalf("super columns: %x", got)
		}
		for _, r := range res {
			if got := colNames(r.SuperColumn.Columns); !equalStrings(got, []string{"body", "commenter", "email"}) {
				t.Fatalf("subcolumns: %q", got)
			}
		}
		// Reversed reverses only the super column list.
		res, err = n.GetSlice(bg, ks, "post", parent, SlicePredicate{SliceRange: &SliceRange{Reversed: true, Count: 3}}, ONE)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(res); !equalStrings(got, []string{want[3], want[2], want[1]}) {
			t.Fatalf("reversed: %x", got)
		}
		for _, r := range res {
			if got := colNames(r.SuperColumn.Columns); !equalStrings(got, []string{"body", "commenter", "email"}) {
				t.Fatalf("reversed subcolumns: %q", got)
			}
		}
		// Reversed with bounds.
		res, _ = n.GetSlice(bg, ks, "post", parent, SlicePredicate{SliceRange: &SliceRange{Start: uuidC, Finish: uuidB, Reversed: true, Count: 10}}, ONE)
		if got := names(res); !equalStrings(got, []string{want[2], want[1]}) {
			t.Fatalf("reversed C..B: %x", got)
		}
		// Slicing inside one super column walks its subcolumns.
		got := sliceNames(t, n, ks, cf, "post", uuidB, SliceRange{Reversed: true, Count: 2})
		if !equalStrings(got, []string{"email", "commenter"}) {
			t.Fatalf("inside super column: %q", got)
		}
		// Get one subcolumn and one whole super column.
		c, err := n.Get(bg, ks, "post", ColumnPath{ColumnFamily: cf, SuperColumn: uuidC, Column: []byte("body")}, ONE)
		if err != nil || string(c.Column.Value) != "body2" {
			t.Fatalf("Get subcolumn: %+v %v", c, err)
		}
		c, err = n.Get(bg, ks, "post", ColumnPath{ColumnFamily: cf, SuperColumn: uuidC}, ONE)
		if err != nil || c.SuperColumn == nil || len(c.SuperColumn.Columns) != 3 || string(c.SuperColumn.Name) != string(uuidC) {
			t.Fatalf("Get super column: %+v %v", c, err)
		}
		// Remove one subcolumn, then a whole super column.
		if err := n.Remove(bg, ks, "post", ColumnPath{ColumnFamily: cf, SuperColumn: uuidA, Column: []byte("email")}, 100, ONE); err != nil {
			t.Fatal(err)
		}
		if err := n.Remove(bg, ks, "post", ColumnPath{ColumnFamily: cf, SuperColumn: uuidB}, 100, ONE); err != nil {
			t.Fatal(err)
		}
		// A subcolumn written later with an older timestamp stays hidden;
		// a newer one is visible.
		insert(t, n, ks, cf, "post", uuidB, []byte("late"), "x", 99)
		if _, err := n.Get(bg, ks, "post", ColumnPath{ColumnFamily: cf, SuperColumn: uuidB}, ONE); !errors.Is(err, ErrNotFound) {
			t.Fatalf("deleted super column: %v", err)
		}
		res, _ = n.GetSlice(bg, ks, "post", parent, SlicePredicate{SliceRange: &SliceRange{Count: 2}}, ONE)
		if got := names(res); !equalStrings(got, []string{want[0], want[2]}) {
			t.Fatalf("after super column delete, count 2: %x", got)
		}
		if got := colNames(res[0].SuperColumn.Columns); !equalStrings(got, []string{"body", "commenter"}) {
			t.Fatalf("after subcolumn delete: %q", got)
		}
		res, _ = n.GetSlice(bg, ks, "post", parent, SlicePredicate{SliceRange: &SliceRange{Reversed: true, Count: 3}}, ONE)
		if got := names(res); !equalStrings(got, []string{want[3], want[2], want[0]}) {
			t.Fatalf("reversed after delete: %x", got)
		}
		if cnt, err := n.GetCount(bg, ks, "post", parent, ONE); err != nil || cnt != 3 {
			t.Fatalf("GetCount super = %d %v", cnt, err)
		}
		if cnt, err := n.GetCount(bg, ks, "post", ColumnParent{ColumnFamily: cf, SuperColumn: uuidA}, ONE); err != nil || cnt != 2 {
			t.Fatalf("GetCount subcolumns = %d %v", cnt, err)
		}
		insert(t, n, ks, cf, "post", uuidB, []byte("late"), "x", 101)
		res, _ = n.GetSlice(bg, ks, "post", parent, SlicePredicate{ColumnNames: [][]byte{uuidD, uuidB}}, ONE)
		if got := names(res); !equalStrings(got, []string{want[1], want[3]}) {
			t.Fatalf("super column names: %x", got)
		}
		if got := colNames(res[0].SuperColumn.Columns); !equalStrings(got, []string{"late"}) {
			t.Fatalf("resurrected super column: %q", got)
		}
		// Deletion in a batch: super column names, subcolumns, whole row.
		err = n.BatchMutate(bg, ks, map[string]map[string][]Mutation{"post": {cf: {
			{Deletion: &Deletion{Timestamp: 200, Predicate: &SlicePredicate{ColumnNames: [][]byte{uuidD}}}},
			{Deletion: &Deletion{Timestamp: 200, SuperColumn: uuidC, Predicate: &SlicePredicate{ColumnNames: [][]byte{[]byte("body")}}}},
		}}}, ONE)
		if err != nil {
			t.Fatal(err)
		}
		res, _ = n.GetSlice(bg, ks, "post", parent, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, ONE)
		if got := names(res); !equalStrings(got, []string{want[0], want[1], want[2]}) || len(res[2].SuperColumn.Columns) != 2 {
			t.Fatalf("after batch deletions: %x", got)
		}
		err = n.BatchMutate(bg, ks, map[string]map[string][]Mutation{"post": {cf: {{Deletion: &Deletion{Timestamp: 300}}}}}, ONE)
		if err != nil {
			t.Fatal(err)
		}
		if cnt, _ := n.GetCount(bg, ks, "post", parent, ONE); cnt != 0 {
			t.Fatalf("after row delete: %d", cnt)
		}
	})
}

func colNames(cols []Column) []string {
	out := []string{}
	for _, c := range cols {
		out = append(out, string(c.Name))
	}
	return out
}

// Reference section 2: get_range_slices.

func TestRangeSlicesRandomPartitioner(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		for _, k := range []string{"alice", "bob", "carol", "dave", "eve"} {
			insert(t, n, "Twissandra", "User", k, nil, []byte("password"), "pw", 1)
		}
		all := SlicePredicate{SliceRange: &SliceRange{Count: 100}}
		rows, err := n.GetRangeSlices(bg, "Twissandra", ColumnParent{ColumnFamily: "User"}, all, KeyRange{Count: 100}, ONE)
		if err != nil {
			t.Fatal(err)
		}
		if got := rowKeys(rows); !equalStrings(got, []string{"eve", "dave", "carol", "bob", "alice"}) {
			t.Fatalf("RandomPartitioner order: %q", got)
		}
		// Paging by start key (inclusive).
		rows, _ = n.GetRangeSlices(bg, "Twissandra", ColumnParent{ColumnFamily: "User"}, all, KeyRange{StartKey: "carol", Count: 2}, ONE)
		if got := rowKeys(rows); !equalStrings(got, []string{"carol", "bob"}) {
			t.Fatalf("from carol: %q", got)
		}
		rows, _ = n.GetRangeSlices(bg, "Twissandra", ColumnParent{ColumnFamily: "User"}, all, KeyRange{StartKey: "dave", EndKey: "bob", Count: 100}, ONE)
		if got := rowKeys(rows); !equalStrings(got, []string{"dave", "carol", "bob"}) {
			t.Fatalf("dave..bob: %q", got)
		}
		_, err = n.GetRangeSlices(bg, "Twissandra", ColumnParent{ColumnFamily: "User"}, all, KeyRange{StartKey: "bob", EndKey: "dave", Count: 100}, ONE)
		wantInvalid(t, err, "start key's md5 sorts after end key's md5.  this is not allowed; you probably should not specify end key at all, under RandomPartitioner")
		// Token ranges are (start, end].
		p := n.Partitioner()
		rows, _ = n.GetRangeSlices(bg, "Twissandra", ColumnParent{ColumnFamily: "User"}, all, KeyRange{StartToken: p.Token("dave"), EndToken: p.Token("bob"), Count: 100}, ONE)
		if got := rowKeys(rows); !equalStrings(got, []string{"carol", "bob"}) {
			t.Fatalf("tokens (dave, bob]: %q", got)
		}
		// Wrapping: (bob, dave] goes round the ring.
		rows, _ = n.GetRangeSlices(bg, "Twissandra", ColumnParent{ColumnFamily: "User"}, all, KeyRange{StartToken: p.Token("bob"), EndToken: p.Token("dave"), Count: 100}, ONE)
		if got := rowKeys(rows); !equalStrings(got, []string{"alice", "eve", "dave"}) {
			t.Fatalf("tokens (bob, dave] wrapping: %q", got)
		}
		// Range ghosts: a deleted row still appears, with no columns.
		if err := n.Remove(bg, "Twissandra", "carol", ColumnPath{ColumnFamily: "User"}, 2, ONE); err != nil {
			t.Fatal(err)
		}
		if err := n.Remove(bg, "Twissandra", "dave", ColumnPath{ColumnFamily: "User", Column: []byte("password")}, 2, ONE); err != nil {
			t.Fatal(err)
		}
		rows, _ = n.GetRangeSlices(bg, "Twissandra", ColumnParent{ColumnFamily: "User"}, all, KeyRange{Count: 100}, ONE)
		if got := rowKeys(rows); !equalStrings(got, []string{"eve", "dave", "carol", "bob", "alice"}) {
			t.Fatalf("with ghosts: %q", got)
		}
		for _, r := range rows {
			ghost := r.Key == "carol" || r.Key == "dave"
			if ghost != (len(r.Columns) == 0) {
				t.Fatalf("row %s has %d columns", r.Key, len(r.Columns))
			}
		}
		_, err = n.GetRangeSlices(bg, "Twissandra", ColumnParent{ColumnFamily: "User"}, all, KeyRange{Count: 0}, ONE)
		wantInvalid(t, err, "maxRows must be positive")
		_, err = n.GetRangeSlices(bg, "Twissandra", ColumnParent{ColumnFamily: "User"}, all, KeyRange{StartKey: "a", StartToken: "1", Count: 1}, ONE)
		wantInvalid(t, err, "exactly one of {start key, end key} or {start token, end token} must be specified")
	})
}

func rowKeys(rows []KeySlice) []string {
	out := []string{}
	for _, r := range rows {
		out = append(out, r.Key)
	}
	return out
}

func oppSchema(t *testing.T) *Schema {
	t.Helper()
	s, err := ParseSchema([]byte(`<Storage><Keyspaces><Keyspace Name="K">
		<ColumnFamily Name="S" CompareWith="UTF8Type"/>
		<ColumnFamily Name="Sup" ColumnType="Super" CompareWith="LongType" CompareSubcolumnsWith="UTF8Type"/>
	</Keyspace></Keyspaces><Partitioner>org.apache.cassandra.dht.OrderPreservingPartitioner</Partitioner></Storage>`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRangeSlicesOrderPreserving(t *testing.T) {
	storesWith(t, oppSchema(t), func(t *testing.T, n *Node) {
		for _, k := range []string{"eve", "alice", "carol", "bob", "dave", "a\x00b", "a"} {
			insert(t, n, "K", "S", k, nil, []byte("c"), "v", 1)
		}
		insert(t, n, "K", "Sup", "alice", long(1), []byte("x"), "v", 1)
		if err := n.Remove(bg, "K", "bob", ColumnPath{ColumnFamily: "S", Column: []byte("c")}, 5, ONE); err != nil {
			t.Fatal(err)
		}
		all := SlicePredicate{SliceRange: &SliceRange{Count: 100}}
		rows, err := n.GetRangeSlices(bg, "K", ColumnParent{ColumnFamily: "S"}, all, KeyRange{Count: 100}, ONE)
		if err != nil {
			t.Fatal(err)
		}
		if got := rowKeys(rows); !equalStrings(got, []string{"a", "a\x00b", "alice", "bob", "carol", "dave", "eve"}) {
			t.Fatalf("OPP order: %q", got)
		}
		if len(rows[3].Columns) != 0 || len(rows[2].Columns) != 1 {
			t.Fatalf("ghost bob: %+v", rows[3])
		}
		rows, _ = n.GetRangeSlices(bg, "K", ColumnParent{ColumnFamily: "S"}, all, KeyRange{StartKey: "b", EndKey: "d", Count: 100}, ONE)
		if got := rowKeys(rows); !equalStrings(got, []string{"bob", "carol"}) {
			t.Fatalf("b..d: %q", got)
		}
		rows, _ = n.GetRangeSlices(bg, "K", ColumnParent{ColumnFamily: "S"}, all, KeyRange{StartToken: "bob", EndToken: "dave", Count: 100}, ONE)
		if got := rowKeys(rows); !equalStrings(got, []string{"carol", "dave"}) {
			t.Fatalf("(bob, dave]: %q", got)
		}
		_, err = n.GetRangeSlices(bg, "K", ColumnParent{ColumnFamily: "S"}, all, KeyRange{StartKey: "d", EndKey: "b", Count: 100}, ONE)
		wantInvalid(t, err, "start key must sort before (or equal to) finish key in your partitioner!")
		rows, _ = n.GetRangeSlices(bg, "K", ColumnParent{ColumnFamily: "Sup"}, all, KeyRange{Count: 100}, ONE)
		if got := rowKeys(rows); !equalStrings(got, []string{"alice"}) || rows[0].Columns[0].SuperColumn == nil {
			t.Fatalf("super CF range: %+v", rows)
		}
	})
}

// Reference section 4: batch_mutate.

func TestBatchMutateAllOrNothing(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		col := func(name string, ts int64) Mutation {
			return Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &Column{Name: long(ts), Value: []byte(name), Timestamp: ts}}}
		}
		bad := []struct {
			name string
			muts map[string]map[string][]Mutation
			why  string
		}{
			{"bad name in one row", map[string]map[string][]Mutation{
				"a": {"Timeline": {col("x", 1)}},
				"b": {"Timeline": {{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &Column{Name: []byte("short"), Timestamp: 1}}}}},
			}, "A long is exactly 8 bytes"},
			{"unknown CF", map[string]map[string][]Mutation{
				"a": {"Timeline": {col("x", 1)}, "Nope": {col("x", 1)}},
			}, "unconfigured columnfamily Nope"},
			{"empty key", map[string]map[string][]Mutation{"": {"Timeline": {col("x", 1)}}, "a": {"Timeline": {col("x", 1)}}}, "Key may not be empty"},
			{"empty mutation", map[string]map[string][]Mutation{"a": {"Timeline": {col("x", 1), {}}}}, "Mutation must have one ColumnOrSuperColumn or one Deletion"},
			{"slice range deletion", map[string]map[string][]Mutation{"a": {"Timeline": {col("x", 1), {Deletion: &Deletion{Timestamp: 1, Predicate: &SlicePredicate{SliceRange: &SliceRange{}}}}}}}, "Deletion does not yet support SliceRange predicates."},
			{"super column in standard CF", map[string]map[string][]Mutation{"a": {"Timeline": {col("x", 1), {ColumnOrSuperColumn: &ColumnOrSuperColumn{SuperColumn: &SuperColumn{Name: long(1), Columns: []Column{{Name: long(2), Timestamp: 1}}}}}}}}, "supercolumn parameter is invalid for standard CF Timeline"},
		}
		for _, tt := range bad {
			wantInvalid(t, n.BatchMutate(bg, "Twissandra", tt.muts, ONE), tt.why)
			for _, k := range []string{"a", "b"} {
				if c, _ := n.GetCount(bg, "Twissandra", k, ColumnParent{ColumnFamily: "Timeline"}, ONE); c != 0 {
					t.Fatalf("%s: row %s has %d columns after a rejected batch", tt.name, k, c)
				}
			}
		}
		wantInvalid(t, n.BatchMutate(bg, "Nope", nil, ONE), "Keyspace Nope does not exist in this schema.")
		// A good batch over many rows and CFs applies entirely.
		muts := map[string]map[string][]Mutation{}
		for i := range 100 {
			muts[fmt.Sprintf("user%d", i)] = map[string][]Mutation{"Timeline": {col("t", 42)}, "Userline": {col("t", 42)}}
		}
		muts["user0"]["Timeline"] = append(muts["user0"]["Timeline"], Mutation{Deletion: &Deletion{Timestamp: 50, Predicate: &SlicePredicate{ColumnNames: [][]byte{long(42)}}}})
		if err := n.BatchMutate(bg, "Twissandra", muts, ANY); err != nil {
			t.Fatal(err)
		}
		for i := range 100 {
			key := fmt.Sprintf("user%d", i)
			want := 1
			if i == 0 {
				want = 0
			}
			if c, _ := n.GetCount(bg, "Twissandra", key, ColumnParent{ColumnFamily: "Timeline"}, ONE); c != want {
				t.Fatalf("%s Timeline: %d", key, c)
			}
			if c, _ := n.GetCount(bg, "Twissandra", key, ColumnParent{ColumnFamily: "Userline"}, ONE); c != 1 {
				t.Fatalf("%s Userline: %d", key, c)
			}
		}
	})
}

// Reference section 5: limits and errors.

func TestErrors(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		all := SlicePredicate{SliceRange: &SliceRange{Count: 10}}
		long65536 := []byte(strings.Repeat("x", 65536))
		tests := []struct {
			name string
			err  error
			why  string
		}{
			{"unconfigured CF", func() error {
				_, err := n.GetSlice(bg, "Twissandra", "k", ColumnParent{ColumnFamily: "Users"}, all, ONE)
				return err
			}(), "unconfigured columnfamily Users"},
			{"unknown keyspace", n.Insert(bg, "Twitter", "k", ColumnPath{ColumnFamily: "User", Column: []byte("a")}, nil, 1, ONE), "Keyspace Twitter does not exist in this schema."},
			{"empty key", n.Insert(bg, "Twissandra", "", ColumnPath{ColumnFamily: "User", Column: []byte("a")}, nil, 1, ONE), "Key may not be empty"},
			{"long key", n.Insert(bg, "Twissandra", string(long65536), ColumnPath{ColumnFamily: "User", Column: []byte("a")}, nil, 1, ONE), "Encoded key length of 65536 is longer than maximum of 65535"},
			{"empty column name", n.Insert(bg, "Twissandra", "k", ColumnPath{ColumnFamily: "Username", Column: []byte{}}, nil, 1, ONE), "column parameter is not optional for standard CF Username"},
			{"long column name", n.Insert(bg, "Twissandra", "k", ColumnPath{ColumnFamily: "Username", Column: long65536}, nil, 1, ONE), "column name length must not be greater than 65535"},
			{"bad UTF8 name", n.Insert(bg, "Twissandra", "k", ColumnPath{ColumnFamily: "User", Column: []byte{0xc3}}, nil, 1, ONE), "invalid UTF8 bytes [-61]"},
			{"bad long name", n.Insert(bg, "Twissandra", "k", ColumnPath{ColumnFamily: "Userline", Column: []byte("1")}, nil, 1, ONE), "A long is exactly 8 bytes"},
			{"bad TimeUUID", n.Insert(bg, "BloggyAppy", "k", ColumnPath{ColumnFamily: "TaggedPosts", Column: uuidA[:8]}, nil, 1, ONE), "UUIDs must be exactly 16 bytes"},
			{"super column in standard CF", n.Insert(bg, "Twissandra", "k", ColumnPath{ColumnFamily: "User", SuperColumn: []byte("s"), Column: []byte("a")}, nil, 1, ONE), "supercolumn parameter is invalid for standard CF User"},
			{"read at ZERO", func() error {
				_, err := n.GetSlice(bg, "Twissandra", "k", ColumnParent{ColumnFamily: "User"}, all, ZERO)
				return err
			}(), "Consistency level zero may not be applied to read operations"},
			{"read at ANY", func() error {
				_, err := n.Get(bg, "Twissandra", "k", ColumnPath{ColumnFamily: "User", Column: []byte("a")}, ANY)
				return err
			}(), "Consistency level any may not be applied to read operations"},
			{"count at ZERO", func() error {
				_, err := n.GetCount(bg, "Twissandra", "k", ColumnParent{ColumnFamily: "User"}, ZERO)
				return err
			}(), "Consistency level zero may not be applied to read operations"},
			{"range at ANY", func() error {
				_, err := n.GetRangeSlices(bg, "Twissandra", ColumnParent{ColumnFamily: "User"}, all, KeyRange{Count: 1}, ANY)
				return err
			}(), "Consistency level any may not be applied to read operations"},
			{"both predicates", func() error {
				_, err := n.GetSlice(bg, "Twissandra", "k", ColumnParent{ColumnFamily: "User"}, SlicePredicate{ColumnNames: [][]byte{[]byte("a")}, SliceRange: &SliceRange{}}, ONE)
				return err
			}(), "predicate column_names and slice_range may not both be present"},
			{"no predicate", func() error {
				_, err := n.GetSlice(bg, "Twissandra", "k", ColumnParent{ColumnFamily: "User"}, SlicePredicate{}, ONE)
				return err
			}(), "predicate column_names and slice_range may not both be null"},
			{"bad slice bound", func() error {
				_, err := n.GetSlice(bg, "Twissandra", "k", ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Start: []byte("x"), Count: 1}}, ONE)
				return err
			}(), "A long is exactly 8 bytes"},
			{"parent with super column on standard CF", func() error {
				_, err := n.GetSlice(bg, "Twissandra", "k", ColumnParent{ColumnFamily: "User", SuperColumn: []byte("x")}, all, ONE)
				return err
			}(), "columnfamily alone is required for standard CF User"},
			{"empty name in column_names", func() error {
				_, err := n.GetSlice(bg, "Twissandra", "k", ColumnParent{ColumnFamily: "User"}, SlicePredicate{ColumnNames: [][]byte{{}}}, ONE)
				return err
			}(), "column name must not be empty"},
			{"get without column", func() error {
				_, err := n.Get(bg, "Twissandra", "k", ColumnPath{ColumnFamily: "User"}, ONE)
				return err
			}(), "column parameter is not optional for standard CF User"},
			{"get super CF without super column", func() error {
				_, err := n.Get(bg, "BloggyAppy", "k", ColumnPath{ColumnFamily: "Comments", Column: []byte("x")}, ONE)
				return err
			}(), "supercolumn parameter is not optional for super CF Comments"},
			{"invalid consistency level", n.Insert(bg, "Twissandra", "k", ColumnPath{ColumnFamily: "User", Column: []byte("a")}, nil, 1, 9), "invalid consistency level 9"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) { wantInvalid(t, tt.err, tt.why) })
		}
		// Writes at ZERO and ANY are fine.
		for _, cl := range []ConsistencyLevel{ZERO, ANY, ONE, QUORUM, DCQUORUM, DCQUORUMSYNC, ALL} {
			if err := n.Insert(bg, "Twissandra", "k", ColumnPath{ColumnFamily: "User", Column: []byte("a")}, nil, 1, cl); err != nil {
				t.Fatalf("write at %v: %v", cl, err)
			}
		}
		if !errors.Is(&InvalidRequestError{Why: "x"}, &InvalidRequestError{Why: "x"}) || errors.Is(&InvalidRequestError{Why: "x"}, &InvalidRequestError{Why: "y"}) {
			t.Fatal("InvalidRequestError.Is")
		}
	})
}

// The extension: InsertIfAbsent.

func TestInsertIfAbsentConcurrent(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		const workers = 16
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			applied []int
		)
		start := make(chan struct{})
		for i := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				ok, existing, err := n.InsertIfAbsent(bg, "Twissandra", "jericevans", ColumnParent{ColumnFamily: "Username"},
					Column{Name: []byte("id"), Value: fmt.Appendf(nil, "uuid-%d", i), Timestamp: int64(i)}, QUORUM)
				if err != nil {
					t.Error(err)
					return
				}
				if ok == (existing != nil) {
					t.Errorf("applied=%v existing=%v", ok, existing)
				}
				if ok {
					mu.Lock()
					applied = append(applied, i)
					mu.Unlock()
				}
			}()
		}
		close(start)
		wg.Wait()
		if len(applied) != 1 {
			t.Fatalf("%d calls applied, want exactly 1", len(applied))
		}
		c, err := n.Get(bg, "Twissandra", "jericevans", ColumnPath{ColumnFamily: "Username", Column: []byte("id")}, ONE)
		if err != nil || string(c.Column.Value) != fmt.Sprintf("uuid-%d", applied[0]) {
			t.Fatalf("winner not stored: %+v %v", c, err)
		}
		// After a delete the name is free again; a write hidden by a newer
		// tombstone is not applied.
		if err := n.Remove(bg, "Twissandra", "jericevans", ColumnPath{ColumnFamily: "Username"}, 100, ONE); err != nil {
			t.Fatal(err)
		}
		ok, ex, err := n.InsertIfAbsent(bg, "Twissandra", "jericevans", ColumnParent{ColumnFamily: "Username"}, Column{Name: []byte("id"), Value: []byte("x"), Timestamp: 100}, ONE)
		if err != nil || ok || ex != nil {
			t.Fatalf("hidden write: %v %v %v", ok, ex, err)
		}
		ok, _, err = n.InsertIfAbsent(bg, "Twissandra", "jericevans", ColumnParent{ColumnFamily: "Username"}, Column{Name: []byte("id"), Value: []byte("x"), Timestamp: 101}, ONE)
		if err != nil || !ok {
			t.Fatalf("after delete: %v %v", ok, err)
		}
		// CompareAndSet.
		ok, ex, _ = n.CompareAndSet(bg, "Twissandra", "jericevans", ColumnParent{ColumnFamily: "Username"}, []byte("wrong"), Column{Name: []byte("id"), Value: []byte("y"), Timestamp: 102}, ONE)
		if ok || ex == nil || string(ex.Value) != "x" {
			t.Fatalf("CAS wrong expectation: %v %+v", ok, ex)
		}
		ok, _, _ = n.CompareAndSet(bg, "Twissandra", "jericevans", ColumnParent{ColumnFamily: "Username"}, []byte("x"), Column{Name: []byte("id"), Value: []byte("y"), Timestamp: 102}, ONE)
		if !ok {
			t.Fatal("CAS right expectation not applied")
		}
		// Super CF subcolumn.
		ok, _, err = n.InsertIfAbsent(bg, "BloggyAppy", "p", ColumnParent{ColumnFamily: "Comments", SuperColumn: uuidA}, Column{Name: []byte("body"), Value: []byte("hi"), Timestamp: 1}, ONE)
		if err != nil || !ok {
			t.Fatalf("super: %v %v", ok, err)
		}
		ok, ex, _ = n.InsertIfAbsent(bg, "BloggyAppy", "p", ColumnParent{ColumnFamily: "Comments", SuperColumn: uuidA}, Column{Name: []byte("body"), Value: []byte("ho"), Timestamp: 2}, ONE)
		if ok || ex == nil || string(ex.Value) != "hi" {
			t.Fatalf("super again: %v %+v", ok, ex)
		}
	})
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	n, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	kss, _ := n.DescribeKeyspaces(bg)
	if !equalStrings(kss, []string{"BloggyAppy", "Scratch", "Sessions", "Twissandra"}) {
		t.Fatalf("keyspaces %q", kss)
	}
	d, err := n.DescribeKeyspace(bg, "BloggyAppy")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Type": "Super", "CompareWith": "org.apache.cassandra.db.marshal.TimeUUIDType",
		"CompareSubcolumnsWith": "org.apache.cassandra.db.marshal.BytesType", "Desc": ""}
	if fmt.Sprint(d["Comments"]) != fmt.Sprint(want) {
		t.Fatalf("Comments: %v", d["Comments"])
	}
	if _, err := n.DescribeKeyspace(bg, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown keyspace: %v", err)
	}
}

// GetSliceEach: what GetSlice returns, column by column, from buffers the next read reuses (a
// caller that copies keeps the right bytes); a whole super column family is refused; the read
// is recorded as the get_slice it is.
func TestGetSliceEach(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		fillAtoE(t, n, "r")
		insert(t, n, "Scratch", "Bytes", "s", nil, []byte("x"), "other row", 5)
		var kept []string
		for _, key := range []string{"r", "s", "r"} {
			if _, err := n.GetSliceEach(bg, "Scratch", key, ColumnParent{ColumnFamily: "Bytes"}, SlicePredicate{SliceRange: &SliceRange{Reversed: true, Count: 2}}, ONE,
				func(c Column) { kept = append(kept, string(c.Name)+"="+string(c.Value)) }); err != nil {
				t.Fatal(err)
			}
		}
		if want := []string{"e=ve", "d=vd", "x=other row", "e=ve", "d=vd"}; !equalStrings(kept, want) {
			t.Fatalf("kept %q, want %q", kept, want)
		}
		// Subcolumns of one super column; a whole super column family is refused.
		insert(t, n, "BloggyAppy", "Comments", "post", uuidA, []byte("body"), "hi", 1)
		count, err := n.GetSliceEach(bg, "BloggyAppy", "post", ColumnParent{ColumnFamily: "Comments", SuperColumn: uuidA}, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, ONE, func(Column) {})
		if err != nil || count != 1 {
			t.Fatalf("subcolumns: %d, %v", count, err)
		}
		_, err = n.GetSliceEach(bg, "BloggyAppy", "post", ColumnParent{ColumnFamily: "Comments"}, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, ONE, func(Column) {})
		if !errors.Is(err, ErrInvalidRequest) || !strings.Contains(err.Error(), "super column family") {
			t.Fatalf("a whole super column family: %v", err)
		}
		// Recorded as get_slice, with the columns it returned.
		var got records
		if _, err := n.GetSliceEach(oplog.With(bg, &got), "Scratch", "r", ColumnParent{ColumnFamily: "Bytes"}, SlicePredicate{SliceRange: &SliceRange{Count: 3}}, ONE, func(Column) {}); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Call != "get_slice" || got[0].Family != "Scratch.Bytes" || got[0].Touched != "3 columns" {
			t.Fatalf("recorded %+v", got)
		}
	})
}
