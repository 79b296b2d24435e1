package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"twissandra/ports/oplog"
)

// followRow writes an index row Followers[author] whose column names are keys.
func followRow(t *testing.T, n *Node, author string, keys ...string) {
	t.Helper()
	var muts []Mutation
	for _, k := range keys {
		muts = append(muts, Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &Column{Name: []byte(k), Value: long(1), Timestamp: 1}}})
	}
	if err := n.BatchMutate(bg, "Twissandra", map[string]map[string][]Mutation{author: {"Followers": muts}}, ONE); err != nil {
		t.Fatal(err)
	}
}

// readWhole reads Followers[author] from its first column, which caches it.
func readWhole(t *testing.T, n *Node, author string) {
	t.Helper()
	if _, err := n.GetSlice(bg, "Twissandra", author, ColumnParent{ColumnFamily: "Followers"}, SlicePredicate{SliceRange: &SliceRange{Count: 100}}, ONE); err != nil {
		t.Fatal(err)
	}
}

// rowsOf is the set's keys, sorted.
func rowsOf(s *RowSet) []string {
	var keys []string
	for i := range s.Len() {
		keys = append(keys, s.key(i))
	}
	return slices.Sorted(slices.Values(keys))
}

// A row set is there only while the row cache holds its row, names the row's live columns, and
// goes with the row at the next write to it: never a set older than the row a read finds.
func TestRowSetIsTheCachedRowsNames(t *testing.T) {
	n, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	followRow(t, n, "author", "u1", "u2", "esc\x00aped")
	if _, ok, err := n.RowsNamedBy(bg, "Twissandra", "Followers", "author", "Timeline", ONE); ok || err != nil {
		t.Fatalf("a row not read since its write: ok %v, %v; want no set", ok, err)
	}
	if s := n.RowCacheStats(); s.Misses != 0 || s.Hits != 0 {
		t.Errorf("asking for a set counted %+v: the caller's own read of the row counts the miss", s)
	}
	readWhole(t, n, "author")
	set, ok, err := n.RowsNamedBy(bg, "Twissandra", "Followers", "author", "Timeline", ONE)
	if !ok || err != nil || !reflect.DeepEqual(rowsOf(set), []string{"esc\x00aped", "u1", "u2"}) {
		t.Fatalf("the cached row's set: %v, %v, %v", set, ok, err)
	}
	timeline := n.cfOf("Twissandra", "Timeline")
	for i := range set.Len() {
		if want := n.appendRowPrefix(nil, timeline, set.key(i)); !bytes.Equal(set.prefix(i), want) {
			t.Errorf("row %d (%q): prefix %x, want %x", i, set.key(i), set.prefix(i), want)
		}
		if i > 0 && bytes.Compare(set.prefix(i-1), set.prefix(i)) >= 0 {
			t.Errorf("rows %d and %d are not in token order", i-1, i)
		}
	}
	if again, _, _ := n.RowsNamedBy(bg, "Twissandra", "Followers", "author", "Timeline", ONE); again != set {
		t.Error("the set is built again at each call, not kept with its row")
	}
	// A new follower and a removed one: the set goes with the row, and the next one is the
	// row's as it is now.
	followRow(t, n, "author", "u4")
	if err := n.Remove(bg, "Twissandra", "author", ColumnPath{ColumnFamily: "Followers", Column: []byte("u2")}, 2, ONE); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := n.RowsNamedBy(bg, "Twissandra", "Followers", "author", "Timeline", ONE); ok {
		t.Fatal("a set outlived a write to its row")
	}
	readWhole(t, n, "author")
	set, ok, err = n.RowsNamedBy(bg, "Twissandra", "Followers", "author", "Timeline", ONE)
	if !ok || err != nil || !reflect.DeepEqual(rowsOf(set), []string{"esc\x00aped", "u1", "u4"}) {
		t.Fatalf("the set after a follow and an unfollow: %v, %v, %v", set, ok, err)
	}
	if s := n.RowCacheStats(); s.Rows != 1 || s.Bytes <= 0 {
		t.Errorf("row cache %+v, want the one row", s)
	}
}

// BatchMutateRows writes what BatchMutate writes given each of the set's keys and the other
// rows: the same stored cells.
func TestBatchMutateRowsWritesWhatBatchMutateWrites(t *testing.T) {
	followers := []string{"u3", "u1", "esc\x00aped", "u2"}
	open := func() *Node {
		n, err := Open(Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		followRow(t, n, "author", followers...)
		readWhole(t, n, "author")
		return n
	}
	viaBatch, viaSet := open(), open()
	col := Column{Name: long(42), Value: []byte("tweet-id"), Timestamp: 7}
	shared := []Mutation{{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &col}}}
	others := func() map[string]map[string][]Mutation {
		return map[string]map[string][]Mutation{"author": {"Userline": shared, "Timeline": shared}, "!PUBLIC!": {"Userline": shared}}
	}
	all := others()
	for _, k := range followers {
		all[k] = map[string][]Mutation{"Timeline": shared}
	}
	if err := viaBatch.BatchMutate(bg, "Twissandra", all, ONE); err != nil {
		t.Fatal(err)
	}
	set, ok, err := viaSet.RowsNamedBy(bg, "Twissandra", "Followers", "author", "Timeline", ONE)
	if !ok || err != nil {
		t.Fatalf("RowsNamedBy: %v, %v", ok, err)
	}
	var got records
	if err := viaSet.BatchMutateRows(oplog.With(bg, &got), "Twissandra", set, shared, others(), ONE); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ cf, key string }{{"Timeline", "u1"}, {"Timeline", "u2"}, {"Timeline", "u3"}, {"Timeline", "esc\x00aped"}, {"Timeline", "author"}, {"Userline", "author"}, {"Userline", "!PUBLIC!"}} {
		want, err := viaBatch.StoredCells(bg, "Twissandra", r.cf, r.key, 10)
		if err != nil {
			t.Fatal(err)
		}
		cells, err := viaSet.StoredCells(bg, "Twissandra", r.cf, r.key, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != 1 || !reflect.DeepEqual(cells, want) {
			t.Errorf("%s[%q]: the set stored %+v, batch_mutate %+v", r.cf, r.key, cells, want)
		}
	}
	// Its record is batch_mutate's: six keys, seven rows (a key in each column family it
	// writes), seven mutations.
	if len(got) != 1 || got[0].Call != "batch_mutate" || got[0].KeyCount != 6 || got[0].Touched != "7 mutations" ||
		got[0].Family != "Twissandra (Timeline: 5 rows, Userline: 2 rows)" ||
		!strings.HasPrefix(got[0].Text, "batch_mutate Twissandra 6 keys, 7 rows (Timeline: 5 rows, Userline: 2 rows) 7 mutations") {
		t.Errorf("recorded %+v", got)
	}
}

// RowsNamedBy records the read it stands for: a get_slice of the whole row.
func TestRowsNamedByRecordsItsRead(t *testing.T) {
	n, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	followRow(t, n, "author", "u1", "u2")
	readWhole(t, n, "author")
	var got records
	if _, ok, err := n.RowsNamedBy(oplog.With(bg, &got), "Twissandra", "Followers", "author", "Timeline", QUORUM); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if len(got) != 1 || got[0].Call != "get_slice" || got[0].Family != "Twissandra.Followers" || got[0].Touched != "2 columns" ||
		got[0].Consistency != "QUORUM" || !strings.Contains(got[0].Predicate, "the whole row") {
		t.Errorf("recorded %+v", got)
	}
	// A refused call is recorded as refused; a row not cached is the caller's to read.
	got = nil
	rec := oplog.With(bg, &got)
	if _, _, err := n.RowsNamedBy(rec, "Twissandra", "Nope", "author", "Timeline", ONE); err == nil {
		t.Fatal("an unknown column family was named")
	}
	if _, ok, err := n.RowsNamedBy(rec, "Twissandra", "Followers", "nobody", "Timeline", ONE); ok || err != nil {
		t.Fatal(ok, err)
	}
	if len(got) != 1 || got[0].Touched != "error" {
		t.Errorf("recorded %+v, want the refused call alone", got)
	}
}

func TestRowSetsRefuseWhatTheyCannotName(t *testing.T) {
	n, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	followRow(t, n, "author", "u1")
	readWhole(t, n, "author")
	var ire *InvalidRequestError
	for _, c := range []struct {
		ks, source, key, target string
		cl                      ConsistencyLevel
	}{
		{"Twissandra", "Nope", "author", "Timeline", ONE},
		{"Twissandra", "Followers", "author", "Nope", ONE},
		{"Nope", "Followers", "author", "Timeline", ONE},
		{"BloggyAppy", "Comments", "author", "Entries", ONE},
		{"Twissandra", "Followers", "", "Timeline", ONE},
		{"Twissandra", "Followers", "author", "Timeline", ZERO},
	} {
		if _, ok, err := n.RowsNamedBy(bg, c.ks, c.source, c.key, c.target, c.cl); ok || !errors.As(err, &ire) {
			t.Errorf("RowsNamedBy(%+v): ok %v, %v; want an InvalidRequestError", c, ok, err)
		}
	}
	set, _, err := n.RowsNamedBy(bg, "Twissandra", "Followers", "author", "Timeline", ONE)
	if err != nil {
		t.Fatal(err)
	}
	bad := []Mutation{{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &Column{Name: []byte("not a long"), Timestamp: 1}}}}
	if err := n.BatchMutateRows(bg, "Twissandra", set, bad, nil, ONE); !errors.As(err, &ire) {
		t.Errorf("a name the set's comparator refuses: %v, want an InvalidRequestError", err)
	}
	if err := n.BatchMutateRows(bg, "BloggyAppy", set, nil, nil, ONE); !errors.As(err, &ire) {
		t.Errorf("a set of another keyspace: %v, want an InvalidRequestError", err)
	}
	other, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.BatchMutateRows(bg, "Twissandra", set, nil, nil, ONE); !errors.As(err, &ire) {
		t.Errorf("a set of another node: %v, want an InvalidRequestError", err)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if err := n.BatchMutateRows(ctx, "Twissandra", set, nil, nil, ONE); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled batch: %v", err)
	}
	if cells, err := n.StoredCells(bg, "Twissandra", "Timeline", "u1", 10); err != nil || len(cells) != 0 {
		t.Errorf("refused batches wrote %+v, %v", cells, err)
	}
}

// Posts and follows at once (run with -race): a post takes the set of the row as it read it,
// and once the follows are done, the next set names every follower, and a post reaches them.
func TestRowSetsWhileFollowsArrive(t *testing.T) {
	n, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	followRow(t, n, "author", "u0")
	const follows = 200
	done, started := make(chan struct{}), make(chan struct{})
	errs := make(chan error, 2)
	go func() { // the follows, from the first post on
		defer close(done)
		<-started
		for i := 1; i <= follows; i++ {
			col := Column{Name: []byte(fmt.Sprintf("u%d", i)), Value: long(1), Timestamp: 1}
			if err := n.Insert(bg, "Twissandra", "author", ColumnPath{ColumnFamily: "Followers", Column: col.Name}, col.Value, col.Timestamp, ONE); err != nil {
				errs <- err
				return
			}
		}
		errs <- nil
	}()
	go func() { // the posts, each reading the row (which caches it) and taking its set
		posts := 0
		for ts := int64(1); ; ts++ {
			select {
			case <-done:
				errs <- nil
				return
			default:
			}
			if _, err := n.GetSlice(bg, "Twissandra", "author", ColumnParent{ColumnFamily: "Followers"}, SlicePredicate{SliceRange: &SliceRange{Count: 1000}}, ONE); err != nil {
				errs <- err
				return
			}
			set, ok, err := n.RowsNamedBy(bg, "Twissandra", "Followers", "author", "Timeline", ONE)
			if err != nil {
				errs <- err
				return
			}
			if !ok {
				continue // a follow dropped the row between the read and the ask
			}
			col := Column{Name: long(ts), Value: []byte("t"), Timestamp: ts}
			if err := n.BatchMutateRows(bg, "Twissandra", set, []Mutation{{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &col}}}, nil, ONE); err != nil {
				errs <- err
				return
			}
			if set.Len() == 0 {
				errs <- fmt.Errorf("a set of no rows after post %d", posts)
				return
			}
			if posts++; posts == 1 {
				close(started)
			}
		}
	}()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	readWhole(t, n, "author")
	set, ok, err := n.RowsNamedBy(bg, "Twissandra", "Followers", "author", "Timeline", ONE)
	if !ok || err != nil || set.Len() != follows+1 {
		t.Fatalf("after the follows: a set (%v, %v), want one of %d rows", ok, err, follows+1)
	}
	last := Column{Name: long(1 << 40), Value: []byte("last"), Timestamp: 1 << 40}
	if err := n.BatchMutateRows(bg, "Twissandra", set, []Mutation{{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &last}}}, nil, ONE); err != nil {
		t.Fatal(err)
	}
	for i := 0; i <= follows; i++ {
		got, err := n.GetSlice(bg, "Twissandra", fmt.Sprintf("u%d", i), ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Reversed: true, Count: 1}}, ONE)
		if err != nil || len(got) != 1 || string(got[0].Column.Value) != "last" {
			t.Fatalf("follower u%d after the last post: %v, %v", i, got, err)
		}
	}
}
