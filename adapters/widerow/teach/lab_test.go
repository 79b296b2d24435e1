package teach_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"twissandra/adapters/widerow/teach"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

func newLab(t *testing.T) *teach.Lab {
	t.Helper()
	l, err := teach.NewLab()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

func labNames(ns []teaching.LabName) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Name
	}
	return out
}

func labRow(t *testing.T, rows []teaching.LabRow, cmp string) teaching.LabRow {
	t.Helper()
	for _, r := range rows {
		if r.Comparator == cmp {
			return r
		}
	}
	t.Fatalf("no %s row in %+v", cmp, rows)
	return teaching.LabRow{}
}

var _ teaching.ColumnLab = (*teach.Lab)(nil)

// The seeds' example: 3, 123, 976 and 832416 sort as numbers under LongType and as text under
// the byte-wise comparators; the UUID comparators refuse them, each saying why.
func TestLabOrdersTheSeedsExample(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	if got := l.Comparators(); !slices.Equal(got, []string{"BytesType", "AsciiType", "UTF8Type", "LongType", "LexicalUUIDType", "TimeUUIDType"}) {
		t.Errorf("comparators: %v", got)
	}
	rows, err := l.Insert(context.Background(), "s1", []string{"976", "3", "832416", "123"}, "v")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"LongType":        {"3", "123", "976", "832416"},
		"UTF8Type":        {`"123"`, `"3"`, `"832416"`, `"976"`},
		"AsciiType":       {`"123"`, `"3"`, `"832416"`, `"976"`},
		"BytesType":       {`"123"`, `"3"`, `"832416"`, `"976"`},
		"LexicalUUIDType": {},
		"TimeUUIDType":    {},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want one per comparator", len(rows))
	}
	for _, r := range rows {
		w := want[r.Comparator]
		if got := labNames(r.Names); !slices.Equal(got, w) {
			t.Errorf("%s: %v, want %v", r.Comparator, got, w)
		}
		if len(w) == 0 {
			if len(r.Rejected) != 4 || !strings.Contains(r.Rejected[0], `"976" is not a `+r.Comparator+" name") {
				t.Errorf("%s rejected %q; want all four refused by name", r.Comparator, r.Rejected)
			}
		} else if len(r.Rejected) != 0 {
			t.Errorf("%s rejected %q", r.Comparator, r.Rejected)
		}
	}
	long := labRow(t, rows, "LongType")
	if long.Names[0].Encoded != "0x0000000000000003" || long.Names[3].Encoded != "0x00000000000cb3a0" {
		t.Errorf("LongType stores 3 and 832416 as %s and %s, want 8 big-endian bytes", long.Names[0].Encoded, long.Names[3].Encoded)
	}
	if utf := labRow(t, rows, "UTF8Type"); utf.Names[0].Encoded != "0x313233" {
		t.Errorf("UTF8Type stores \"123\" as %s, want its UTF-8 bytes", utf.Names[0].Encoded)
	}
	// Negative numbers: LongType is signed, the byte-wise comparators see 0x2d ('-') first.
	rows, err = l.Insert(context.Background(), "s2", []string{"5", "-1", "0"}, "v")
	if err != nil {
		t.Fatal(err)
	}
	if got := labNames(labRow(t, rows, "LongType").Names); !slices.Equal(got, []string{"-1", "0", "5"}) {
		t.Errorf("LongType with a negative: %v", got)
	}
}

// A later insert adds to the session's row; another session sees nothing of it; Clear empties it.
func TestLabSessionsAreApart(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	ctx := context.Background()
	if _, err := l.Insert(ctx, "alice", []string{"3", "123"}, "a"); err != nil {
		t.Fatal(err)
	}
	rows, err := l.Insert(ctx, "alice", []string{"976", "3"}, "a")
	if err != nil {
		t.Fatal(err)
	}
	if got := labNames(labRow(t, rows, "LongType").Names); !slices.Equal(got, []string{"3", "123", "976"}) {
		t.Errorf("alice's row after two inserts: %v", got)
	}
	bob, err := l.Rows(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range bob {
		if len(r.Names) != 0 {
			t.Errorf("bob sees %s %v", r.Comparator, labNames(r.Names))
		}
		if r.Key == labRow(t, rows, r.Comparator).Key {
			t.Errorf("bob and alice share the row key %s", r.Key)
		}
	}
	if err := l.Clear(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	rows, err = l.Insert(ctx, "alice", []string{"42"}, "a")
	if err != nil {
		t.Fatal(err)
	}
	if got := labNames(labRow(t, rows, "LongType").Names); !slices.Equal(got, []string{"42"}) {
		t.Errorf("alice's row after clear and an insert: %v", got)
	}
}

func TestLabRefusesBadInput(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	ctx := context.Background()
	many := make([]string, teach.LabMaxNames+1)
	for i := range many {
		many[i] = fmt.Sprint(i)
	}
	for _, tc := range []struct {
		name    string
		session string
		names   []string
		value   string
	}{
		{"no names", "s", nil, ""},
		{"too many names", "s", many, ""},
		{"empty name", "s", []string{"a", ""}, ""},
		{"long name", "s", []string{strings.Repeat("x", teach.LabMaxName+1)}, ""},
		{"long value", "s", []string{"a"}, strings.Repeat("x", teach.LabMaxName+1)},
		{"no session", "", []string{"a"}, ""},
		{"long session", strings.Repeat("s", teach.LabMaxSession+1), []string{"a"}, ""},
	} {
		if _, err := l.Insert(ctx, tc.session, tc.names, tc.value); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", tc.name, err)
		}
	}
	// A row holds at most LabMaxRow names.
	for i := 0; i < teach.LabMaxRow; i += teach.LabMaxNames {
		batch := make([]string, teach.LabMaxNames)
		for j := range batch {
			batch[j] = fmt.Sprint(i + j)
		}
		if _, err := l.Insert(ctx, "full", batch, ""); err != nil {
			t.Fatalf("filling the row at %d: %v", i, err)
		}
	}
	if _, err := l.Insert(ctx, "full", []string{"one more"}, ""); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "clear it first") {
		t.Errorf("a full row: %v", err)
	}
	// The refusals of one insert name the comparator and the name.
	rows, err := l.Insert(ctx, "s", []string{"abc", "0xzz", "6ba7b810-9dad-41d1-80b4-00c04fd430c8", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"}, "")
	if err != nil {
		t.Fatal(err)
	}
	for cmp, want := range map[string][]string{
		"LongType":        {`"abc" is not a LongType name`, `"0xzz" is not a LongType name`, `"6ba7b810-9dad-41d1-80b4-00c04fd430c8" is not a LongType name`, `"6ba7b810-9dad-11d1-80b4-00c04fd430c8" is not a LongType name`},
		"BytesType":       {`"0xzz" is not a BytesType name`},
		"UTF8Type":        nil,
		"LexicalUUIDType": {`"abc" is not a LexicalUUIDType name`, `"0xzz" is not a LexicalUUIDType name`},
		"TimeUUIDType":    {`"abc" is not a TimeUUIDType name`, `"0xzz" is not a TimeUUIDType name`, `"6ba7b810-9dad-41d1-80b4-00c04fd430c8" is not a TimeUUIDType name: TimeUUID only makes sense with version 1 UUIDs`},
	} {
		r := labRow(t, rows, cmp)
		if len(r.Rejected) != len(want) {
			t.Errorf("%s rejected %q, want %d", cmp, r.Rejected, len(want))
			continue
		}
		for i, w := range want {
			if !strings.HasPrefix(r.Rejected[i], w) {
				t.Errorf("%s: %q, want it to start %q", cmp, r.Rejected[i], w)
			}
		}
	}
	if got := labNames(labRow(t, rows, "TimeUUIDType").Names); !slices.Equal(got, []string{"6ba7b810-9dad-11d1-80b4-00c04fd430c8"}) {
		t.Errorf("TimeUUIDType kept %v, want the version 1 UUID", got)
	}
}

func TestLabSlices(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	ctx := context.Background()
	if _, err := l.Insert(ctx, "s", []string{"976", "3", "832416", "123"}, "v"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmp  string
		s    teaching.Slice
		want []string
		call string
	}{
		{"LongType", teaching.Slice{Start: "100", Finish: "1000", Count: 10}, []string{"123", "976"},
			"ColumnParent(column_family='Longs'), predicate=SlicePredicate(slice_range=SliceRange(start=struct.pack('>q', 100), finish=struct.pack('>q', 1000), reversed=False, count=10))"},
		{"LongType", teaching.Slice{Start: "1000", Finish: "2000", Count: 10}, []string{}, ""},
		{"LongType", teaching.Slice{Start: "100", Count: 2}, []string{"123", "976"}, ""},
		{"LongType", teaching.Slice{Count: 0}, []string{}, "count=0"},
		{"LongType", teaching.Slice{Start: "1000", Reversed: true, Count: 3}, []string{"976", "123", "3"}, "reversed=True, count=3"},
		{"LongType", teaching.Slice{Start: "1000", Finish: "100", Reversed: true, Count: 10}, []string{"976", "123"}, ""},
		{"UTF8Type", teaching.Slice{Start: "4", Count: 10}, []string{`"832416"`, `"976"`}, "ColumnParent(column_family='UTF8s'), predicate=SlicePredicate(slice_range=SliceRange(start='4', finish=''"},
		{"BytesType", teaching.Slice{Reversed: true, Count: 1}, []string{`"976"`}, ""},
		{"BytesType", teaching.Slice{Start: "2", Finish: "9", Count: 10}, []string{`"3"`, `"832416"`}, ""},
		{"TimeUUIDType", teaching.Slice{Count: 10}, []string{}, "'TimeUUIDs'"},
	} {
		got, err := l.Slice(ctx, "s", tc.cmp, tc.s)
		if err != nil {
			t.Fatalf("%s %+v: %v", tc.cmp, tc.s, err)
		}
		if g := labNames(got.Names); !slices.Equal(g, tc.want) {
			t.Errorf("%s %+v: %v, want %v", tc.cmp, tc.s, g, tc.want)
		}
		if !strings.HasPrefix(got.Call, "get_slice(keyspace='Scratch', key='lab-") || !strings.Contains(got.Call, tc.call) {
			t.Errorf("%s %+v: call %s, want it to hold %s", tc.cmp, tc.s, got.Call, tc.call)
		}
	}
	// Another session's slice sees none of it.
	if got, err := l.Slice(ctx, "other", "LongType", teaching.Slice{Count: 10}); err != nil || len(got.Names) != 0 {
		t.Errorf("another session: %v, %v", labNames(got.Names), err)
	}
	for _, bad := range []struct {
		cmp  string
		s    teaching.Slice
		want string
	}{
		{"LongType", teaching.Slice{Start: "abc", Count: 1}, `start: "abc" is not a LongType name`},
		{"LongType", teaching.Slice{Finish: "1.5", Count: 1}, `finish: "1.5" is not a LongType name`},
		{"TimeUUIDType", teaching.Slice{Start: "nope", Count: 1}, `"nope" is not a TimeUUIDType name`},
		{"NoType", teaching.Slice{Count: 1}, "is none of the six comparators"},
		{"LongType", teaching.Slice{Count: -1}, "count"},
		{"LongType", teaching.Slice{Start: "10", Finish: "5", Count: 3}, "range finish must come after start in the order of traversal"},
		{"LongType", teaching.Slice{Start: "5", Finish: "10", Reversed: true, Count: 3}, "range finish must come after start in the order of traversal"},
	} {
		_, err := l.Slice(ctx, "s", bad.cmp, bad.s)
		if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s %+v: %v, want ErrInvalid saying %q", bad.cmp, bad.s, err, bad.want)
		}
	}
}

// Last write wins: the higher timestamp wins whatever order the writes arrive in; on a tie the
// larger value; a tombstone at a higher timestamp hides the column and stays stored with its
// deletion time, and a write older than it stays hidden.
func TestLabLastWriteWins(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		writes   []teaching.LabWrite
		found    bool
		value    string
		storedTS int64
	}{
		{"newer second", []teaching.LabWrite{{Value: "old", Timestamp: 10}, {Value: "new", Timestamp: 20}}, true, "new", 20},
		{"newer first", []teaching.LabWrite{{Value: "new", Timestamp: 20}, {Value: "old", Timestamp: 10}}, true, "new", 20},
		{"tie: larger value", []teaching.LabWrite{{Value: "a", Timestamp: 5}, {Value: "b", Timestamp: 5}}, true, "b", 5},
		{"tie: tombstone", []teaching.LabWrite{{Value: "z", Timestamp: 5}, {Delete: true, Timestamp: 5}}, false, "", 5},
		{"delete wins", []teaching.LabWrite{{Value: "x", Timestamp: 10}, {Value: "y", Timestamp: 12}, {Delete: true, Timestamp: 15}}, false, "", 15},
		{"older write stays hidden", []teaching.LabWrite{{Delete: true, Timestamp: 15}, {Value: "late", Timestamp: 12}}, false, "", 15},
		{"newer write revives", []teaching.LabWrite{{Delete: true, Timestamp: 15}, {Value: "back", Timestamp: 16}}, true, "back", 16},
	} {
		fwd, rev, err := l.LastWriteWins(ctx, "s", tc.writes)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, c := range []teaching.LabCell{fwd, rev} {
			if c.Found != tc.found || c.Value != tc.value {
				t.Errorf("%s: found %v %q, want %v %q", tc.name, c.Found, c.Value, tc.found, tc.value)
			}
			if len(c.Stored) != 1 || c.Stored[0].Name != `"name"` || c.Stored[0].Deleted == tc.found || c.Stored[0].Timestamp != tc.storedTS {
				t.Errorf("%s: stored %+v, want one cell at %d (tombstone %v)", tc.name, c.Stored, tc.storedTS, !tc.found)
			}
			if len(c.Calls) != len(tc.writes) {
				t.Errorf("%s: calls %q", tc.name, c.Calls)
			}
		}
		first, last := tc.writes[0], tc.writes[len(tc.writes)-1]
		if !strings.HasSuffix(fwd.Calls[0], fmt.Sprintf("timestamp=%d)", first.Timestamp)) || !strings.HasSuffix(rev.Calls[0], fmt.Sprintf("timestamp=%d)", last.Timestamp)) {
			t.Errorf("%s: forward %q, reverse %q", tc.name, fwd.Calls, rev.Calls)
		}
	}
	for _, bad := range [][]teaching.LabWrite{nil, make([]teaching.LabWrite, teach.LabMaxWrites+1), {{Value: "x", Timestamp: -1}}} {
		if _, _, err := l.LastWriteWins(ctx, "s", bad); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%+v: %v, want ErrInvalid", bad, err)
		}
	}
}

// Learners at once: every insert lands in its own session's row, under the race detector.
func TestLabConcurrentSessions(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			s := fmt.Sprint("learner", i)
			for j := range 5 {
				if _, err := l.Insert(ctx, s, []string{fmt.Sprint(i*100 + j)}, ""); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	for i := range 8 {
		rows, err := l.Rows(ctx, fmt.Sprint("learner", i))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{}
		for j := range 5 {
			want = append(want, fmt.Sprint(i*100+j))
		}
		if got := labNames(labRow(t, rows, "LongType").Names); !slices.Equal(got, want) {
			t.Errorf("learner%d: %v, want %v", i, got, want)
		}
	}
}

// Whatever a learner types, the lab answers with rows or domain.ErrInvalid, never another error
// or a panic; an insert's names read back under BytesType, and a slice returns at most count
// names, all of them stored.
func FuzzLab(f *testing.F) {
	f.Add("832416", "3", "", uint8(3), false, 10)
	f.Add("0x00ff", "0x", "0xzz", uint8(0), true, 2)
	f.Add("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "2010-05-12T09:20:00Z", "-1", uint8(5), false, 1)
	f.Add("\xff\xfe", "\xff", "", uint8(2), true, 0)
	l, err := teach.NewLab()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = l.Close() })
	cmps := l.Comparators()
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, name, start, finish string, cmp uint8, reversed bool, count int) {
		const session = "fuzz"
		if err := l.Clear(ctx, session); err != nil {
			t.Fatal(err)
		}
		rows, err := l.Insert(ctx, session, []string{name, "3"}, name)
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("insert %q: %v", name, err)
			}
			return
		}
		if bytesRow := labRow(t, rows, "BytesType"); len(bytesRow.Names)+len(bytesRow.Rejected) != 2 && name != "3" {
			t.Errorf("BytesType took %v and refused %q of %q and \"3\"", labNames(bytesRow.Names), bytesRow.Rejected, name)
		}
		c := cmps[int(cmp)%len(cmps)]
		got, err := l.Slice(ctx, session, c, teaching.Slice{Start: start, Finish: finish, Reversed: reversed, Count: count})
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("slice %s %q %q: %v", c, start, finish, err)
			}
			return
		}
		stored := labNames(labRow(t, rows, c).Names)
		if len(got.Names) > count {
			t.Errorf("%s count %d returned %d", c, count, len(got.Names))
		}
		for _, n := range got.Names {
			if !slices.Contains(stored, n.Name) {
				t.Errorf("%s slice returned %s, not stored (%v)", c, n.Name, stored)
			}
		}
	})
}

// InsertSlice is Insert then Slice for one comparator: the same slice, the same names refused,
// and the five other rows left empty; it holds the row to Insert's bounds and refuses what
// Insert and Slice refuse.
func TestLabInsertSliceWritesOneRow(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	ctx := context.Background()
	names := []string{"976", "3", "832416", "123", "not a number"}
	for _, s := range []teaching.Slice{{Count: 100}, {Reversed: true, Count: 2}, {Start: "100", Finish: "1000", Count: 10}} {
		rows, err := l.Insert(ctx, "both", names, "v")
		if err != nil {
			t.Fatal(err)
		}
		want, err := l.Slice(ctx, "both", "LongType", s)
		if err != nil {
			t.Fatal(err)
		}
		got, rejected, err := l.InsertSlice(ctx, "one", "LongType", names, "v", s)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(labNames(got.Names), labNames(want.Names)) || len(got.Names) == 0 {
			t.Errorf("%+v: InsertSlice %v, Insert then Slice %v", s, labNames(got.Names), labNames(want.Names))
		}
		parent := func(call string) string { _, rest, _ := strings.Cut(call, "column_parent="); return rest }
		if parent(got.Call) != parent(want.Call) || parent(got.Call) == "" || !strings.HasPrefix(got.Call, "get_slice(keyspace='Scratch', key='lab-") {
			t.Errorf("call %q, Slice's %q", got.Call, want.Call)
		}
		if !slices.Equal(rejected, labRow(t, rows, "LongType").Rejected) || len(rejected) != 1 {
			t.Errorf("rejected %v, Insert's %v", rejected, labRow(t, rows, "LongType").Rejected)
		}
		if err := l.Clear(ctx, "both"); err != nil {
			t.Fatal(err)
		}
		rows, err = l.Rows(ctx, "one")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if n := len(r.Names); (r.Comparator == "LongType") != (n > 0) {
				t.Errorf("%s row holds %d names after InsertSlice into LongType", r.Comparator, n)
			}
		}
		if err := l.Clear(ctx, "one"); err != nil {
			t.Fatal(err)
		}
	}
	// The bounds: a full row, too many names, a bad comparator or bound.
	for i := 0; i < teach.LabMaxRow; i += teach.LabMaxNames {
		batch := make([]string, teach.LabMaxNames)
		for j := range batch {
			batch[j] = fmt.Sprintf("n%04d", i+j)
		}
		if _, _, err := l.InsertSlice(ctx, "full", "UTF8Type", batch, "", teaching.Slice{Count: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := l.InsertSlice(ctx, "full", "UTF8Type", []string{"one more"}, "", teaching.Slice{Count: 1}); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "clear it first") {
		t.Errorf("a full row: %v", err)
	}
	many := make([]string, teach.LabMaxNames+1)
	for i := range many {
		many[i] = fmt.Sprint(i)
	}
	for name, err := range map[string]error{
		"too many names":   second(l.InsertSlice(ctx, "s", "UTF8Type", many, "", teaching.Slice{Count: 1})),
		"no names":         second(l.InsertSlice(ctx, "s", "UTF8Type", nil, "", teaching.Slice{Count: 1})),
		"a bad comparator": second(l.InsertSlice(ctx, "s", "NoType", []string{"a"}, "", teaching.Slice{Count: 1})),
		"a bad count":      second(l.InsertSlice(ctx, "s", "UTF8Type", []string{"a"}, "", teaching.Slice{Count: teach.LabMaxRow + 1})),
		"a bad bound":      second(l.InsertSlice(ctx, "s", "LongType", []string{"1"}, "", teaching.Slice{Start: "x", Count: 1})),
		"bounds reversed":  second(l.InsertSlice(ctx, "s", "UTF8Type", []string{"a"}, "", teaching.Slice{Start: "b", Finish: "a", Count: 1})),
		"no session":       second(l.InsertSlice(ctx, "", "UTF8Type", []string{"a"}, "", teaching.Slice{Count: 1})),
	} {
		if !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
}

func second(_ teaching.LabSlice, _ []string, err error) error { return err }
