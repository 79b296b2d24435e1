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
// store runs the merge on its own lines (ReadPage), so compare mode merges in each model. The
// first slices of all the lines go to the store at once (SliceMany); the timeline is sliced for a whole page, a userline a few
// entries at a time, more only while the page still needs its entries, so its reads grow with
// what the page shows of it. Reads grow with the page and with the pulled authors followed,
// never with the reader's other friends; the cursor is the same time cursor as a plain page's.
func (s *Service) mergedPage(ctx context.Context, username string, pulled []domain.Follow, start string, limit int) (TweetPage, error) {
	limit, before, err := pageArgs(start, limit)
	if err != nil {
		return TweetPage{}, err
	}
	return s.pageOf(ctx, limit, func(ctx context.Context, lines domain.LineReader) ([]domain.LineEntry, error) {
		return merge(ctx, lines, username, pulled, before, limit)
	})
}

// merge chooses the entries of a merged page from lines: up to limit+1, newest first.
func merge(ctx context.Context, lines domain.LineReader, username string, pulled []domain.Follow, before int64, limit int) ([]domain.LineEntry, error) {
	want := limit + 1
	// A pulled author's first slice: its share of the page if every line gave alike, and a few
	// more; each slice after that doubles, up to a page.
	share := max(4, want/(len(pulled)+1)+2)
	cursors := make([]*lineCursor, 0, len(pulled)+1)
	cursors = append(cursors, &lineCursor{line: domain.TimelineOf(username), before: before, count: want, limit: want, more: true})
	for _, f := range pulled {
		cursors = append(cursors, &lineCursor{line: domain.UserlineOf(f.Username), before: before, from: f.Since.UnixMicro(), count: min(share, want), limit: want, more: true})
	}
	// The first slice of every line at once: a store with round trips overlaps them.
	reqs := make([]domain.LineSlice, len(cursors))
	for i, c := range cursors {
		reqs[i] = domain.LineSlice{Line: c.line, Before: c.before, Limit: c.count}
	}
	firsts, err := lines.SliceMany(ctx, reqs)
	if err != nil {
		return nil, err
	}
	for i, c := range cursors {
		c.take(firsts[i])
	}
	merged := make([]domain.LineEntry, 0, want)
	for len(merged) < want {
		var best *lineCursor
		for _, c := range cursors {
			if err := c.fill(ctx, lines); err != nil {
				return nil, err
			}
			if c.pos < len(c.buf) && (best == nil || c.buf[c.pos].Time > best.buf[best.pos].Time) {
				best = c // on equal times the earlier line (the timeline) wins
			}
		}
		if best == nil {
			break
		}
		e := best.buf[best.pos]
		best.pos++
		if n := len(merged); n > 0 && merged[n-1].Time == e.Time {
			continue // the same tweet, pushed before its author was pulled
		}
		merged = append(merged, e)
	}
	reads := 0
	for _, c := range cursors {
		reads += c.slices
	}
	noteMerge(ctx, username, pulled, reads, len(merged))
	return merged, nil
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
	c.more = len(got) == c.count
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
	c.count = min(2*c.count, c.limit)
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
