package engine

import (
	"errors"
	"reflect"
	"testing"
)

// The floor writes what batch_mutate writes: the same column into the same rows leaves the same
// stored cells, and the rows read back as that column.
func TestFloorWritesWhatBatchMutateWrites(t *testing.T) {
	rows := []string{"u3", "u1", "esc\x00aped", "u2"}
	open := func() *Node {
		n, err := Open(Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		return n
	}
	viaBatch, viaFloor := open(), open()
	col := Column{Name: long(42), Value: []byte("tweet-id"), Timestamp: 7}
	timelineOnly := map[string][]Mutation{"Timeline": {{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &col}}}}
	muts := map[string]map[string][]Mutation{}
	for _, k := range rows {
		muts[k] = timelineOnly
	}
	if err := viaBatch.BatchMutate(bg, "Twissandra", muts, ONE); err != nil {
		t.Fatal(err)
	}
	floor, err := viaFloor.Floor("Twissandra", "Timeline", rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := floor.Write(col.Name, col.Value, col.Timestamp); err != nil {
		t.Fatal(err)
	}
	for _, k := range rows {
		want, err := viaBatch.StoredCells(bg, "Twissandra", "Timeline", k, 10)
		if err != nil {
			t.Fatal(err)
		}
		got, err := viaFloor.StoredCells(bg, "Twissandra", "Timeline", k, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != 1 || !reflect.DeepEqual(got, want) {
			t.Errorf("row %q: the floor stored %+v, batch_mutate %+v", k, got, want)
		}
		read, err := viaFloor.GetSlice(bg, "Twissandra", k, ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Count: 10}}, ONE)
		if err != nil || len(read) != 1 || !reflect.DeepEqual(*read[0].Column, col) {
			t.Errorf("row %q after the floor reads %+v, %v; want %+v", k, read, err, col)
		}
	}
}

func TestFloorRefusesWhatItCannotWrite(t *testing.T) {
	n, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	var ire *InvalidRequestError
	if _, err := n.Floor("Twissandra", "Nope", []string{"a"}); !errors.As(err, &ire) {
		t.Errorf("a floor on an unknown column family: %v, want an InvalidRequestError", err)
	}
	if _, err := n.Floor("BloggyAppy", "Comments", []string{"a"}); !errors.As(err, &ire) {
		t.Errorf("a floor on a super column family: %v, want an InvalidRequestError", err)
	}
}
