package social

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"twissandra/domain"
	"twissandra/ports/oplog"
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

// mergedPage is a home-timeline page of a reader who follows pulled authors: a slice of
// limit+1 entries of the timeline row and of each pulled author's userline (from the follow's
// Since on), merged newest first without duplicates, then one multiget of the page's tweets.
// Its reads grow with the page and with the pulled authors followed, never with the reader's
// other friends; the cursor is the same time cursor as a plain page's.
func (s *Service) mergedPage(ctx context.Context, username string, pulled []domain.Follow, start string, limit int) (TweetPage, error) {
	limit, before, err := pageArgs(start, limit)
	if err != nil {
		return TweetPage{}, err
	}
	sources := make([][]domain.LineEntry, 0, len(pulled)+1)
	own, err := s.lines.Slice(ctx, domain.TimelineOf(username), before, limit+1)
	if err != nil {
		return TweetPage{}, err
	}
	sources = append(sources, own)
	for _, f := range pulled {
		entries, err := s.lines.Slice(ctx, domain.UserlineOf(f.Username), before, limit+1)
		if err != nil {
			return TweetPage{}, err
		}
		from := f.Since.UnixMicro()
		// Newest first: the entries from the follow on are a prefix.
		n, _ := slices.BinarySearchFunc(entries, from, func(e domain.LineEntry, t int64) int { return cmp.Compare(t, e.Time) })
		for n < len(entries) && entries[n].Time >= from {
			n++
		}
		sources = append(sources, entries[:n])
	}
	merged := mergeNewest(sources, limit+1)
	if oplog.Detailed(ctx) {
		names := make([]string, len(pulled))
		for i, f := range pulled {
			names[i] = f.Username
		}
		oplog.Record(ctx, oplog.Op{Kind: oplog.Note, Call: "merge:", Touched: fmt.Sprintf("%d lines", len(sources)),
			Text: fmt.Sprintf("merge: %s's timeline and the userlines of %d pulled authors %s follows (%s), newest first: %d entries",
				username, len(pulled), username, strings.Join(names, ", "), len(merged))})
	} else {
		oplog.Record(ctx, oplog.Op{Kind: oplog.Note, Call: "merge:"})
	}
	return s.pageOf(ctx, merged, limit)
}

// mergeNewest merges lines that are each newest first into at most n entries, newest first,
// keeping one entry per time (a tweet has the same time in every line).
func mergeNewest(sources [][]domain.LineEntry, n int) []domain.LineEntry {
	total := 0
	for _, src := range sources {
		total += len(src)
	}
	all := make([]domain.LineEntry, 0, total)
	for _, src := range sources {
		all = append(all, src...)
	}
	// Stable, so that of two entries of one tweet the timeline's (the first source) is kept.
	slices.SortStableFunc(all, func(a, b domain.LineEntry) int { return cmp.Compare(b.Time, a.Time) })
	out := all[:0]
	for _, e := range all {
		if len(out) > 0 && out[len(out)-1].Time == e.Time {
			continue
		}
		if len(out) == n {
			break
		}
		out = append(out, e)
	}
	return out
}
