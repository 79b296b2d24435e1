package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports"
	"twissandra/tools/seed"
)

// The celebrity problem, measured: what a post costs against the author's follower count,
// pushed to every follower or under the hybrid fan-out, and what a home-timeline page costs
// against the number of pulled authors its reader follows (domain/social/fanout.go).

// CelebrityConfig says what RunCelebrity measures, on one backend.
type CelebrityConfig struct {
	Backend   string // a label for the report
	Social    *social.Service
	Users     ports.UserStore
	Counts    []int // follower counts, ascending
	Posts     int   // posts timed per count and mode (a tenth, at least 2, when pushing to 100,000 or more)
	Threshold int64 // the hybrid's pull threshold
	Pulled    []int // pulled authors followed by the readers of the page measurement
	Pages     int   // pages timed per reader
	// Concurrency bounds the follows in flight while the followers are made; 0 means 8.
	Concurrency int
	// Bar, when set, shows the making of the followers: it returns the function to call after
	// each one and the one to call at the end.
	Bar func(total int64, unit string) (add func(), finish func())
	// Settle, when set, is called before each set of timed posts and before the pages: the
	// storage finishes what the writes before left it (widerow: a flush and a compaction), so
	// that a timing is not of the background work of the writes before it.
	Settle func(context.Context) error
	Log    io.Writer
}

// PostPoint is the cost of a post by an author with Followers followers.
type PostPoint struct {
	Followers int           `json:"followers"`
	Mode      string        `json:"mode"`   // "push" or "hybrid"
	Pulled    bool          `json:"pulled"` // the hybrid pulled the author
	Median    time.Duration `json:"median_ns"`
	Timelines int           `json:"timelines"` // timelines one post wrote: the author's own and the followers' pushed to
	// PeakRSS is how much the process's peak resident memory rose over the posts, in bytes
	// (Linux; -1 elsewhere).
	PeakRSS int64 `json:"peak_rss_bytes"`
}

// PagePoint is the cost of a home-timeline page of 40 for a reader following Pulled pulled
// authors (and ten pushed ones).
type PagePoint struct {
	Pulled int           `json:"pulled"`
	Median time.Duration `json:"median_ns"`
}

// CelebrityResult is one backend's figures.
type CelebrityResult struct {
	Backend   string      `json:"backend"`
	Threshold int64       `json:"threshold"`
	Posts     []PostPoint `json:"posts"`
	Pages     []PagePoint `json:"pages"`
}

// settle calls Settle, when set.
func (c *CelebrityConfig) settle(ctx context.Context) error {
	if c.Settle == nil {
		return nil
	}
	return c.Settle(ctx)
}

func (c *CelebrityConfig) check() error {
	switch {
	case c.Social == nil || c.Users == nil:
		return errors.New("celebrity: no service or user store")
	case len(c.Counts) == 0 || !slices.IsSorted(c.Counts) || c.Counts[0] < 0 || c.Counts[len(c.Counts)-1] > seed.MaxCelebrityFans:
		return fmt.Errorf("celebrity: follower counts %v: want ascending counts of 0 to %d", c.Counts, seed.MaxCelebrityFans)
	case c.Posts < 1 || c.Pages < 1:
		return fmt.Errorf("celebrity: %d posts and %d pages: want at least 1 of each", c.Posts, c.Pages)
	case c.Threshold < 1:
		return fmt.Errorf("celebrity: pull threshold %d: the hybrid needs one of at least 1", c.Threshold)
	case slices.ContainsFunc(c.Pulled, func(n int) bool { return n < 0 || n > 100 }):
		return fmt.Errorf("celebrity: pulled authors followed %v: want 0 to 100 each", c.Pulled)
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	return nil
}

// RunCelebrity makes an author with each follower count in turn (the followers of the smaller
// counts kept), times posts by it pushed to everyone and under the hybrid, then times the
// pages of readers following pulled authors. It leaves the service's threshold as it found it.
func RunCelebrity(ctx context.Context, cfg CelebrityConfig) (CelebrityResult, error) {
	if err := cfg.check(); err != nil {
		return CelebrityResult{}, err
	}
	svc := cfg.Social
	defer func(t int64) { _ = svc.SetPullThreshold(t) }(svc.PullThreshold())
	res := CelebrityResult{Backend: cfg.Backend, Threshold: cfg.Threshold}
	run := strconv.FormatUint(rand.Uint64()%1e6, 36)
	celeb := "celeb" + run
	made := 0
	for _, n := range cfg.Counts {
		add, finish := func() {}, func() {}
		if cfg.Bar != nil {
			add, finish = cfg.Bar(int64(n-made), fmt.Sprintf("followers of %s", celeb))
		}
		err := seed.Celebrity(ctx, cfg.Users, celeb, n, cfg.Concurrency, add)
		finish()
		if err != nil {
			return res, err
		}
		made = n
		for _, mode := range []struct {
			name      string
			threshold int64
		}{{"push", 0}, {"hybrid", cfg.Threshold}} {
			if err := svc.SetPullThreshold(mode.threshold); err != nil {
				return res, err
			}
			f, err := svc.FanoutOf(ctx, celeb)
			if err != nil {
				return res, err
			}
			posts := cfg.Posts
			if !f.Pull && n >= 100_000 {
				posts = max(2, posts/10)
			}
			if err := cfg.settle(ctx); err != nil {
				return res, err
			}
			runtime.GC()
			base := resetPeakRSS()
			times := make([]time.Duration, posts)
			for i := range times {
				start := time.Now()
				if _, err := svc.Post(ctx, celeb, fmt.Sprintf("%s post %d to %d followers", mode.name, i, n)); err != nil {
					return res, err
				}
				times[i] = time.Since(start)
			}
			p := PostPoint{Followers: n, Mode: mode.name, Pulled: f.Pull, Median: median(times), Timelines: 1, PeakRSS: -1}
			if !f.Pull {
				p.Timelines += n
			}
			if base >= 0 {
				p.PeakRSS = max(0, peakRSS()-base)
			}
			res.Posts = append(res.Posts, p)
			fmt.Fprintf(cfg.Log, "%s: post to %d followers, %s%s: %v (median of %d)\n", cfg.Backend, n, mode.name, pulledWord(f.Pull), p.Median.Round(time.Microsecond), posts)
		}
	}
	pages, err := celebrityPages(ctx, cfg, run)
	res.Pages = pages
	return res, err
}

func pulledWord(pulled bool) string {
	if pulled {
		return " (pulled)"
	}
	return ""
}

// celebrityPages times the home-timeline pages of readers following ten pushed authors and
// k pulled ones, for each k of cfg.Pulled. The threshold of this part is the number of readers:
// the pushed authors have exactly that many followers, the pulled ones one more follower than
// that besides. What a merge costs depends on the pulled authors' lines, not on how many follow
// them.
func celebrityPages(ctx context.Context, cfg CelebrityConfig, run string) ([]PagePoint, error) {
	svc := cfg.Social
	if err := svc.SetPullThreshold(int64(len(cfg.Pulled))); err != nil {
		return nil, err
	}
	most := slices.Max(cfg.Pulled)
	mk := func(name string) error {
		_, err := svc.SignUp(ctx, name, seed.Password)
		return err
	}
	var pushed, pulled, fans []string
	for i := range 10 {
		pushed = append(pushed, fmt.Sprintf("pp%s_%d", run, i))
	}
	for i := range most {
		pulled = append(pulled, fmt.Sprintf("pq%s_%d", run, i))
	}
	for i := range len(cfg.Pulled) + 1 {
		fans = append(fans, fmt.Sprintf("pf%s_%d", run, i))
	}
	readers := make([]string, len(cfg.Pulled))
	for i, k := range cfg.Pulled {
		readers[i] = fmt.Sprintf("pr%s_%d", run, k)
	}
	for _, group := range [][]string{pushed, pulled, fans, readers} {
		for _, name := range group {
			if err := mk(name); err != nil {
				return nil, err
			}
		}
	}
	follow := func(who string, whom []string) error {
		for _, w := range whom {
			if err := svc.Follow(ctx, who, w); err != nil {
				return err
			}
		}
		return nil
	}
	for _, f := range fans {
		if err := follow(f, pulled); err != nil {
			return nil, err
		}
	}
	for i, r := range readers {
		if err := follow(r, append(slices.Clip(pushed), pulled[:cfg.Pulled[i]]...)); err != nil {
			return nil, err
		}
	}
	authors := append(slices.Clip(pushed), pulled...)
	for i := range 40 {
		for _, a := range authors {
			if _, err := svc.Post(ctx, a, fmt.Sprintf("tweet %d by %s", i, a)); err != nil {
				return nil, err
			}
		}
	}
	if err := cfg.settle(ctx); err != nil {
		return nil, err
	}
	var out []PagePoint
	for i, r := range readers {
		times := make([]time.Duration, cfg.Pages)
		for j := range times {
			start := time.Now()
			page, err := svc.Timeline(ctx, r, "", domain.DefaultPageSize)
			if err != nil {
				return nil, err
			}
			times[j] = time.Since(start)
			if len(page.Tweets) != domain.DefaultPageSize {
				return nil, fmt.Errorf("reader %s: a page of %d tweets, want %d", r, len(page.Tweets), domain.DefaultPageSize)
			}
		}
		p := PagePoint{Pulled: cfg.Pulled[i], Median: median(times)}
		out = append(out, p)
		fmt.Fprintf(cfg.Log, "%s: home timeline page of 40, %d pulled authors followed: %v (median of %d)\n", cfg.Backend, p.Pulled, p.Median.Round(time.Microsecond), cfg.Pages)
	}
	return out, nil
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// Table is the figures as text, with the ratios docs/celebrity.md quotes.
func (r CelebrityResult) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, pull threshold %d\n", r.Backend, r.Threshold)
	fmt.Fprintf(&b, "%12s %8s %12s %12s %14s\n", "followers", "mode", "post", "timelines", "peak RSS +MiB")
	for _, p := range r.Posts {
		rss := "-"
		if p.PeakRSS >= 0 {
			rss = fmt.Sprintf("%.1f", float64(p.PeakRSS)/(1<<20))
		}
		mode := p.Mode
		if p.Pulled {
			mode += "*"
		}
		fmt.Fprintf(&b, "%12d %8s %12v %12d %14s\n", p.Followers, mode, p.Median.Round(time.Microsecond), p.Timelines, rss)
	}
	b.WriteString("(* pulled)\n")
	if lo, hi, ok := r.hybridSpan(); ok {
		fmt.Fprintf(&b, "hybrid post, %d followers / %d followers: %.2fx\n", hi.Followers, lo.Followers, float64(hi.Median)/float64(lo.Median))
	}
	if len(r.Pages) > 0 {
		fmt.Fprintf(&b, "%12s %12s %12s\n", "pulled", "page", "rate vs 0")
		for _, p := range r.Pages {
			fmt.Fprintf(&b, "%12d %12v %12.2f\n", p.Pulled, p.Median.Round(time.Microsecond), float64(r.Pages[0].Median)/float64(p.Median))
		}
	}
	return b.String()
}

// hybridSpan is the hybrid's posts with the fewest and the most followers.
func (r CelebrityResult) hybridSpan() (lo, hi PostPoint, ok bool) {
	var hy []PostPoint
	for _, p := range r.Posts {
		if p.Mode == "hybrid" {
			hy = append(hy, p)
		}
	}
	if len(hy) < 2 {
		return lo, hi, false
	}
	return hy[0], hy[len(hy)-1], true
}

// resetPeakRSS resets the kernel's record of this process's peak resident set and returns the
// resident set now, in bytes; -1 where the kernel cannot (not Linux, or before 4.0).
func resetPeakRSS() int64 {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return -1
	}
	return procStatus("VmRSS:")
}

// peakRSS is the peak resident set since the last reset, in bytes.
func peakRSS() int64 { return procStatus("VmHWM:") }

func procStatus(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return n << 10
				}
			}
		}
	}
	return -1
}
