package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/tools/seed"
)

func memoryService() (*social.Service, *memory.Store) {
	st := memory.New()
	return social.New(st, st, st, nil, domain.NewPasswordHasher(4)), st
}

// RunCelebrity measures what it says on the memory store: the hybrid's post to more followers
// than the threshold writes one timeline, the pushed one writes them all, and the pages and the
// plot come out whole.
func TestRunCelebrity(t *testing.T) {
	t.Parallel()
	svc, st := memoryService()
	settled := 0
	res, err := RunCelebrity(context.Background(), CelebrityConfig{
		Backend: "memory", Social: svc, Users: st, Counts: []int{10, 100}, Posts: 3, Threshold: 50, Pulled: []int{0, 1, 3}, Pages: 5,
		Settle: func(context.Context) error { settled++; return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if settled != 5 { // before each count's push and hybrid posts, and before the pages
		t.Errorf("the store was settled %d times, want 5", settled)
	}
	want := []string{"10 push false 11", "10 hybrid false 11", "100 push false 101", "100 hybrid true 1"}
	var got []string
	for _, p := range res.Posts {
		got = append(got, fmt.Sprintf("%d %s %v %d", p.Followers, p.Mode, p.Pulled, p.Timelines))
		if p.Median <= 0 {
			t.Errorf("%+v: no time measured", p)
		}
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Fatalf("posts %v, want %v", got, want)
	}
	if len(res.Pages) != 3 || res.Pages[2].Pulled != 3 || res.Pages[2].Median <= 0 {
		t.Fatalf("pages %+v", res.Pages)
	}
	if svc.PullThreshold() != 0 {
		t.Fatalf("the threshold was left at %d", svc.PullThreshold())
	}
	if table := res.Table(); !strings.Contains(table, "hybrid post, 100 followers / 10 followers") || !strings.Contains(table, " hybrid*") {
		t.Fatalf("table:\n%s", table)
	}
	var svg bytes.Buffer
	if err := WriteCelebritySVG(&svg, "celebrity <test>", []CelebrityResult{res, res}); err != nil {
		t.Fatal(err)
	}
	if lines := polylines(t, &svg); lines != 6 { // push, hybrid and pages, of two results
		t.Fatalf("%d curves, want 6", lines)
	}
}

// A store that cannot settle stops the measurement with its error.
func TestRunCelebritySettleError(t *testing.T) {
	t.Parallel()
	svc, st := memoryService()
	broken := errors.New("no compaction today")
	_, err := RunCelebrity(context.Background(), CelebrityConfig{
		Backend: "memory", Social: svc, Users: st, Counts: []int{10}, Posts: 1, Threshold: 5, Pulled: []int{0}, Pages: 1,
		Settle: func(context.Context) error { return broken },
	})
	if !errors.Is(err, broken) {
		t.Fatalf("RunCelebrity = %v, want the settle error", err)
	}
}

func TestRunCelebrityRefuses(t *testing.T) {
	t.Parallel()
	svc, st := memoryService()
	ok := CelebrityConfig{Social: svc, Users: st, Counts: []int{10}, Posts: 1, Threshold: 5, Pulled: []int{0}, Pages: 1}
	for name, edit := range map[string]func(*CelebrityConfig){
		"no counts":        func(c *CelebrityConfig) { c.Counts = nil },
		"descending":       func(c *CelebrityConfig) { c.Counts = []int{100, 10} },
		"too many":         func(c *CelebrityConfig) { c.Counts = []int{seed.MaxCelebrityFans + 1} },
		"no posts":         func(c *CelebrityConfig) { c.Posts = 0 },
		"no threshold":     func(c *CelebrityConfig) { c.Threshold = 0 },
		"negative pulled":  func(c *CelebrityConfig) { c.Pulled = []int{-1} },
		"no store to seed": func(c *CelebrityConfig) { c.Users = nil },
	} {
		c := ok
		edit(&c)
		if _, err := RunCelebrity(context.Background(), c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// BenchmarkCelebrityPost posts as an author with 100 to 100,000 followers on the memory store,
// pushed to everyone and pulled (threshold 1,000).
func BenchmarkCelebrityPost(b *testing.B) {
	for _, n := range []int{100, 10_000, 100_000} {
		svc, st := memoryService()
		if err := seed.Celebrity(context.Background(), st, "star", n, 8, nil); err != nil {
			b.Fatal(err)
		}
		for _, mode := range []struct {
			name      string
			threshold int64
		}{{"push", 0}, {"hybrid", 1000}} {
			b.Run(fmt.Sprintf("followers=%d/%s", n, mode.name), func(b *testing.B) {
				if err := svc.SetPullThreshold(mode.threshold); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if _, err := svc.Post(context.Background(), "star", "hello"); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
