// Package linestore holds what most adapters' line stores do alike, each through the store's own
// calls: a page read (ReadPage: the plan on the store's lines, then one multiget of the tweets
// the lines do not carry), a backfill (Backfill), a fan-out to the followers by their usernames
// (AppendToFollowers), and SliceMany as one Slice after another (SliceEach). An adapter's
// ports.LineStore methods call them with the store itself; an adapter whose model reads
// otherwise (widerow's page keeps the IDs' text its slice read) passes what it reads through.
package linestore

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/ports"
)

// ReadPage is ports.LineReader.ReadPage for a store whose lines are lines and whose tweets are
// tweets (usually both the store itself): plan runs on lines, then the first limit entries get
// their tweets (FillTweets).
func ReadPage(ctx context.Context, lines domain.PageLines, tweets ports.TweetReader, limit int, plan domain.PagePlan) ([]domain.LineEntry, error) {
	entries, err := plan(ctx, lines)
	if err != nil {
		return nil, err
	}
	if err := FillTweets(ctx, tweets, entries[:min(limit, len(entries))]); err != nil {
		return nil, err
	}
	return entries, nil
}

// Backfill is ports.LineWriter.Backfill for a store whose lines are lines and whose tweets are
// tweets: one slice of from, then, when some entry came with its tweet (the store's lines carry
// them), the tweets of those that came without, in one multiget, so that the rows written are
// whole; a store that keeps IDs only reads no tweet.
func Backfill(ctx context.Context, lines ports.LineStore, tweets ports.TweetReader, line, from domain.LineKey, limit int) error {
	recent, err := lines.Slice(ctx, from, 0, limit)
	if err != nil {
		return fmt.Errorf("backfill slice: %w", err)
	}
	if len(recent) == 0 {
		return nil
	}
	if slices.ContainsFunc(recent, func(e domain.LineEntry) bool { return e.Tweet != nil }) {
		if err := FillTweets(ctx, tweets, recent); err != nil {
			return fmt.Errorf("backfill tweets: %w", err)
		}
	}
	return lines.AppendEntries(ctx, line, recent)
}

// FillTweets gives the entries that lack a tweet theirs, read in one multiget; an entry whose
// tweet is missing from the store stays without. Entries that all carry theirs cost nothing.
func FillTweets(ctx context.Context, tweets ports.TweetReader, entries []domain.LineEntry) error {
	var ids []uuid.UUID
	for i, e := range entries {
		if e.Tweet == nil {
			if ids == nil {
				ids = make([]uuid.UUID, 0, len(entries)-i)
			}
			ids = append(ids, e.TweetID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	got, err := tweets.GetTweets(ctx, ids)
	if err != nil {
		return err
	}
	// GetTweets answers in the order asked: when it found every tweet, they pair with the
	// entries in one walk. A tweet missing (or an ID asked twice) pairs them by ID instead.
	if len(got) == len(ids) {
		j := 0
		for i := range entries {
			if entries[i].Tweet == nil {
				if got[j].ID != entries[i].TweetID {
					break
				}
				entries[i].Tweet = &got[j]
				j++
			}
		}
		if j == len(got) {
			return nil
		}
	}
	byID := make(map[uuid.UUID]*domain.Tweet, len(got))
	for i := range got {
		byID[got[i].ID] = &got[i]
	}
	for i := range entries {
		if entries[i].Tweet == nil {
			entries[i].Tweet = byID[entries[i].TweetID]
		}
	}
	return nil
}

// AppendToFollowers is ports.LineWriter.AppendToFollowers for a store that names lines by their
// owner's username: the followers of author from users, a page of MaxFollowPage at a time,
// then one Append of e to lines and their timelines.
func AppendToFollowers(ctx context.Context, users ports.FollowReader, lines ports.LineWriter, e domain.LineEntry, author string, base ...domain.LineKey) (int, error) {
	all := slices.Clip(base)
	after := ""
	for {
		page, err := users.Followers(ctx, author, after, domain.MaxFollowPage)
		if err != nil {
			return 0, fmt.Errorf("fan-out followers: %w", err)
		}
		all = slices.Grow(all, len(page))
		for _, f := range page {
			all = append(all, domain.TimelineOf(f.Username))
		}
		if len(page) < domain.MaxFollowPage {
			break
		}
		after = page[len(page)-1].Cursor
	}
	return len(all), lines.Append(ctx, e, all...)
}

// SliceEach is ports.LineReader.SliceMany for a store whose slices cost no round trip: one
// Slice after another.
func SliceEach(ctx context.Context, lines interface {
	Slice(ctx context.Context, line domain.LineKey, before int64, limit int) ([]domain.LineEntry, error)
}, reqs []domain.LineSlice) ([][]domain.LineEntry, error) {
	out := make([][]domain.LineEntry, len(reqs))
	for i, r := range reqs {
		var err error
		if out[i], err = lines.Slice(ctx, r.Line, r.Before, r.Limit); err != nil {
			return nil, err
		}
	}
	return out, nil
}
