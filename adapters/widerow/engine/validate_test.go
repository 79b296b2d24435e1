package engine

import (
	"strings"
	"testing"
)

// The messages of 0.6.6's ThriftValidation and CassandraServer (the 0.6 branch as of October
// 2010), one request each, as the engine answers them.
func TestValidationMessagesOf06(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		batch := func(cf string, m Mutation) error {
			return n.BatchMutate(bg, "Twissandra", map[string]map[string][]Mutation{"k": {cf: {m}}}, ONE)
		}
		blog := func(m Mutation) error {
			return n.BatchMutate(bg, "BloggyAppy", map[string]map[string][]Mutation{"k": {"Comments": {m}}}, ONE)
		}
		tl := func(v int64) *Column { return &Column{Name: long(v), Value: []byte("v"), Timestamp: 1} }
		sub := []Column{{Name: []byte("commenter"), Value: []byte("v"), Timestamp: 1}}
		// 11,000 characters above U+FFFF: 44,000 bytes of UTF-8, 66,000 of modified UTF-8.
		astral := strings.Repeat("\U0001F600", 11000)
		tests := []struct {
			name string
			err  error
			why  string
		}{
			{"key too long in modified UTF-8", n.Insert(bg, "Twissandra", astral, ColumnPath{ColumnFamily: "User", Column: []byte("a")}, nil, 1, ONE),
				"Encoded key length of 66000 is longer than maximum of 65535"},
			{"get_slice predicate with neither field", func() error {
				_, err := n.GetSlice(bg, "Twissandra", "k", ColumnParent{ColumnFamily: "User"}, SlicePredicate{}, ONE)
				return err
			}(), "predicate column_names and slice_range may not both be null"},
			{"mutation with both fields", batch("Timeline", Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: tl(1)}, Deletion: &Deletion{Timestamp: 1}}),
				"Mutation may have either a ColumnOrSuperColumn or a Deletion, but not both"},
			{"mutation with neither field", batch("Timeline", Mutation{}),
				"Mutation must have one ColumnOrSuperColumn or one Deletion"},
			{"ColumnOrSuperColumn with neither field", batch("Timeline", Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{}}),
				"ColumnOrSuperColumn must have one or both of Column or SuperColumn"},
			{"ColumnOrSuperColumn with both fields, subcolumns in a standard CF", batch("Timeline", Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: tl(1), SuperColumn: &SuperColumn{Name: long(2), Columns: []Column{*tl(3)}}}}),
				"supercolumn parameter is invalid for standard CF Timeline"},
			{"ColumnOrSuperColumn with both fields in a super CF", blog(Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &Column{Name: uuidA, Timestamp: 1}, SuperColumn: &SuperColumn{Name: uuidA, Columns: sub}}}),
				"supercolumn parameter is not optional for super CF Comments"},
			{"column into a super CF", blog(Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &Column{Name: uuidA, Timestamp: 1}}}),
				"supercolumn parameter is not optional for super CF Comments"},
			{"empty super column name", blog(Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{SuperColumn: &SuperColumn{Name: []byte{}, Columns: sub}}}),
				"supercolumn name must not be empty"},
			{"super column name too long", blog(Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{SuperColumn: &SuperColumn{Name: make([]byte, 65536), Columns: sub}}}),
				"supercolumn name length must not be greater than 65535"},
			{"deletion of a super column in a standard CF", batch("Timeline", Mutation{Deletion: &Deletion{Timestamp: 7, SuperColumn: []byte{0x00, 0xab, 0x80}}}),
				"deletion of super_column is not possible on a standard ColumnFamily (KeySpace=Twissandra ColumnFamily=Timeline Deletion=Deletion(timestamp:7, super_column:00 AB 80))"},
			{"deletion of columns under a super column in a standard CF", batch("Timeline", Mutation{Deletion: &Deletion{Timestamp: 7, SuperColumn: long(1), Predicate: &SlicePredicate{ColumnNames: [][]byte{long(2)}}}}),
				"supercolumn specified to ColumnFamily Timeline containing normal columns"},
			{"deletion predicate with neither field", batch("Timeline", Mutation{Deletion: &Deletion{Timestamp: 7, Predicate: &SlicePredicate{}}}),
				"A SlicePredicate must be given a list of Columns, a SliceRange, or both"},
			{"remove of a super column in a standard CF", n.Remove(bg, "Twissandra", "k", ColumnPath{ColumnFamily: "User", SuperColumn: []byte("s")}, 1, ONE),
				"supercolumn may not be specified for standard CF User"},
			{"insert into a super CF without a super column", n.Insert(bg, "BloggyAppy", "k", ColumnPath{ColumnFamily: "Comments", Column: []byte("commenter")}, nil, 1, ONE),
				"supercolumn parameter is not optional for super CF Comments"},
			{"get from a super CF without a super column", func() error {
				_, err := n.Get(bg, "BloggyAppy", "k", ColumnPath{ColumnFamily: "Comments", Column: []byte("commenter")}, ONE)
				return err
			}(), "supercolumn parameter is not optional for super CF Comments"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) { wantInvalid(t, tt.err, tt.why) })
		}
		if c, _ := n.GetCount(bg, "Twissandra", "k", ColumnParent{ColumnFamily: "Timeline"}, ONE); c != 0 {
			t.Fatalf("a refused mutation wrote %d columns", c)
		}
	})
}

// 0.6 takes a ColumnOrSuperColumn with both fields when both pass its checks, and writes the
// column alone (RowMutation.getRowMutationFromMutations); a super column without subcolumns
// is not checked and writes nothing.
func TestColumnOrSuperColumnWithBothWritesTheColumn(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		both := Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{
			Column:      &Column{Name: long(1), Value: []byte("column"), Timestamp: 1},
			SuperColumn: &SuperColumn{Name: long(2)},
		}}
		bare := Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{SuperColumn: &SuperColumn{Name: []byte("not a long")}}}
		if err := n.BatchMutate(bg, "Twissandra", map[string]map[string][]Mutation{"k": {"Timeline": {both, bare}}}, ONE); err != nil {
			t.Fatal(err)
		}
		got, err := n.GetSlice(bg, "Twissandra", "k", ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, ONE)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Column == nil || string(got[0].Column.Name) != string(long(1)) || string(got[0].Column.Value) != "column" {
			t.Fatalf("Timeline[k] = %+v, want the one column written", got)
		}
	})
}

func TestModifiedUTF8Length(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]int{"": 0, "abc": 3, "a\x00b": 4, "é": 2, "€": 3, "\U0001F600": 6, "\xff": 3} {
		if got := modifiedUTF8Length(s); got != want {
			t.Errorf("modifiedUTF8Length(%q) = %d, want %d", s, got, want)
		}
	}
}
