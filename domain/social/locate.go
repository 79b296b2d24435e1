package social

import (
	"context"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// Where a record lives: the loci of a user, a follow and a tweet, as the use cases write them.
// The teaching views hand them to a teaching.Locator, which says where each sits in its model.

// UserLoci is the user's record (on the 0.6 model: the User row and the Username index).
func (s *Service) UserLoci(ctx context.Context, username string) ([]teaching.Locus, error) {
	if _, err := s.users.GetUser(ctx, username); err != nil {
		return nil, err
	}
	return []teaching.Locus{{Kind: teaching.LocusUser, Role: username + "'s record", User: username}}, nil
}

// FollowLoci is the follow of username to friend, both sides of it.
func (s *Service) FollowLoci(username, friend string) []teaching.Locus {
	return []teaching.Locus{{Kind: teaching.LocusFollow, Role: username + " follows " + friend, User: username, Other: friend}}
}

// TweetLoci is every place the tweet is written: its record, its author's userline, the public
// line and its author's timeline, then the timelines of the author's followers, at most limit of
// them after the follower cursor after (the first call, after == "", lists the other places
// too). next is the cursor of the following page of followers, "" after the last.
func (s *Service) TweetLoci(ctx context.Context, id uuid.UUID, after string, limit int) (domain.Tweet, []teaching.Locus, string, error) {
	t, err := s.tweets.GetTweet(ctx, id)
	if err != nil {
		return domain.Tweet{}, nil, "", err
	}
	if limit, err = domain.ValidateLimit(limit); err != nil {
		return domain.Tweet{}, nil, "", err
	}
	entry := func(role string, line domain.LineKey) teaching.Locus {
		return teaching.Locus{Kind: teaching.LocusLineEntry, Role: role, Line: line, Time: t.Time(), Tweet: t.ID}
	}
	var loci []teaching.Locus
	if after == "" {
		loci = append(loci,
			teaching.Locus{Kind: teaching.LocusTweet, Role: "the tweet", Tweet: t.ID},
			entry(t.Username+"'s userline", domain.UserlineOf(t.Username)),
			entry("the public line", domain.PublicLine()),
			entry(t.Username+"'s own timeline", domain.TimelineOf(t.Username)))
	}
	page, err := s.users.Followers(ctx, t.Username, after, limit+1)
	if err != nil {
		return domain.Tweet{}, nil, "", err
	}
	next := ""
	if len(page) > limit {
		page, next = page[:limit], page[limit-1].Cursor
	}
	for _, f := range page {
		loci = append(loci, entry("follower "+f.Username+"'s timeline", domain.TimelineOf(f.Username)))
	}
	return t, loci, next, nil
}
