package oplog

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

func TestLog(t *testing.T) {
	t.Parallel()
	Record(context.Background(), Op{Text: "slice nothing"}) // no log: ignored
	ctx := With(context.Background(), NewLog(false))
	var wg sync.WaitGroup
	for i := range MaxRecordedOps + 10 {
		wg.Go(func() {
			if i%2 == 0 {
				Record(ctx, Op{Text: fmt.Sprintf("slice line %d", i)})
			} else {
				Record(ctx, Op{Text: fmt.Sprintf("multiget tweets %d", i)})
			}
		})
	}
	wg.Wait()
	l := LogFrom(ctx)
	ops, dropped := l.Ops()
	if len(ops) != MaxRecordedOps || dropped != 10 || l.Len() != MaxRecordedOps+10 {
		t.Fatalf("kept %d, dropped %d, len %d", len(ops), dropped, l.Len())
	}
	if s := l.Summary(); s != "210 ops: slice=105 multiget=105" && s != "210 ops: multiget=105 slice=105" {
		t.Fatalf("summary %q", s)
	}
	var none *Log
	if none.Summary() != "0 ops" || none.Len() != 0 {
		t.Fatal("a nil log is not empty")
	}
}

// A brief log (an API request that does not ask for its record) counts its operations and
// keeps none of them.
func TestBriefLogCountsOnly(t *testing.T) {
	t.Parallel()
	l := NewLog(true)
	for _, text := range []string{"slice line", "multiget tweets", "slice line"} {
		l.Record(Op{Text: text})
	}
	ops, counted := l.Ops()
	if len(ops) != 0 || counted != 3 || l.Len() != 3 {
		t.Fatalf("kept %d, counted %d, len %d", len(ops), counted, l.Len())
	}
	if s := l.Summary(); s != "3 ops: slice=2 multiget=1" {
		t.Fatalf("summary %q", s)
	}
}

// The headline counts storage calls only: a post on widerow of 5 calls, 4 cache notes and a
// fan-out note is 5 calls, its notes listed apart, not counted as calls; the Storage-Ops
// header's summary keeps counting every record. A compare mode's divergence is no call either.
func TestHeadlineCountsStorageCalls(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ops     []Op
		want    string
		summary string
	}{
		{nil, "no storage call", "0 ops"},
		{[]Op{{Kind: Read, Call: "get"}}, "1 storage call: get=1", "1 ops: get=1"},
		{[]Op{{Kind: Read, Call: "get"}, {Kind: Note, Call: "cache"}}, "1 storage call: get=1; 1 note, not a call: cache=1", "2 ops: get=1 cache=1"},
		{[]Op{{Kind: Read, Call: "get_slice"}, {Kind: Note, Call: "cache"}, {Kind: Write, Call: "batch_mutate"}, {Kind: Note, Call: "cache"},
			{Kind: Write, Call: "batch_mutate"}, {Kind: Note, Call: "cache"}, {Kind: Note, Call: "cache"}, {Kind: Read, Call: "get_slice"},
			{Kind: Write, Call: "batch_mutate"}, {Kind: Note, Call: "fan-out"}},
			"5 storage calls: get_slice=2 batch_mutate=3; 5 notes, not calls: cache=4 fan-out=1", "10 ops: get_slice=2 cache=4 batch_mutate=3 fan-out=1"},
		{[]Op{{Kind: Note, Call: "merge"}, {Kind: Divergence, Call: "DIVERGENCE"}}, "no storage call; 2 notes, not calls: merge=1 DIVERGENCE=1", "2 ops: merge=1 DIVERGENCE=1"},
	} {
		for _, brief := range []bool{false, true} {
			l := NewLog(brief)
			for _, op := range c.ops {
				l.Record(op)
			}
			if got := l.Headline(); got != c.want {
				t.Errorf("brief %v: headline %q, want %q", brief, got, c.want)
			}
			if got := l.Summary(); got != c.summary {
				t.Errorf("brief %v: summary %q, want %q", brief, got, c.summary)
			}
		}
	}
	var none *Log
	if none.Headline() != "no storage call" {
		t.Errorf("a nil log's headline %q", none.Headline())
	}
}
