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
