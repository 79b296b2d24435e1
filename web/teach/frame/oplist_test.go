package frame

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"twissandra/ports/oplog"
)

// BenchmarkOpList renders a page's footer list of 12 operations as cql3 records them: without
// the consistency level and the coordinator, and with them, so that their cost on every page is
// a ratio of the two.
func BenchmarkOpList(b *testing.B) {
	base := make([]oplog.Op, 12)
	for i := range base {
		base[i] = oplog.Op{Model: "cql3", Kind: oplog.Read, Call: "SELECT", Took: 812 * time.Microsecond,
			Text: "SELECT time,tweet_id,author,body,created_at,created_at_us FROM timeline WHERE username=? LIMIT ? -> 40 rows"}
	}
	with := slices.Clone(base)
	for i := range with {
		with[i].Consistency, with[i].Coordinator = "LOCAL_QUORUM", "127.0.0.1:9042"
	}
	for _, bc := range []struct {
		name string
		ops  []oplog.Op
	}{{"bare", base}, {"level-and-coordinator", with}} {
		b.Run(bc.name, func(b *testing.B) {
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := opList(bc.ops).Render(context.Background(), &buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
