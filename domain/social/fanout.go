package social

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"twissandra/domain"
)

// Hybrid fan-out: the answer to the celebrity problem.
//
// Fan-out on write, the seeds' design, copies a post into the timeline of every follower so
// that a home timeline is one slice. An author with a million followers would make one post
// write a million rows inside the request. So an author whose follower count is above the pull
// threshold is pulled instead: the post goes to the author's userline, the public line and the
// author's own timeline only, and each follower's home-timeline page merges its timeline row
// with the userlines of the pulled authors it follows, newest first. Everyone else is pushed as
// before.
//
// What makes the merge equal to pushing to everyone:
//   - a follow copies the friend's newest tweets into the timeline (the backfill) whether the
//     friend is pushed or pulled, and a pulled friend's userline is merged from the follow's
//     Since on: together, the tweets pushing would have put there;
//   - an author once pulled stays in the stores' pulled set, even below the threshold again:
//     the posts made while pulled are in no timeline, and nothing rewrites a million rows when
//     an author crosses, up or down;
//   - a tweet has one Time in every line, so an entry both pushed (before the author crossed)
//     and in a merged userline is one entry of the page;
//   - an unfollow removes the friend's tweets from the timeline and the follow itself, so the
//     friend's userline is no longer merged.

// SetPullThreshold sets the follower count above which an author is pulled; 0 (the default)
// pushes every post to every follower, as the seeds do. A negative threshold is refused.
func (s *Service) SetPullThreshold(n int64) error {
	if n < 0 {
		return domain.Invalid("pull-threshold", "must be 0 (push to everyone) or more")
	}
	s.pullThreshold.Store(n)
	return nil
}

// PullThreshold is the threshold SetPullThreshold set.
func (s *Service) PullThreshold() int64 { return s.pullThreshold.Load() }

// Fanout is how a user's posts reach their followers.
type Fanout struct {
	Followers int64 // the exact follower count
	Threshold int64 // the pull threshold it was compared with; 0: everyone is pushed
	Pull      bool  // the posts are pulled by the followers, not pushed to them
}

// Mode is "pull" or "push".
func (f Fanout) Mode() string {
	if f.Pull {
		return "pull"
	}
	return "push"
}

func (f Fanout) String() string {
	switch {
	case f.Threshold == 0:
		return "push: the pull threshold is 0, every author is pushed to every follower"
	case f.Pull:
		return fmt.Sprintf("pull: %d followers, above the pull threshold %d: no follower's timeline is written, their pages read the userline", f.Followers, f.Threshold)
	}
	return fmt.Sprintf("push: %d followers, not above the pull threshold %d", f.Followers, f.Threshold)
}

// FanoutOf returns username's follower count and whether their posts are pulled.
func (s *Service) FanoutOf(ctx context.Context, username string) (Fanout, error) {
	if err := domain.ValidateUsername(username); err != nil {
		return Fanout{}, err
	}
	n, err := s.users.FollowerCount(ctx, username)
	if err != nil {
		return Fanout{}, err
	}
	t := s.PullThreshold()
	return Fanout{Followers: n, Threshold: t, Pull: t > 0 && n > t}, nil
}

// fanoutOf is the plan of a post: with a threshold of 0 it reads nothing.
func (s *Service) fanoutOf(ctx context.Context, username string) (Fanout, error) {
	if s.PullThreshold() == 0 {
		return Fanout{}, nil
	}
	f, err := s.FanoutOf(ctx, username)
	if err != nil {
		return Fanout{}, fmt.Errorf("fan-out follower count: %w", err)
	}
	return f, nil
}

// mergedPage is a home-timeline page of a reader who follows pulled authors: the timeline row
// and each pulled author's userline (from the follow's Since on), merged newest first without
// duplicates, then the page's tweets (a multiget of those the store's lines do not carry). The
// store runs the merge on its own lines (ReadPage), so compare mode merges in each model.
//
// A pulled author's newest entries come from the server's heads (heads.go) while they are
// fresh: read once for every reader, not once per page. The first slices of the other lines go
// to the store at once (SliceMany): the timeline for a whole page, the head of a pulled author
// whose head is missing or too old (or, with no heads kept, its share of the page), more only
// while the page still needs its entries. The fresh heads join the merge newest first, each
// when the merge comes down to its newest entry, so an author with nothing that new is never
// looked at. Reads and work grow with the page and with the pulled authors whose heads are due,
// never with the reader's other friends; the cursor is the same time cursor as a plain page's.
func (s *Service) mergedPage(ctx context.Context, username string, pulled []domain.Follow, start string, limit int, o pageOptions) (TweetPage, error) {
	limit, before, err := pageArgs(start, limit)
	if err != nil {
		return TweetPage{}, err
	}
	uncarried := false // an entry of a pulled author's line came without its tweet
	entries, err := s.lines.ReadPage(ctx, limit, func(ctx context.Context, lines domain.PageLines) ([]domain.LineEntry, error) {
		merged, bare, err := s.merge(ctx, lines, username, pulled, before, limit, o)
		uncarried = uncarried || bare
		return merged, err
	})
	if err != nil {
		return TweetPage{}, err
	}
	if uncarried {
		// The tweets the page read by ID for entries of the heads go into the heads: the next
		// reader's page reads them no more.
		s.heads.carry(entries[:min(limit, len(entries))])
	}
	return pageFrom(entries, limit), nil
}

// MergeStats is what one merged page read: for the footer's note and the teaching view.
type MergeStats struct {
	Lines     int // the timeline and the pulled authors' userlines
	Slices    int // slices read from the store
	FromHeads int // pulled authors whose entries came from the server's heads, not read
	HeadsRead int // pulled authors whose heads were read (missing or older than the bound)
	Skipped   int // pulled authors never looked at: nothing as new as the page's entries
	Entries   int
}

// PageOption steers one read of a home page (Timeline): the teaching view reads a page both
// ways and shows what each read.
type PageOption func(*pageOptions)

// pageOptions are a page's options, applied.
type pageOptions struct {
	noHeads bool        // neither use nor fill the heads: every userline read from the store
	stats   *MergeStats // told what a merged page read
}

// WithoutHeads makes a merged page neither use nor fill the server's heads (heads.go): every
// pulled author's userline is sliced from the store, as with no heads kept.
func WithoutHeads() PageOption {
	return func(o *pageOptions) { o.noHeads = true }
}

// WithMergeStats makes a merged page's read tell st what it read; a plain page leaves st as it
// was. In compare mode st tells of the last model's read.
func WithMergeStats(st *MergeStats) PageOption {
	return func(o *pageOptions) { o.stats = st }
}

// merge chooses the entries of a merged page from lines: up to limit+1, newest first; uncarried
// says whether an entry of a pulled author's line came without its tweet.
func (s *Service) merge(ctx context.Context, lines domain.PageLines, username string, pulled []domain.Follow, before int64, limit int, o pageOptions) (merged []domain.LineEntry, uncarried bool, err error) {
	want := limit + 1
	// A pulled author's first slice, with no head: its share of the page if every line gave
	// alike, and a few more; each slice after that doubles, up to a page.
	share := max(4, want/(len(pulled)+1)+2)
	view, kept := s.heads.view(lines, o.noHeads, s.clock.Now())
	var fresh []*head // aligned with pulled: the fresh heads (nil: due for a read)
	var byNewer []int // when every head is fresh: the authors by their newest entry
	if kept {
		fresh, byNewer = view.freshOf(username, pulled)
	}
	cursor := func(f domain.Follow) lineCursor {
		return lineCursor{line: domain.UserlineOf(f.Username), before: before, from: f.Since.UnixMicro(), count: min(share, want), limit: want, more: true}
	}
	timeline := &lineCursor{line: domain.TimelineOf(username), before: before, count: want, limit: want, more: true}
	reqs := []domain.LineSlice{{Line: timeline.line, Before: before, Limit: want}}
	reading := []*lineCursor{timeline} // the cursors reqs are for, in order
	readingOf := []int{-1}             // and the pulled author each reads (-1: the timeline)
	if byNewer == nil {                // some head is due (or none is kept): its line is read now
		due := make([]lineCursor, 0, len(pulled))
		for i := range pulled {
			if fresh != nil && fresh[i] != nil {
				continue
			}
			due = append(due, cursor(pulled[i]))
			c := &due[len(due)-1]
			if kept {
				// The head, read for every reader of the next bound: the newest HeadSize entries.
				reqs = append(reqs, domain.LineSlice{Line: c.line, Limit: HeadSize})
			} else {
				reqs = append(reqs, domain.LineSlice{Line: c.line, Before: c.before, Limit: c.count})
			}
			reading, readingOf = append(reading, c), append(readingOf, i)
		}
	}
	// The first slice of every line due at once: a store with round trips overlaps them.
	firsts, err := lines.SliceMany(ctx, reqs)
	if err != nil {
		return nil, false, err
	}
	st := MergeStats{Lines: len(pulled) + 1}
	var read map[string][]domain.LineEntry
	for i, c := range reading {
		if readingOf[i] < 0 || !kept {
			c.take(firsts[i])
			continue
		}
		if read == nil {
			read = make(map[string][]domain.LineEntry, len(reading))
		}
		read[pulled[readingOf[i]].Username] = firsts[i]
		c.slices++
		c.fromHead(&head{entries: firsts[i], whole: len(firsts[i]) < HeadSize})
		st.HeadsRead++
	}
	view.keep(read)
	// The page's oldest entry is no older than the timeline's full first slice's oldest: an
	// author with nothing newer cannot be on the page, and costs nothing more.
	var floor int64
	if len(timeline.buf) == want {
		floor = timeline.buf[want-1].Time
	}
	if byNewer == nil && fresh != nil {
		// Some heads were due: the fresh ones, newest first.
		for i, h := range fresh {
			if h != nil {
				byNewer = append(byNewer, i)
			}
		}
		slices.SortStableFunc(byNewer, func(a, b int) int { return cmp.Compare(fresh[b].newest(), fresh[a].newest()) })
	}
	// The fresh heads join the merge in that order, each only once the merge has come down to
	// its newest entry: authors with nothing so new are never looked at, so a page's work
	// grows with the page, not with the pulled authors.
	waiting := &waitingHeads{order: byNewer, heads: fresh, floor: floor, st: &st,
		cursor: func(i int) lineCursor { return cursor(pulled[i]) }}
	merged, slices, uncarried, err := mergeCursors(ctx, lines, reading, waiting, want)
	if err != nil {
		return nil, false, err
	}
	st.Slices = slices
	st.Skipped += len(waiting.order) - waiting.next
	st.Entries = len(merged)
	if o.stats != nil {
		*o.stats = st
	}
	noteMerge(ctx, username, pulled, st)
	return merged, uncarried, nil
}

// waitingHeads are the fresh heads of a merge, newest first, not yet among its cursors.
type waitingHeads struct {
	order  []int   // the authors by their head's newest entry, newest first
	heads  []*head // by author
	next   int     // order[next:] are waiting
	done   bool    // order[next:] are older than the floor: none will join
	floor  int64   // the page's oldest entry is no older (0: unknown)
	cursor func(author int) lineCursor
	slab   []lineCursor // the cursors made so far, a few at a time
	st     *MergeStats
}

// newest is the newest entry of the next waiting head; ok is false when none waits.
func (w *waitingHeads) newest() (t int64, ok bool) {
	if w.done || w.next == len(w.order) {
		return 0, false
	}
	return w.heads[w.order[w.next]].newest(), true
}

// due makes cursors of the waiting heads whose newest entry is at least t, in order, and gives
// each to add; an author whose entries are all older than the floor is skipped.
func (w *waitingHeads) due(t int64, add func(*lineCursor)) {
	for ; !w.done && w.next < len(w.order); w.next++ {
		h := w.heads[w.order[w.next]]
		newest := h.newest()
		if w.floor > 0 && (len(h.entries) == 0 || newest < w.floor) {
			w.done = true // nor anyone after it
			return
		}
		if newest < t {
			return
		}
		if len(w.slab) == cap(w.slab) {
			w.slab = make([]lineCursor, 0, 16)
		}
		w.slab = append(w.slab, w.cursor(w.order[w.next]))
		c := &w.slab[len(w.slab)-1]
		c.fromHead(h)
		if w.floor > 0 && c.olderThan(w.floor) {
			w.st.Skipped++
			continue
		}
		w.st.FromHeads++
		add(c)
	}
}

// mergeCursors takes up to want entries from the cursors and the waiting heads, newest first,
// one entry per time (on equal times the earlier cursor, the timeline, wins: the same tweet,
// pushed before its author was pulled). A cursor reads its next slice only when the page still
// needs an entry and its entries are used up, so a line read is a line the page needed; a
// waiting head becomes a cursor only when the merge reaches its newest entry.
// uncarried says whether an entry of a line other than the first came without its tweet.
func mergeCursors(ctx context.Context, lines domain.PageLines, cursors []*lineCursor, waiting *waitingHeads, want int) (merged []domain.LineEntry, slices int, uncarried bool, err error) {
	h := make(cursorHeap, 0, len(cursors)+min(len(waiting.order), want))
	added := make([]*lineCursor, 0, cap(h)) // every cursor, in its order
	var ferr error
	add := func(c *lineCursor) {
		if ferr != nil {
			return
		}
		c.order = len(added)
		added = append(added, c)
		if ferr = c.fill(ctx, lines); ferr != nil {
			return
		}
		if c.pos < len(c.buf) {
			h.push(c)
		}
	}
	for _, c := range cursors {
		add(c)
	}
	if ferr != nil {
		return nil, 0, false, ferr
	}
	merged = make([]domain.LineEntry, 0, want)
	for len(merged) < want {
		// Every waiting head as new as the newest entry left joins before it is taken; with no
		// entry left, the newest waiting head.
		if len(h) > 0 {
			waiting.due(h[0].buf[h[0].pos].Time, add)
		}
		for len(h) == 0 && ferr == nil {
			t, ok := waiting.newest()
			if !ok {
				break
			}
			waiting.due(t, add)
		}
		if ferr != nil {
			return nil, 0, false, ferr
		}
		if len(h) == 0 {
			break
		}
		c := h[0]
		e := c.buf[c.pos]
		c.pos++
		if n := len(merged); n == 0 || merged[n-1].Time != e.Time {
			merged = append(merged, e)
			uncarried = uncarried || (e.Tweet == nil && c.order > 0)
		}
		if c.pos == len(c.buf) && len(merged) < want {
			if err := c.fill(ctx, lines); err != nil {
				return nil, 0, false, err
			}
		}
		if c.pos < len(c.buf) {
			h.fixTop()
		} else {
			h.popTop()
		}
	}
	for _, c := range added {
		slices += c.slices
	}
	return merged, slices, uncarried, nil
}

// cursorHeap orders cursors by their next entry, newest first, then by their order: a binary
// heap of its own (container/heap's calls through an interface cost a page's merge a third).
type cursorHeap []*lineCursor

func (h cursorHeap) less(i, j int) bool {
	a, b := h[i].buf[h[i].pos].Time, h[j].buf[h[j].pos].Time
	return a > b || (a == b && h[i].order < h[j].order)
}

// push adds c.
func (h *cursorHeap) push(c *lineCursor) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s.less(i, parent) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

// fixTop restores the order after the first cursor's next entry changed.
func (h cursorHeap) fixTop() {
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		j := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			j = r
		}
		if !h.less(j, i) {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

// popTop removes the first cursor.
func (h *cursorHeap) popTop() {
	s := *h
	n := len(s) - 1
	s[0], s[n] = s[n], nil
	*h = s[:n]
	(*h).fixTop()
}

// lineCursor reads one line of a merge, newest first, a slice at a time.
type lineCursor struct {
	line   domain.LineKey
	before int64 // the next slice's entries are strictly older (0: from the newest)
	from   int64 // entries older than this are not the reader's (0: all are)
	count  int   // the next slice's size
	limit  int   // the largest slice
	buf    []domain.LineEntry
	pos    int
	more   bool // the line may hold entries past buf
	slices int  // slices read
	order  int  // the cursor's place in the merge: on equal times the first (the timeline) wins
}

// fill reads the next slice when the cursor has used up its entries and the line has more.
func (c *lineCursor) fill(ctx context.Context, lines domain.PageLines) error {
	if c.pos < len(c.buf) || !c.more {
		return nil
	}
	got, err := lines.Slice(ctx, c.line, c.before, c.count)
	if err != nil {
		return err
	}
	c.take(got)
	return nil
}

// take makes got, the slice just read, the cursor's entries.
func (c *lineCursor) take(got []domain.LineEntry) {
	c.slices++
	c.use(got, len(got) == c.count)
	c.count = min(2*c.count, c.limit)
}

// fromHead makes the entries of h older than the cursor's before its entries: the line goes on
// past them unless h is whole. Nothing is read.
func (c *lineCursor) fromHead(h *head) {
	got := h.entries
	if c.before > 0 {
		i, _ := slices.BinarySearchFunc(got, c.before, func(e domain.LineEntry, t int64) int { return cmp.Compare(t, e.Time) })
		for i < len(got) && got[i].Time >= c.before {
			i++
		}
		got = got[i:]
	}
	c.use(got, !h.whole)
}

// olderThan says whether every entry the cursor has left is older than t.
func (c *lineCursor) olderThan(t int64) bool {
	if c.pos < len(c.buf) {
		return c.buf[c.pos].Time < t
	}
	return !c.more || c.before <= t
}

// use makes got (newest first, older than before) the cursor's entries; more says whether the
// line may hold entries past them.
func (c *lineCursor) use(got []domain.LineEntry, more bool) {
	c.more = more
	if c.from > 0 {
		// Newest first: the entries from the follow on are a prefix.
		n, _ := slices.BinarySearchFunc(got, c.from, func(e domain.LineEntry, t int64) int { return cmp.Compare(t, e.Time) })
		for n < len(got) && got[n].Time >= c.from {
			n++
		}
		if n < len(got) {
			got, c.more = got[:n], false
		}
	}
	if len(got) > 0 {
		c.before = got[len(got)-1].Time
	}
	c.buf, c.pos = got, 0
}

// PulledFriends returns the pulled authors username follows, whose userlines username's home
// timeline merges.
func (s *Service) PulledFriends(ctx context.Context, username string) ([]domain.Follow, error) {
	if err := domain.ValidateUsername(username); err != nil {
		return nil, err
	}
	return s.users.PulledFriends(ctx, username)
}

// PulledAuthors lists every author ever pulled.
func (s *Service) PulledAuthors(ctx context.Context) ([]string, error) {
	return s.users.PulledAuthors(ctx)
}
