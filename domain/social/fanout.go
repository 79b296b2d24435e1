package social

import (
	"cmp"
	"container/heap"
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
// while the page still needs its entries. An author whose newest entry is older than the
// page's oldest (the timeline's full first slice ends after it) is skipped: it cannot be on the
// page. Reads grow with the page and with the pulled authors whose heads are due, never with
// the reader's other friends; the cursor is the same time cursor as a plain page's.
func (s *Service) mergedPage(ctx context.Context, username string, pulled []domain.Follow, start string, limit int) (TweetPage, error) {
	limit, before, err := pageArgs(start, limit)
	if err != nil {
		return TweetPage{}, err
	}
	entries, err := s.lines.ReadPage(ctx, limit, func(ctx context.Context, lines domain.LineReader) ([]domain.LineEntry, error) {
		return s.merge(ctx, lines, username, pulled, before, limit)
	})
	if err != nil {
		return TweetPage{}, err
	}
	// The tweets the page read by ID for entries of the heads go into the heads: the next
	// reader's page reads them no more.
	s.heads.carry(entries[:min(limit, len(entries))])
	return pageFrom(entries, limit), nil
}

// MergeStats is what one merged page read: for the footer's note and the teaching view.
type MergeStats struct {
	Lines     int // the timeline and the pulled authors' userlines
	Slices    int // slices read from the store
	FromHeads int // pulled authors whose entries came from the server's heads, not read
	HeadsRead int // pulled authors whose heads were read (missing or older than the bound)
	Skipped   int // pulled authors skipped: nothing newer than the page's oldest entry
	Entries   int
}

type mergeStatsKey struct{}

// WithMergeStats returns a context in which a merged page's read (Timeline) tells st what it
// read; a plain page leaves st as it was. In compare mode st tells of the last model's read.
func WithMergeStats(ctx context.Context, st *MergeStats) context.Context {
	return context.WithValue(ctx, mergeStatsKey{}, st)
}

// merge chooses the entries of a merged page from lines: up to limit+1, newest first.
func (s *Service) merge(ctx context.Context, lines domain.LineReader, username string, pulled []domain.Follow, before int64, limit int) ([]domain.LineEntry, error) {
	want := limit + 1
	// A pulled author's first slice, with no head: its share of the page if every line gave
	// alike, and a few more; each slice after that doubles, up to a page.
	share := max(4, want/(len(pulled)+1)+2)
	view, kept := s.heads.view(ctx, lines, s.clock.Now())
	var fresh []*head // aligned with pulled: the fresh heads (nil: due for a read)
	var byNewer []int // when every head is fresh: the authors by their newest entry
	if kept {
		fresh, byNewer = view.freshOf(username, pulled)
	}
	cursor := func(f domain.Follow) *lineCursor {
		return &lineCursor{line: domain.UserlineOf(f.Username), before: before, from: f.Since.UnixMicro(), count: min(share, want), limit: want, more: true}
	}
	timeline := &lineCursor{line: domain.TimelineOf(username), before: before, count: want, limit: want, more: true}
	reqs := []domain.LineSlice{{Line: timeline.line, Before: before, Limit: want}}
	reading := []*lineCursor{timeline} // the cursors reqs are for, in order
	readingOf := []int{-1}             // and the pulled author each reads (-1: the timeline)
	for i, f := range pulled {
		if fresh != nil && fresh[i] != nil {
			continue
		}
		c := cursor(f)
		if kept {
			// The head, read for every reader of the next bound: the newest HeadSize entries.
			reqs = append(reqs, domain.LineSlice{Line: c.line, Limit: HeadSize})
		} else {
			reqs = append(reqs, domain.LineSlice{Line: c.line, Before: c.before, Limit: c.count})
		}
		reading, readingOf = append(reading, c), append(readingOf, i)
	}
	// The first slice of every line due at once: a store with round trips overlaps them.
	firsts, err := lines.SliceMany(ctx, reqs)
	if err != nil {
		return nil, err
	}
	st := MergeStats{Lines: len(pulled) + 1}
	active := reading
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
	sorted := byNewer != nil
	if !sorted {
		byNewer = make([]int, 0, len(fresh))
		for i, h := range fresh {
			if h != nil {
				byNewer = append(byNewer, i)
			}
		}
	}
	for n, i := range byNewer {
		h := fresh[i]
		if floor > 0 && (len(h.entries) == 0 || h.entries[0].Time < floor) {
			// Its newest entry is older than the page's oldest: nothing to look at; in the
			// authors' order by their newest entry, nor anyone after it.
			if sorted {
				st.Skipped += len(byNewer) - n
				break
			}
			st.Skipped++
			continue
		}
		c := cursor(pulled[i])
		c.fromHead(h)
		if floor > 0 && c.olderThan(floor) {
			st.Skipped++
			continue
		}
		active = append(active, c)
		st.FromHeads++
	}
	merged, err := mergeCursors(ctx, lines, active, want)
	if err != nil {
		return nil, err
	}
	for _, c := range active {
		st.Slices += c.slices
	}
	st.Entries = len(merged)
	if sink, ok := ctx.Value(mergeStatsKey{}).(*MergeStats); ok {
		*sink = st
	}
	noteMerge(ctx, username, pulled, st)
	return merged, nil
}

// mergeCursors takes up to want entries from the cursors, newest first, one entry per time (on
// equal times the earlier cursor, the timeline, wins: the same tweet, pushed before its author
// was pulled). A cursor reads its next slice only when the page still needs an entry and its
// entries are used up, so a line read is a line the page needed.
func mergeCursors(ctx context.Context, lines domain.LineReader, cursors []*lineCursor, want int) ([]domain.LineEntry, error) {
	h := make(cursorHeap, 0, len(cursors))
	for i, c := range cursors {
		c.order = i
		if err := c.fill(ctx, lines); err != nil {
			return nil, err
		}
		if c.pos < len(c.buf) {
			h = append(h, c)
		}
	}
	heap.Init(&h)
	merged := make([]domain.LineEntry, 0, want)
	for len(merged) < want && len(h) > 0 {
		c := h[0]
		e := c.buf[c.pos]
		c.pos++
		if n := len(merged); n == 0 || merged[n-1].Time != e.Time {
			merged = append(merged, e)
		}
		if c.pos == len(c.buf) && len(merged) < want {
			if err := c.fill(ctx, lines); err != nil {
				return nil, err
			}
		}
		if c.pos < len(c.buf) {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return merged, nil
}

// cursorHeap orders cursors by their next entry, newest first, then by their order.
type cursorHeap []*lineCursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(i, j int) bool {
	a, b := h[i].buf[h[i].pos].Time, h[j].buf[h[j].pos].Time
	return a > b || (a == b && h[i].order < h[j].order)
}
func (h cursorHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*lineCursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
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
func (c *lineCursor) fill(ctx context.Context, lines domain.LineReader) error {
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
