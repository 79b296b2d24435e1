package engine

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// stageKeys stages the given keys (values are their positions) and returns the keys in the
// order sortedOrder puts them, with the positions they were staged at.
func stageKeys(w *writer, keys [][]byte) (sorted [][]byte, positions []uint32) {
	w.buf, w.ents = w.buf[:0], w.ents[:0]
	for i, k := range keys {
		k0 := len(w.buf)
		w.buf = append(w.buf, k...)
		k1 := len(w.buf)
		w.buf = append(w.buf, byte(i))
		w.ents = append(w.ents, stagedCell{k0, k1, len(w.buf)})
	}
	for _, o := range w.sortedOrder() {
		e := w.ents[o.i]
		sorted = append(sorted, w.buf[e.k0:e.k1])
		positions = append(positions, o.i)
	}
	return sorted, positions
}

// checkStagedOrder asserts that the staged order is the keys' byte order and that equal keys
// keep the order they were staged in.
func checkStagedOrder(t *testing.T, w *writer, keys [][]byte) {
	t.Helper()
	sorted, positions := stageKeys(w, keys)
	if len(sorted) != len(keys) {
		t.Fatalf("%d keys in, %d out", len(keys), len(sorted))
	}
	want := slices.Clone(keys)
	slices.SortStableFunc(want, bytes.Compare)
	for i := range want {
		if !bytes.Equal(sorted[i], want[i]) {
			t.Fatalf("position %d: got %x, want %x", i, sorted[i], want[i])
		}
		if i > 0 && bytes.Equal(sorted[i], sorted[i-1]) && positions[i] < positions[i-1] {
			t.Fatalf("equal keys %x reordered: staged %d before %d", sorted[i], positions[i-1], positions[i])
		}
	}
}

func TestStagedOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return b
	}
	cases := map[string][][]byte{
		"empty": nil,
		"one":   {[]byte("a")},
	}
	var tokens, shared, short, dups [][]byte
	for i := range 3000 {
		// A fan-out: CF prefix, random token, row key, column name.
		tokens = append(tokens, append(append([]byte{'d', 0, 7}, random(16)...), fmt.Sprintf("row%05d\x00\x01name", i)...))
		// Keys equal in their first eight bytes, differing later (the tie-breaking sort).
		shared = append(shared, append([]byte("followerXX"), random(rng.IntN(4))...))
		// Keys shorter than eight bytes, including prefixes of each other.
		short = append(short, random(rng.IntN(9)))
		// Equal keys staged more than once.
		dups = append(dups, []byte{'k', byte(rng.IntN(8))})
	}
	cases["tokens"], cases["shared prefix"], cases["short"], cases["duplicates"] = tokens, shared, short, dups
	cases["mixed"] = slices.Concat(tokens[:500], shared[:500], short[:500], dups[:500])
	w := &writer{} // one writer throughout, as the pool reuses them
	for name, keys := range cases {
		t.Run(name, func(t *testing.T) {
			checkStagedOrder(t, w, keys)
			checkStagedOrder(t, w, slices.Concat(keys, keys)) // longer than the scratch
			checkStagedOrder(t, w, keys)
		})
	}
}

func FuzzStagedOrder(f *testing.F) {
	f.Add([]byte("followers\x00a\x00followers\x00b\x00x\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w := &writer{}
		keys := bytes.Split(data, []byte{0})
		checkStagedOrder(t, w, keys)
		checkStagedOrder(t, w, keys[len(keys)/2:])
	})
}

// TestStagedBatchMatchesInserts applies one big batch (staged and sorted) and the same cells
// one Insert at a time, and reads the same rows back from both.
func TestStagedBatchMatchesInserts(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		const rows = stageThreshold * 3
		muts := make(map[string]map[string][]Mutation, rows)
		for i := range rows {
			key := fmt.Sprintf("user%04d", i)
			var line []Mutation
			for c := range 1 + i%3 {
				// Within a row, a column written twice: the higher timestamp wins either way.
				line = append(line, colMut(long(int64(c)), fmt.Sprintf("v%d-%d", i, c), 10),
					colMut(long(int64(c)), fmt.Sprintf("w%d-%d", i, c), 11))
			}
			muts[key] = map[string][]Mutation{"Timeline": line, "Userline": line[:1]}
			for _, m := range line {
				insert(t, n, "Twissandra", "Timeline", "copy"+key, nil, m.ColumnOrSuperColumn.Column.Name, string(m.ColumnOrSuperColumn.Column.Value), m.ColumnOrSuperColumn.Column.Timestamp)
			}
		}
		if err := n.BatchMutate(bg, "Twissandra", muts, ONE); err != nil {
			t.Fatal(err)
		}
		for i := range rows {
			key := fmt.Sprintf("user%04d", i)
			got, want := cells(t, n, key), cells(t, n, "copy"+key)
			if !slices.Equal(got, want) || len(got) != 1+i%3 {
				t.Fatalf("row %s: batch gave %q, inserts %q", key, got, want)
			}
			v, err := n.Get(bg, "Twissandra", key, ColumnPath{ColumnFamily: "Timeline", Column: long(0)}, ONE)
			if err != nil || string(v.Column.Value) != fmt.Sprintf("w%d-0", i) {
				t.Fatalf("row %s column 0 = %+v, %v; want the later write", key, v.Column, err)
			}
			if c, err := n.GetCount(bg, "Twissandra", key, ColumnParent{ColumnFamily: "Userline"}, ONE); err != nil || c != 1 {
				t.Fatalf("row %s Userline count = %d, %v", key, c, err)
			}
		}
	})
}

func colMut(name []byte, value string, ts int64) Mutation {
	return Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &Column{Name: name, Value: []byte(value), Timestamp: ts}}}
}

// cells is a Timeline row as "name=value@timestamp" strings.
func cells(t *testing.T, n *Node, key string) []string {
	t.Helper()
	res, err := n.GetSlice(bg, "Twissandra", key, ColumnParent{ColumnFamily: "Timeline"}, SlicePredicate{SliceRange: &SliceRange{Count: 100}}, ONE)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range res {
		out = append(out, fmt.Sprintf("%x=%s@%d", c.Column.Name, c.Column.Value, c.Column.Timestamp))
	}
	return out
}

// BenchmarkStagedOrder10k orders the cells of a 10,000-row fan-out (random MD5 tokens), beside
// a comparison sort of the same keys.
func BenchmarkStagedOrder10k(b *testing.B) {
	w := &writer{}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 10_000 {
		k0 := len(w.buf)
		w.buf = append(w.buf, 'd', 0, 7)
		for range 16 {
			w.buf = append(w.buf, byte(rng.IntN(256)))
		}
		w.buf = fmt.Appendf(w.buf, "%036d\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x01", i)
		k1 := len(w.buf)
		w.buf = append(w.buf, "0123456789abcdef"...)
		w.ents = append(w.ents, stagedCell{k0, k1, len(w.buf)})
	}
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			w.sortedOrder()
		}
	})
	b.Run("comparison", func(b *testing.B) {
		ents := slices.Clone(w.ents)
		for b.Loop() {
			copy(ents, w.ents)
			slices.SortFunc(ents, func(x, y stagedCell) int { return bytes.Compare(w.buf[x.k0:x.k1], w.buf[y.k0:y.k1]) })
		}
	})
}

// TestSharedMutationList gives many rows one mutation list (as a fan-out does), in batches
// below and above the staging threshold: every row gets every cell of the list, with its own
// row prefix, and a list that is invalid fails the whole batch wherever it first appears.
func TestSharedMutationList(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		for _, rows := range []int{5, stageThreshold * 2, parallelThreshold + 10} {
			t.Run(fmt.Sprint(rows), func(t *testing.T) {
				prefix := fmt.Sprintf("r%d-", rows)
				standard := []Mutation{
					colMut([]byte("a"), "A", 20),
					colMut([]byte("b"), "B", 20),
					{Deletion: &Deletion{Timestamp: 20, Predicate: &SlicePredicate{ColumnNames: [][]byte{[]byte("c")}}}},
				}
				super := []Mutation{{ColumnOrSuperColumn: &ColumnOrSuperColumn{SuperColumn: &SuperColumn{
					Name: []byte("home"), Columns: []Column{{Name: []byte("city"), Value: []byte("Austin"), Timestamp: 20}},
				}}}}
				muts := make(map[string]map[string][]Mutation, rows)
				for i := range rows {
					key := fmt.Sprint(prefix, i)
					insert(t, n, "Scratch", "UTF8s", key, nil, []byte("c"), "old", 10)
					muts[key] = map[string][]Mutation{"UTF8s": standard, "AddressBook": super}
				}
				if err := n.BatchMutate(bg, "Scratch", muts, ONE); err != nil {
					t.Fatal(err)
				}
				for i := range rows {
					key := fmt.Sprint(prefix, i)
					if got := sliceNames(t, n, "Scratch", "UTF8s", key, nil, SliceRange{Count: 10}); !slices.Equal(got, []string{"a", "b"}) {
						t.Fatalf("row %s: %q, want [a b] (c deleted)", key, got)
					}
					got, err := n.Get(bg, "Scratch", key, ColumnPath{ColumnFamily: "AddressBook", SuperColumn: []byte("home"), Column: []byte("city")}, ONE)
					if err != nil || string(got.Column.Value) != "Austin" {
						t.Fatalf("row %s home/city = %+v, %v", key, got.Column, err)
					}
				}

				bad := []Mutation{colMut([]byte("z"), "Z", 30), colMut([]byte{0xff}, "not UTF-8", 30)}
				muts = make(map[string]map[string][]Mutation, rows)
				for i := range rows {
					muts[fmt.Sprint(prefix, "bad", i)] = map[string][]Mutation{"UTF8s": bad}
				}
				if err := n.BatchMutate(bg, "Scratch", muts, ONE); !errors.Is(err, ErrInvalidRequest) {
					t.Fatalf("invalid shared list: %v, want an InvalidRequest", err)
				}
				for i := range rows {
					if got := sliceNames(t, n, "Scratch", "UTF8s", fmt.Sprint(prefix, "bad", i), nil, SliceRange{Count: 10}); len(got) != 0 {
						t.Fatalf("failed batch wrote %q", got)
					}
				}

				// One bad row among good ones (in whichever half it lands): nothing is written.
				muts = make(map[string]map[string][]Mutation, rows)
				for i := range rows {
					muts[fmt.Sprint(prefix, "one", i)] = map[string][]Mutation{"UTF8s": standard[:1]}
				}
				muts[strings.Repeat("k", MaxNameLength+1)] = map[string][]Mutation{"UTF8s": standard[:1]}
				if err := n.BatchMutate(bg, "Scratch", muts, ONE); !errors.Is(err, ErrInvalidRequest) {
					t.Fatalf("a batch with an over-long key: %v, want an InvalidRequest", err)
				}
				for i := range rows {
					if got := sliceNames(t, n, "Scratch", "UTF8s", fmt.Sprint(prefix, "one", i), nil, SliceRange{Count: 10}); len(got) != 0 {
						t.Fatalf("failed batch wrote %q", got)
					}
				}
			})
		}
	})
}
