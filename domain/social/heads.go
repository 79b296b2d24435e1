package social

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"twissandra/domain"
)

// The heads of the pulled authors' userlines, kept in the server and shared by every reader.
//
// A pulled author is followed by many, and the newest entries of its userline are the same for
// all of them: a merged home page takes them from here instead of slicing the userline again.
// What a head may lack, and for how long:
//   - a post made through this Service is put into its author's head as soon as its Append has
//     succeeded: this server's own posts are in every page it serves from then on;
//   - a post made by another server (another Service on the same cluster) is not seen until the
//     head is read again, which happens at the first merge after the head's bound has passed
//     since it was read (HeadBound, 1 s by default): another server's post reaches this
//     server's merged pages within that bound.
//
// A head holds HeadSize entries, a default page and the one past it, so that a first page of the
// default size merges from memory alone; a page further down reads the rest from the store, as
// the merge always did. Each model keeps its own heads (compare mode runs a page's plan on each
// model's lines: the heads are kept by the lines' LinesID), and a head is read from the same
// lines the page is merged from.

// HeadSize is how many of a pulled author's newest userline entries the server keeps.
const HeadSize = domain.DefaultPageSize + 1

// DefaultHeadBound is how long a head read from the store is used before it is read again: how
// late another server's post may reach this server's merged pages.
const DefaultHeadBound = time.Second

// maxHeads bounds the heads one model keeps: the pulled authors are the few above the
// threshold, by construction; past it, the heads read longest ago are dropped.
const maxHeads = 4096

// head is the newest entries of one userline, as read at read (plus this server's posts since).
type head struct {
	entries []domain.LineEntry // newest first; never changed in place (readers hold it)
	whole   bool               // the userline holds nothing older than the last entry
	read    time.Time
}

// newest is the time of h's newest entry (0: it holds none).
func (h *head) newest() int64 {
	if len(h.entries) == 0 {
		return 0
	}
	return h.entries[0].Time
}

// heads are the heads of one model's lines.
type heads struct {
	authors map[string]*head
	gen     uint64                 // changed with authors (or any head in it)
	plans   map[string]*readerPlan // by reader: its pulled authors' heads, looked up once
}

// readerPlan is what a reader's merges find in the heads while nothing changes: every pulled
// author's head, and the authors in the order of their newest entry, so that a merge stops at
// the first author older than its page and never looks at the rest.
type readerPlan struct {
	pulled  []domain.Follow // as PulledFriends gave them
	gen     uint64
	oldest  time.Time // the oldest read of its heads: the plan is fresh while that one is
	heads   []*head   // aligned with pulled
	byNewer []int     // indexes of pulled, newest head first
}

// maxPlans bounds the readers' plans one model keeps: past it, they are dropped at once.
const maxPlans = 1 << 14

// headCache keeps the heads of each model's lines.
type headCache struct {
	mu     sync.Mutex
	bound  time.Duration // 0: no heads kept (every merge slices every userline)
	models map[domain.LinesID]*heads
	posts  uint64 // this server's posts put so far: a head read across one is not kept
}

// SetHeadBound sets how long a pulled author's userline head is used before it is read again
// (how late another server's posts may show on this server's merged pages); 0 keeps no heads,
// so every merged page slices every pulled author's userline. A negative bound is refused.
func (s *Service) SetHeadBound(d time.Duration) error {
	if d < 0 {
		return domain.Invalid("head-bound", "must be 0 (no cache) or more")
	}
	s.heads.mu.Lock()
	defer s.heads.mu.Unlock()
	s.heads.bound = d
	if d == 0 {
		s.heads.models = nil
	}
	return nil
}

// HeadBound is the bound SetHeadBound set.
func (s *Service) HeadBound() time.Duration {
	s.heads.mu.Lock()
	defer s.heads.mu.Unlock()
	return s.heads.bound
}

// HeadInfo is what the server keeps of one pulled author's userline, for the teaching view.
type HeadInfo struct {
	Author  string
	Entries int           // entries kept
	Whole   bool          // the userline holds no more than these
	Newest  time.Time     // the newest entry's time (zero: none)
	Age     time.Duration // since the head was read from the store
	Fresh   bool          // younger than the bound: a page uses it without reading
}

// Heads lists the heads the server keeps of the first model's lines (the one whose pages are
// shown), newest read first.
func (s *Service) Heads() []HeadInfo {
	now := s.clock.Now()
	s.heads.mu.Lock()
	defer s.heads.mu.Unlock()
	var most *heads
	for _, m := range s.heads.models {
		if most == nil || len(m.authors) > len(most.authors) {
			most = m
		}
	}
	if most == nil {
		return nil
	}
	out := make([]HeadInfo, 0, len(most.authors))
	for a, h := range most.authors {
		i := HeadInfo{Author: a, Entries: len(h.entries), Whole: h.whole, Age: now.Sub(h.read), Fresh: now.Sub(h.read) < s.heads.bound}
		if len(h.entries) > 0 {
			i.Newest = domain.TimeFromMicros(h.entries[0].Time)
		}
		out = append(out, i)
	}
	slices.SortFunc(out, func(a, b HeadInfo) int { return cmp.Or(cmp.Compare(a.Age, b.Age), cmp.Compare(a.Author, b.Author)) })
	return out
}

// headView is one merge's view of one model's heads: the fresh heads it found, and what it
// needs to keep the heads it reads.
type headView struct {
	c     *headCache
	key   domain.LinesID
	now   time.Time
	posts uint64
}

// view returns the merge's view of lines' heads; ok is false when none are used: a bound of 0,
// a page read WithoutHeads (skip), or lines that name no lines (domain.NoLinesID).
func (c *headCache) view(lines domain.PageLines, skip bool, now time.Time) (headView, bool) {
	if skip {
		return headView{}, false
	}
	key := lines.LinesID()
	if key == domain.NoLinesID {
		return headView{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bound == 0 {
		return headView{}, false
	}
	return headView{c: c, key: key, now: now, posts: c.posts}, true
}

// freshOf returns the heads of reader's pulled authors read less than the bound ago, aligned
// with pulled (nil: missing, or too old), under one lock; and, when all are fresh, the authors
// newest first (byNewer). A reader's next merge with the same heads looks nothing up.
func (v headView) freshOf(reader string, pulled []domain.Follow) (fresh []*head, byNewer []int) {
	v.c.mu.Lock()
	defer v.c.mu.Unlock()
	m := v.c.models[v.key]
	if m == nil {
		return make([]*head, len(pulled)), nil
	}
	if p, ok := m.plans[reader]; ok && p.gen == m.gen && v.now.Sub(p.oldest) < v.c.bound && samePulled(p.pulled, pulled) {
		return p.heads, p.byNewer
	}
	fresh = make([]*head, len(pulled))
	all := true
	var oldest time.Time
	for i, f := range pulled {
		if h, ok := m.authors[f.Username]; ok && v.now.Sub(h.read) < v.c.bound && !v.now.Before(h.read) {
			fresh[i] = h
			if oldest.IsZero() || h.read.Before(oldest) {
				oldest = h.read
			}
		} else {
			all = false
		}
	}
	if !all || len(pulled) == 0 {
		return fresh, nil
	}
	byNewer = make([]int, len(pulled))
	for i := range byNewer {
		byNewer[i] = i
	}
	slices.SortStableFunc(byNewer, func(a, b int) int { return cmp.Compare(fresh[b].newest(), fresh[a].newest()) })
	if m.plans == nil || len(m.plans) >= maxPlans {
		m.plans = map[string]*readerPlan{}
	}
	m.plans[reader] = &readerPlan{pulled: pulled, gen: m.gen, oldest: oldest, heads: fresh, byNewer: byNewer}
	return fresh, byNewer
}

// samePulled says whether two lists of follows are the same: the same follows, in order. Two
// lists at one address are the same without a look at their follows, since PulledFriends' lists
// are read-only (a store that keeps a reader's list hands the same one to every page).
func samePulled(a, b []domain.Follow) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if a[i].Username != b[i].Username || !a[i].Since.Equal(b[i].Since) {
			return false
		}
	}
	return true
}

// keep stores heads just read (author -> the newest HeadSize entries), unless this server
// posted since the view was taken: such a head may lack the post, and is read again next time.
func (v headView) keep(read map[string][]domain.LineEntry) {
	if len(read) == 0 {
		return
	}
	v.c.mu.Lock()
	defer v.c.mu.Unlock()
	if v.c.posts != v.posts || v.c.bound == 0 {
		return
	}
	if v.c.models == nil {
		v.c.models = map[domain.LinesID]*heads{}
	}
	m := v.c.models[v.key]
	if m == nil {
		m = &heads{authors: map[string]*head{}}
		v.c.models[v.key] = m
	}
	for a, es := range read {
		if _, ok := m.authors[a]; !ok && len(m.authors) >= maxHeads {
			m.evictOldest()
		}
		m.authors[a] = &head{entries: es, whole: len(es) < HeadSize, read: v.now}
	}
	m.gen++
}

// evictOldest drops the head read longest ago.
func (m *heads) evictOldest() {
	var oldest string
	var at time.Time
	for a, h := range m.authors {
		if oldest == "" || h.read.Before(at) {
			oldest, at = a, h.read
		}
	}
	delete(m.authors, oldest)
}

// posted puts an entry this server just wrote into its author's userline into every model's
// head of that author (one read ago or not: the post is in the store now, as in the head).
func (c *headCache) posted(author string, e domain.LineEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.posts++
	for _, m := range c.models {
		if h, ok := m.authors[author]; ok {
			m.authors[author] = h.with(e)
			m.gen++
		}
	}
}

// forget drops every model's head of author: a write to its userline that may have half
// happened.
func (c *headCache) forget(author string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.posts++
	for _, m := range c.models {
		delete(m.authors, author)
		m.gen++
	}
}

// with returns a copy of h with e in its place (newest first), at most HeadSize entries.
func (h *head) with(e domain.LineEntry) *head {
	i, found := slices.BinarySearchFunc(h.entries, e.Time, func(x domain.LineEntry, t int64) int { return cmp.Compare(t, x.Time) })
	if found {
		return h
	}
	if i == len(h.entries) && !h.whole && len(h.entries) > 0 {
		return h // older than the head's oldest, and the line goes on past it: not the head's
	}
	out := make([]domain.LineEntry, 0, min(len(h.entries)+1, HeadSize))
	out = append(out, h.entries[:i]...)
	out = append(out, e)
	out = append(out, h.entries[i:]...)
	whole := h.whole
	if len(out) > HeadSize {
		out, whole = out[:HeadSize], false
	}
	return &head{entries: out, whole: whole, read: h.read}
}

// carry gives the heads' entries without their tweet (read from a store whose lines keep IDs
// only) the tweets a page just read for them. Only with one model: in compare mode each model
// reads its own tweets, so that the second is compared, not handed the first's.
func (c *headCache) carry(entries []domain.LineEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.models) != 1 {
		return
	}
	for _, m := range c.models {
		for _, e := range entries {
			if e.Tweet == nil {
				continue
			}
			h, ok := m.authors[e.Tweet.Username]
			if !ok {
				continue
			}
			i, found := slices.BinarySearchFunc(h.entries, e.Time, func(x domain.LineEntry, t int64) int { return cmp.Compare(t, x.Time) })
			if !found || h.entries[i].Tweet != nil || h.entries[i].TweetID != e.TweetID {
				continue
			}
			// A copy with the tweet: readers may hold the old entries.
			es := slices.Clone(h.entries)
			for j := i; j < len(es); j++ { // the rest of the page's entries of this author too
				es[j].Tweet = tweetOf(entries, es[j])
			}
			m.authors[e.Tweet.Username] = &head{entries: es, whole: h.whole, read: h.read}
			m.gen++
		}
	}
}

// tweetOf is the tweet entries carry for e (by time and ID), or e's own.
func tweetOf(entries []domain.LineEntry, e domain.LineEntry) *domain.Tweet {
	if e.Tweet != nil {
		return e.Tweet
	}
	for _, x := range entries {
		if x.Time == e.Time && x.TweetID == e.TweetID {
			return x.Tweet
		}
	}
	return nil
}
