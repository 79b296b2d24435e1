package social

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"twissandra/adapters/memory"
	"twissandra/domain"
)

// countingLines is the memory store whose line reads are counted by kind, and which runs its
// pages' plans on itself (so its merged pages slice through the counter).
type countingLines struct {
	*memory.Store
	userline, timeline atomic.Int64
}

func (c *countingLines) count(l domain.LineKey) {
	switch l.Kind {
	case domain.Userline:
		c.userline.Add(1)
	case domain.Timeline:
		c.timeline.Add(1)
	}
}

func (c *countingLines) Slice(ctx context.Context, line domain.LineKey, before int64, limit int) ([]domain.LineEntry, error) {
	c.count(line)
	return c.Store.Slice(ctx, line, before, limit)
}

func (c *countingLines) SliceMany(ctx context.Context, reqs []domain.LineSlice) ([][]domain.LineEntry, error) {
	out := make([][]domain.LineEntry, len(reqs))
	for i, r := range reqs {
		var err error
		if out[i], err = c.Slice(ctx, r.Line, r.Before, r.Limit); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ReadPage is the memory store's, with the plan run on c (whose lines are the store's, by the
// store's LinesID).
func (c *countingLines) ReadPage(ctx context.Context, limit int, plan domain.PagePlan) ([]domain.LineEntry, error) {
	return c.Store.ReadPage(ctx, limit, func(ctx context.Context, _ domain.PageLines) ([]domain.LineEntry, error) {
		return plan(ctx, c)
	})
}

// switchedLines are the counting lines whose pages' plans read them under the LinesID id: a
// test names them as another store's, or as no lines.
type switchedLines struct {
	*countingLines
	id domain.LinesID
}

// renamedLines are lines under another LinesID.
type renamedLines struct {
	*countingLines
	id domain.LinesID
}

func (r renamedLines) LinesID() domain.LinesID { return r.id }

func (s *switchedLines) ReadPage(ctx context.Context, limit int, plan domain.PagePlan) ([]domain.LineEntry, error) {
	return s.countingLines.ReadPage(ctx, limit, func(ctx context.Context, _ domain.PageLines) ([]domain.LineEntry, error) {
		return plan(ctx, renamedLines{s.countingLines, s.id})
	})
}

// stepClock is a clock a test moves.
type stepClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stepClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// celebrityWorld: star is pulled (threshold 1, two followers), friend is pushed; reader follows
// both, fan follows star only.
type celebrityWorld struct {
	lines *countingLines
	svc   *Service
}

func newCelebrityWorld(t *testing.T, clock domain.Clock) celebrityWorld {
	t.Helper()
	st := memory.New()
	w := celebrityWorld{lines: &countingLines{Store: st}}
	w.svc = New(st, st, w.lines, clock, domain.NewPasswordHasher(4))
	ctx := context.Background()
	for _, u := range []string{"star", "friend", "reader", "fan"} {
		if _, err := w.svc.SignUp(ctx, u, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range [][2]string{{"reader", "star"}, {"reader", "friend"}, {"fan", "star"}} {
		if err := w.svc.Follow(ctx, f[0], f[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.svc.SetPullThreshold(1); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w celebrityWorld) post(t *testing.T, svc *Service, who string, n int, prefix string) {
	t.Helper()
	for i := range n {
		if _, err := svc.Post(context.Background(), who, fmt.Sprintf("%s%d", prefix, i)); err != nil {
			t.Fatal(err)
		}
	}
}

// page reads reader's home page through svc, and says what the merge read and how many
// userline slices reached the store.
func (w celebrityWorld) page(t *testing.T, svc *Service, reader, start string, limit int) (TweetPage, MergeStats, int64) {
	t.Helper()
	var st MergeStats
	before := w.lines.userline.Load()
	p, err := svc.Timeline(context.Background(), reader, start, limit, WithMergeStats(&st))
	if err != nil {
		t.Fatal(err)
	}
	return p, st, w.lines.userline.Load() - before
}

func bodies(p TweetPage) string {
	out := make([]string, len(p.Tweets))
	for i, tw := range p.Tweets {
		out[i] = tw.Body
	}
	return strings.Join(out, " ")
}

// A pulled author's head is read once and then shared: the next page, and another reader's,
// take it from the server without a userline read, and show the same tweets. A post through the
// same server is on every page at once, an imported old one in its place.
func TestHeadsAnswerMergedPagesAndOwnPostsAtOnce(t *testing.T) {
	t.Parallel()
	clock := &stepClock{now: time.Now()}
	w := newCelebrityWorld(t, clock)
	clock.add(time.Second) // past the follows' since
	w.post(t, w.svc, "star", 3, "s")
	w.post(t, w.svc, "friend", 2, "f")
	first, st, reads := w.page(t, w.svc, "reader", "", 10)
	if st.HeadsRead != 1 || st.FromHeads != 0 || reads != 1 {
		t.Fatalf("first page: %+v, %d userline slices; want the head read once", st, reads)
	}
	if got := bodies(first); got != "f1 f0 s2 s1 s0" {
		t.Fatalf("first page %q", got)
	}
	again, st, reads := w.page(t, w.svc, "reader", "", 10)
	if st.FromHeads != 1 || st.HeadsRead != 0 || reads != 0 || st.Slices != 1 || bodies(again) != bodies(first) {
		t.Fatalf("second page: %+v, %d userline slices, %q; want the head from memory, only the timeline read, the same page", st, reads, bodies(again))
	}
	fan, st, reads := w.page(t, w.svc, "fan", "", 10)
	if st.FromHeads != 1 || reads != 0 || bodies(fan) != "s2 s1 s0" {
		t.Fatalf("another reader's page: %+v, %d userline slices, %q; want star's head shared", st, reads, bodies(fan))
	}
	w.post(t, w.svc, "star", 1, "new")
	old, err := w.svc.PostAt(context.Background(), "star", "old", clock.Now().Add(-time.Second/2))
	if err != nil {
		t.Fatal(err)
	}
	fresh, st, reads := w.page(t, w.svc, "fan", "", 10)
	if st.FromHeads != 1 || reads != 0 || bodies(fresh) != "new0 s2 s1 s0 "+old.Body {
		t.Fatalf("after this server's posts: %+v, %d userline slices, %q; want both at once, from memory", st, reads, bodies(fresh))
	}
}

// Another server's post (another Service on the same store) reaches this server's merged pages
// once the head's bound has passed since it was read, and not before; with no heads kept
// (bound 0), at once, each page reading the userline.
func TestHeadsOtherServersPostsWithinTheBound(t *testing.T) {
	t.Parallel()
	w := newCelebrityWorld(t, nil)
	clock := &stepClock{now: time.Now()}
	other := New(w.lines.Store, w.lines.Store, w.lines, clock, domain.NewPasswordHasher(4))
	w.post(t, w.svc, "star", 2, "s")
	if p, st, _ := w.page(t, other, "fan", "", 10); st.HeadsRead != 1 || bodies(p) != "s1 s0" {
		t.Fatalf("first read on the other server: %+v %q", st, bodies(p))
	}
	w.post(t, w.svc, "star", 1, "late")
	clock.add(DefaultHeadBound - time.Millisecond)
	if p, st, reads := w.page(t, other, "fan", "", 10); st.FromHeads != 1 || reads != 0 || bodies(p) != "s1 s0" {
		t.Fatalf("within the bound: %+v, %d reads, %q; want the head as read, without the other server's post", st, reads, bodies(p))
	}
	clock.add(time.Millisecond)
	if p, st, reads := w.page(t, other, "fan", "", 10); st.HeadsRead != 1 || reads != 1 || bodies(p) != "late0 s1 s0" {
		t.Fatalf("at the bound: %+v, %d reads, %q; want the head read again, with the post", st, reads, bodies(p))
	}
	if err := other.SetHeadBound(-time.Second); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("SetHeadBound(-1s) = %v, want invalid", err)
	}
	if err := other.SetHeadBound(0); err != nil {
		t.Fatal(err)
	}
	w.post(t, w.svc, "star", 1, "now")
	for range 2 {
		if p, st, reads := w.page(t, other, "fan", "", 10); st.FromHeads+st.HeadsRead != 0 || reads != 1 || bodies(p) != "now0 late0 s1 s0" {
			t.Fatalf("no heads: %+v, %d reads, %q; want every page to slice the userline", st, reads, bodies(p))
		}
	}
	if len(other.Heads()) != 0 {
		t.Fatalf("bound 0 keeps heads: %+v", other.Heads())
	}
}

// An author whose newest post is older than the page's oldest entry costs a page nothing; the
// page that reaches its posts shows them in their place.
func TestMergeSkipsAuthorsQuietInThePagesWindow(t *testing.T) {
	t.Parallel()
	w := newCelebrityWorld(t, nil)
	w.post(t, w.svc, "star", 1, "quiet")
	w.post(t, w.svc, "friend", 45, "f")
	w.page(t, w.svc, "reader", "", 40) // reads star's head
	p, st, reads := w.page(t, w.svc, "reader", "", 40)
	if st.Skipped != 1 || st.FromHeads != 0 || reads != 0 || st.Slices != 1 || len(p.Tweets) != 40 || strings.Contains(bodies(p), "quiet") {
		t.Fatalf("page 1: %+v, %d userline reads, %d tweets; want star skipped, one slice", st, reads, len(p.Tweets))
	}
	next, st, _ := w.page(t, w.svc, "reader", p.Next, 40)
	if got := bodies(next); got != "f4 f3 f2 f1 f0 quiet0" || next.Next != "" || st.Skipped != 0 || st.FromHeads != 1 {
		t.Fatalf("page 2: %q (next %q), %+v; want the rest and star's post", got, next.Next, st)
	}
	if hs := w.svc.Heads(); len(hs) != 1 || hs[0].Author != "star" || hs[0].Entries != 1 || !hs[0].Whole || !hs[0].Fresh {
		t.Fatalf("Heads() = %+v", hs)
	}
}

// A head takes entries in time order whatever order they come in, keeps the newest HeadSize,
// and refuses an entry older than its oldest when the line goes on past it.
func TestHeadWithKeepsTheNewest(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var all []int64
		h := &head{whole: true}
		for range rng.IntN(3 * HeadSize) {
			tm := rng.Int64N(500) + 1
			h = h.with(domain.LineEntry{Time: tm})
			if !slices.Contains(all, tm) {
				all = append(all, tm)
			}
		}
		slices.Sort(all)
		slices.Reverse(all)
		want := all[:min(len(all), HeadSize)]
		got := make([]int64, len(h.entries))
		for i, e := range h.entries {
			got[i] = e.Time
		}
		if !slices.Equal(got, want) || h.whole != (len(all) <= HeadSize) {
			t.Fatalf("round %d: head %v (whole %v), want %v (whole %v)", round, got, h.whole, want, len(all) <= HeadSize)
		}
		if !h.whole {
			if after := h.with(domain.LineEntry{Time: got[len(got)-1] - 1}); after != h {
				t.Fatalf("round %d: an entry older than a cut head's oldest was taken", round)
			}
		}
	}
}

// A merge looks only at the heads its page reaches: the heads join newest first, each when the
// merge comes down to its newest entry, so a reader following many pulled authors pays for the
// page's entries, not for every author (here the timeline is empty: each head joins only when
// no entry is left).
func TestMergeLooksOnlyAtTheHeadsItsPageReaches(t *testing.T) {
	t.Parallel()
	st := memory.New()
	lines := &countingLines{Store: st}
	svc := New(st, st, lines, nil, domain.NewPasswordHasher(4))
	w := celebrityWorld{lines: lines, svc: svc}
	ctx := context.Background()
	const authors = 30
	for _, u := range []string{"reader", "fan"} {
		if _, err := svc.SignUp(ctx, u, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	for i := range authors {
		a := fmt.Sprintf("c%d", i)
		if _, err := svc.SignUp(ctx, a, "password1"); err != nil {
			t.Fatal(err)
		}
		for _, r := range []string{"reader", "fan"} {
			if err := svc.Follow(ctx, r, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := svc.SetPullThreshold(1); err != nil {
		t.Fatal(err)
	}
	for i := range authors {
		w.post(t, svc, fmt.Sprintf("c%d", i), 1, fmt.Sprintf("p%d-", i))
	}
	if _, first, reads := w.page(t, svc, "reader", "", 5); first.HeadsRead != authors || reads != authors {
		t.Fatalf("first page: %+v, %d userline reads; want every head read once", first, reads)
	}
	p, got, reads := w.page(t, svc, "reader", "", 5)
	if b := bodies(p); b != "p29-0 p28-0 p27-0 p26-0 p25-0" || reads != 0 {
		t.Fatalf("page 1: %q, %d userline reads", b, reads)
	}
	// Six entries are taken (the page and the one that says there is a next): six heads.
	if got.FromHeads != 6 || got.Skipped != authors-6 || got.HeadsRead != 0 {
		t.Fatalf("page 1 looked at %+v; want 6 heads from the server and %d never looked at", got, authors-6)
	}
	next, got, _ := w.page(t, svc, "reader", p.Next, 5)
	if b := bodies(next); b != "p24-0 p23-0 p22-0 p21-0 p20-0" || got.FromHeads > 12 {
		t.Fatalf("page 2: %q, %+v", b, got)
	}
}

// The merge's heap gives its cursors' entries newest first, and on equal times the cursor
// that came first.
func TestCursorHeapOrder(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		var h cursorHeap
		var want [][2]int64
		for i := range rng.IntN(40) + 1 {
			tm := rng.Int64N(20)
			h.push(&lineCursor{buf: []domain.LineEntry{{Time: tm}}, order: i})
			want = append(want, [2]int64{tm, int64(i)})
		}
		slices.SortFunc(want, func(a, b [2]int64) int {
			if a[0] != b[0] {
				return int(b[0] - a[0])
			}
			return int(a[1] - b[1])
		})
		for _, w := range want {
			c := h[0]
			if c.buf[0].Time != w[0] || int64(c.order) != w[1] {
				t.Fatalf("top (%d, %d), want %v", c.buf[0].Time, c.order, w)
			}
			h.popTop()
		}
		if len(h) != 0 {
			t.Fatalf("%d cursors left", len(h))
		}
	}
}

// The heads are kept by the LinesID of the lines a page is read from: another store's lines (the
// second model of compare mode) find none of the first's and keep their own, and lines that name
// none keep none. A page read WithoutHeads slices every pulled author's userline, and keeps
// nothing for the next.
func TestHeadsAreKeptByTheLinesID(t *testing.T) {
	t.Parallel()
	clock := &stepClock{now: time.Now()}
	w := newCelebrityWorld(t, clock)
	clock.add(time.Second) // past the follows' since; the heads stay fresh from then on
	w.post(t, w.svc, "star", 2, "s")
	lines := &switchedLines{countingLines: w.lines, id: domain.NewLinesID()}
	svc := New(w.lines.Store, w.lines.Store, lines, clock, domain.NewPasswordHasher(4))
	read := func(what string, wantReads int64, opts ...PageOption) {
		t.Helper()
		before := w.lines.userline.Load()
		p, err := svc.Timeline(context.Background(), "fan", "", 10, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if reads := w.lines.userline.Load() - before; reads != wantReads || bodies(p) != "s1 s0" {
			t.Fatalf("%s: %d userline slices, %q; want %d slices, s1 s0", what, reads, bodies(p), wantReads)
		}
	}
	first := lines.id
	read("the first page of the first lines", 1)
	read("the first lines again", 0)
	lines.id = domain.NewLinesID()
	read("another store's lines", 1)
	read("another store's lines again", 0)
	lines.id = first
	read("the first lines once more", 0)
	read("the first lines without the heads", 1, WithoutHeads())
	lines.id = domain.NewLinesID()
	read("new lines without the heads", 1, WithoutHeads())
	read("the new lines after a page without the heads", 1)
	lines.id = domain.NoLinesID
	read("lines that name none", 1)
	read("lines that name none again", 1)
}
