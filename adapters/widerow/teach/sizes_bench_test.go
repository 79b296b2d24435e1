package teach_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/teach"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// BenchmarkWidestRows measures the partition lessons' scan on a public line of 5,000 and of
// 50,000 columns: past teaching.DefaultSizeScan columns a column family costs no more to measure,
// so the second takes about twice the first (the cap's 10,000 columns read against 5,000; 2.2
// to 3 times in one run of -count 3 here), not the ten times an unbounded scan would.
func BenchmarkWidestRows(b *testing.B) {
	for _, n := range []int{5_000, 50_000} {
		b.Run(fmt.Sprintf("public=%d", n), func(b *testing.B) {
			node := openNode(b, "")
			s, in := widerow.NewStore(node), teach.NewInspector(node)
			ctx := context.Background()
			entries := make([]domain.LineEntry, 0, 1000)
			for i := range n {
				entries = append(entries, domain.LineEntry{Time: int64(i + 1), TweetID: uuid.New()})
				if len(entries) == cap(entries) || i == n-1 {
					if err := s.AppendEntries(ctx, domain.PublicLine(), entries); err != nil {
						b.Fatal(err)
					}
					entries = entries[:0]
				}
			}
			b.ResetTimer()
			for b.Loop() {
				w, err := in.WidestRows(ctx, 20)
				if err != nil || w.Rows[0].Cells != min(n, teaching.DefaultSizeScan) {
					b.Fatalf("WidestRows: %+v, %v", w.Rows[:min(1, len(w.Rows))], err)
				}
			}
		})
	}
}
