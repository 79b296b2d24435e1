package engine

import (
	"slices"
	"testing"
)

// A slice of super columns counts them as 0.6's SliceQueryFilter does and answers those with
// a live subcolumn, as CassandraServer does: more or fewer than count.
func TestSuperSliceCountsAs06(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		const cf = "AddressBook"
		put := func(key, sc, sub string, ts int64) {
			t.Helper()
			insert(t, n, "Scratch", cf, key, []byte(sc), []byte(sub), "v", ts)
		}
		remove := func(key string, path ColumnPath, ts int64) {
			t.Helper()
			path.ColumnFamily = cf
			if err := n.Remove(bg, "Scratch", key, path, ts, ONE); err != nil {
				t.Fatal(err)
			}
		}
		slice := func(key string, count int32, reversed bool) []string {
			t.Helper()
			got, err := n.GetSlice(bg, "Scratch", key, ColumnParent{ColumnFamily: cf}, SlicePredicate{SliceRange: &SliceRange{Count: count, Reversed: reversed}}, ONE)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, c := range got {
				names = append(names, string(c.SuperColumn.Name))
			}
			return names
		}
		// more: a, deleted whole and written again since, is answered and not counted.
		put("more", "a", "x", 1)
		remove("more", ColumnPath{SuperColumn: []byte("a")}, 2)
		put("more", "a", "y", 3)
		put("more", "b", "x", 1)
		put("more", "c", "x", 1)
		put("more", "d", "x", 1)
		// fewer: d's only subcolumn is a tombstone; d counts and is dropped.
		put("fewer", "d", "x", 1)
		remove("fewer", ColumnPath{SuperColumn: []byte("d"), Column: []byte("x")}, 2)
		put("fewer", "e", "x", 1)
		put("fewer", "f", "x", 1)
		// row: under a row tombstone a super column counts by its newest subcolumn that is not a
		// tombstone: p has none (a tombstone newer than the row's), q and r live ones.
		put("row", "p", "x", 1)
		put("row", "q", "x", 1)
		remove("row", ColumnPath{}, 5)
		remove("row", ColumnPath{SuperColumn: []byte("p"), Column: []byte("x")}, 7)
		put("row", "q", "y", 6)
		put("row", "r", "x", 6)
		tests := []struct {
			key      string
			count    int32
			reversed bool
			want     []string
		}{
			{"more", 2, false, []string{"a", "b", "c"}},
			{"more", 4, false, []string{"a", "b", "c", "d"}},
			{"more", 1, true, []string{"d"}},
			{"fewer", 2, false, []string{"e"}},
			{"fewer", 3, false, []string{"e", "f"}},
			{"fewer", 1, true, []string{"f"}},
			{"row", 1, false, []string{"q"}},
			{"row", 2, false, []string{"q", "r"}},
		}
		for _, tt := range tests {
			if got := slice(tt.key, tt.count, tt.reversed); !slices.Equal(got, tt.want) {
				t.Errorf("%s: count %d reversed %v = %q, want %q", tt.key, tt.count, tt.reversed, got, tt.want)
			}
		}
		// get_count is the length of an unbounded slice: the super columns answered.
		for key, want := range map[string]int{"more": 4, "fewer": 2, "row": 2} {
			if got, err := n.GetCount(bg, "Scratch", key, ColumnParent{ColumnFamily: cf}, ONE); err != nil || got != want {
				t.Errorf("get_count %s = %d, %v; want %d", key, got, err, want)
			}
		}
	})
}
