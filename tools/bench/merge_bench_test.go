package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/internal/testkit/cqltest"
	"twissandra/tools/seed"
)

// Run (the cql3 half needs a node):
//
//	TWISSANDRA_CQL_HOSTS=127.0.0.1 go test -run '^$' -bench MergedPage -benchtime 2s ./tools/bench/

// mergeWorld is one store with ten pushed authors and some pulled ones, a plain reader who
// follows the pushed ones, and a reader who follows the pulled ones too.
type mergeWorld struct {
	svc           *social.Service
	plain, merged string
}

// newMergeWorld makes the world of one benchmark: the pushed authors post 40 tweets each, one a
// round; each pulled author posts posts times, in rounds spread over the same 40, so a page of
// 40 holds pushed and pulled tweets alike, and most pulled authors have posted nothing in its
// window (as most of the accounts anyone follows).
func newMergeWorld(b *testing.B, svc *social.Service, pulled, posts int) mergeWorld {
	b.Helper()
	ctx := context.Background()
	run := fmt.Sprintf("%d", pulled)
	name := func(kind string, i int) string { return fmt.Sprintf("m%s%s_%d", kind, run, i) }
	var pushedAuthors, pulledAuthors []string
	for i := range 10 {
		pushedAuthors = append(pushedAuthors, name("a", i))
	}
	for i := range pulled {
		pulledAuthors = append(pulledAuthors, name("p", i))
	}
	w := mergeWorld{svc: svc, plain: name("r", 0), merged: name("r", 1)}
	fans := []string{name("f", 0), name("f", 1)}
	for _, group := range [][]string{pushedAuthors, pulledAuthors, {w.plain, w.merged}, fans} {
		for _, n := range group {
			if _, err := svc.SignUp(ctx, n, seed.Password); err != nil {
				b.Fatal(err)
			}
		}
	}
	// Threshold 2: the pushed authors have the two readers, the pulled ones the merged reader
	// and two fans.
	if err := svc.SetPullThreshold(1); err != nil {
		b.Fatal(err)
	}
	for _, f := range [][2]any{{w.plain, pushedAuthors}, {w.merged, pushedAuthors}, {w.merged, pulledAuthors}, {fans[0], pulledAuthors}, {fans[1], pulledAuthors}} {
		for _, a := range f[1].([]string) {
			if err := svc.Follow(ctx, f[0].(string), a); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := svc.SetPullThreshold(2); err != nil {
		b.Fatal(err)
	}
	for round := range 40 {
		for _, a := range pushedAuthors {
			if _, err := svc.Post(ctx, a, fmt.Sprintf("tweet %d by %s", round, a)); err != nil {
				b.Fatal(err)
			}
		}
		for j, a := range pulledAuthors {
			for k := range posts {
				if (j+k*40/posts)%40 == round {
					if _, err := svc.Post(ctx, a, fmt.Sprintf("tweet %d by %s", round, a)); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	}
	if pf, err := svc.PulledFriends(ctx, w.merged); err != nil || len(pf) != pulled {
		b.Fatalf("the merged reader follows %d pulled authors (%v), want %d", len(pf), err, pulled)
	}
	return w
}

// BenchmarkMergedPage reads a home page of 40 of a reader who follows 5, 20 or 800 pulled
// authors and one of a reader who follows none, alternately in one loop, on widerow and cql3,
// with the server's heads of the pulled authors' userlines (heads=on, bound 1 s: every reader
// of the bound shares one read of each head) and without (heads=off). It reports each page's
// time and their ratio, merged/plain: the targets are 5 pulled at most 1/0.9, 20 at most
// 1/0.8, and 800 at most 2 times the plain page's time.
func BenchmarkMergedPage(b *testing.B) {
	backends := []struct {
		name string
		open func(b *testing.B) *social.Service
	}{
		{"widerow", func(b *testing.B) *social.Service {
			n, err := engine.Open(engine.Options{Dir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { n.Close() })
			s := widerow.NewStore(n)
			return social.New(s, s, s, nil, domain.NewPasswordHasher(4))
		}},
		{"cql3", func(b *testing.B) *social.Service {
			s := cqltest.Store(b, "twissandra_test_bench_merge_")
			return social.New(s, s, s, nil, domain.NewPasswordHasher(4))
		}},
	}
	for _, be := range backends {
		b.Run("backend="+be.name, func(b *testing.B) {
			svc := be.open(b)
			for _, k := range []struct{ pulled, posts int }{{5, 40}, {20, 40}, {800, 2}} {
				w := newMergeWorld(b, svc, k.pulled, k.posts)
				for _, heads := range []bool{true, false} {
					b.Run(fmt.Sprintf("pulled=%d/heads=%s", k.pulled, onOff(heads)), func(b *testing.B) {
						bound := time.Duration(0)
						if heads {
							bound = social.DefaultHeadBound
						}
						if err := svc.SetHeadBound(bound); err != nil {
							b.Fatal(err)
						}
						w.ratio(b)
					})
				}
			}
		})
	}
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// ratio times the two readers' pages alternately and reports both and merged/plain.
func (w mergeWorld) ratio(b *testing.B) {
	ctx := context.Background()
	var plain, merged time.Duration
	page := func(reader string) time.Duration {
		start := time.Now()
		p, err := w.svc.Timeline(ctx, reader, "", domain.DefaultPageSize)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Tweets) != domain.DefaultPageSize {
			b.Fatalf("%s: a page of %d tweets", reader, len(p.Tweets))
		}
		return time.Since(start)
	}
	n := 0
	for b.Loop() {
		if n%2 == 0 {
			plain += page(w.plain)
			merged += page(w.merged)
		} else {
			merged += page(w.merged)
			plain += page(w.plain)
		}
		n++
	}
	b.ReportMetric(float64(plain.Nanoseconds())/float64(n), "plain-ns/page")
	b.ReportMetric(float64(merged.Nanoseconds())/float64(n), "merged-ns/page")
	b.ReportMetric(float64(merged)/float64(plain), "merged/plain")
}
