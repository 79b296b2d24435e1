package engine

import (
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkInsertParallel is the cheapest write, one column into a row, from every core at
// once: each commit takes the compaction gate shared (see compaction.go).
func BenchmarkInsertParallel(b *testing.B) {
	n, err := Open(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	var seq atomic.Int64
	value := []byte("a tweet's worth of text, more or less")
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := seq.Add(1)
			key := "u" + strconv.FormatInt(i%1000, 10)
			if err := n.Insert(bg, "Scratch", key, ColumnPath{ColumnFamily: "Longs", Column: long(i)}, value, i, ONE); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkPurge is one compaction (Purge) of a store of 1,000 rows of 100 columns, a tenth of
// them deleted and received a grace before: it reads every cell and drops the tombstones (the
// store is filled again before each run). Reported per cell read.
func BenchmarkPurge(b *testing.B) {
	const rows, cols = 1000, 100
	n, err := Open(Options{GCGrace: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	fill := func() {
		for r := range rows {
			key := fmt.Sprint("row", r)
			m := map[string]map[string][]Mutation{key: {"Longs": nil}}
			for c := range cols {
				m[key]["Longs"] = append(m[key]["Longs"], Mutation{ColumnOrSuperColumn: &ColumnOrSuperColumn{Column: &Column{Name: long(int64(c)), Value: []byte("v"), Timestamp: 10}}})
			}
			for c := 0; c < cols; c += 10 {
				m[key]["Longs"] = append(m[key]["Longs"], Mutation{Deletion: &Deletion{Timestamp: 20, Predicate: &SlicePredicate{ColumnNames: [][]byte{long(int64(c))}}}})
			}
			if err := n.BatchMutate(at(1000), "Scratch", m, ONE); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		fill()
		b.StartTimer()
		got, err := n.Purge(at(1000 + 3600))
		if err != nil || got.Purged != rows*cols/10 {
			b.Fatalf("Purge: %+v, %v", got, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows*cols), "ns/cell")
}
