// Package social holds Twissandra's use cases: the actions of the Cassandra 0.7 documentation's
// list (get users, friends and followers, lines, tweets; create users and tweets; add and remove
// friends) plus log in, the home timeline, follow backfill, unfollow cleanup and fan-out.
package social

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/ports"
)

// BackfillSize is how many of the followed user's newest tweets a follow copies into the
// follower's timeline.
const BackfillSize = 200

// cleanupChunk is how many userline entries an unfollow reads per slice while it removes the
// unfollowed user's tweets from the timeline.
const cleanupChunk = 1000

// Service runs the use cases over the three stores.
type Service struct {
	users   ports.UserStore
	tweets  ports.TweetStore
	lines   ports.LineStore
	clock   domain.Clock
	stamper *domain.Stamper
	hasher  *domain.PasswordHasher
	// imported are the line times PostAt has handed out (see import.go).
	imported usedTimes
	// publicWrites counts the posts written to the public line (see PublicLineVersion).
	publicWrites writeClock
	// pullThreshold is the follower count above which an author is pulled (see fanout.go);
	// 0: every author is pushed, as in the seeds.
	pullThreshold atomic.Int64
	// heads are the pulled authors' userline heads that merged pages share (see heads.go).
	heads headCache
}

// New wires a Service. clock may be nil (the wall clock); hasher may be nil (bcrypt's default cost).
func New(users ports.UserStore, tweets ports.TweetStore, lines ports.LineStore, clock domain.Clock, hasher *domain.PasswordHasher) *Service {
	if clock == nil {
		clock = domain.SystemClock{}
	}
	if hasher == nil {
		hasher = domain.NewPasswordHasher(0)
	}
	return &Service{users: users, tweets: tweets, lines: lines, clock: clock, stamper: domain.NewStamper(clock), hasher: hasher,
		imported: usedTimes{used: map[int64]struct{}{}}, heads: headCache{bound: DefaultHeadBound}}
}

// PasswordCost is the bcrypt cost of the password hashes the service makes.
func (s *Service) PasswordCost() int { return s.hasher.Cost }

// SignUp creates a user. A taken name is domain.ErrAlreadyExists, decided by the store
// atomically (never read-then-write).
func (s *Service) SignUp(ctx context.Context, username, password string) (domain.User, error) {
	if err := domain.ValidateUsername(username); err != nil {
		return domain.User{}, err
	}
	if err := domain.ValidatePassword(password); err != nil {
		return domain.User{}, err
	}
	// A taken name is refused before anything is written (and before bcrypt's work). Only a
	// racing loser, which passed this read, still writes; its store then undoes what it wrote.
	if _, err := s.users.GetUser(ctx, username); err == nil {
		return domain.User{}, fmt.Errorf("username %q: %w", username, domain.ErrAlreadyExists)
	} else if !errors.Is(err, domain.ErrNotFound) {
		return domain.User{}, err
	}
	hash, err := s.hasher.Hash(password)
	if err != nil {
		return domain.User{}, err
	}
	u := domain.User{ID: uuid.New(), Username: username, PasswordHash: hash, CreatedAt: s.clock.Now().UTC().Truncate(1000)}
	if err := s.users.CreateUser(ctx, u); err != nil {
		return domain.User{}, err
	}
	return u, nil
}

// LogIn checks a username and password; any mismatch is domain.ErrUnauthenticated, and the
// check costs the same whether or not the user exists.
func (s *Service) LogIn(ctx context.Context, username, password string) (domain.User, error) {
	var hash []byte
	u, err := s.users.GetUser(ctx, username)
	switch {
	case err == nil:
		hash = u.PasswordHash
	case errors.Is(err, domain.ErrNotFound) || errors.Is(err, domain.ErrInvalid):
	default:
		return domain.User{}, err
	}
	if !s.hasher.Verify(hash, password) {
		return domain.User{}, fmt.Errorf("%w: wrong username or password", domain.ErrUnauthenticated)
	}
	return u, nil
}

// GetUser returns one user by username.
func (s *Service) GetUser(ctx context.Context, username string) (domain.User, error) {
	if err := domain.ValidateUsername(username); err != nil {
		return domain.User{}, err
	}
	return s.users.GetUser(ctx, username)
}

// MaxMultiget bounds how many users one GetUsers call may ask for.
const MaxMultiget = 200

// GetUsers returns the users that exist among usernames, in the order asked.
func (s *Service) GetUsers(ctx context.Context, usernames []string) ([]domain.User, error) {
	if len(usernames) == 0 {
		return nil, domain.Invalid("names", "must name at least one user")
	}
	if len(usernames) > MaxMultiget {
		return nil, domain.Invalid("names", "must name at most %d users", MaxMultiget)
	}
	for _, n := range usernames {
		if err := domain.ValidateUsername(n); err != nil {
			return nil, err
		}
	}
	return s.users.GetUsers(ctx, dedupe(usernames))
}

func dedupe(names []string) []string {
	seen := make(map[string]struct{}, len(names))
	out := names[:0:0]
	for _, n := range names {
		if _, ok := seen[n]; !ok {
			seen[n] = struct{}{}
			out = append(out, n)
		}
	}
	return out
}

// FollowPage is one page of friends or followers.
type FollowPage struct {
	Follows []domain.Follow
	Next    string // opaque; "" when there is no more
}

// Usernames returns just the names of the page.
func (p FollowPage) Usernames() []string {
	out := make([]string, len(p.Follows))
	for i, f := range p.Follows {
		out[i] = f.Username
	}
	return out
}

// Friends lists whom username follows. start is a Next from an earlier page, or "".
func (s *Service) Friends(ctx context.Context, username, start string, limit int) (FollowPage, error) {
	return s.followPage(ctx, s.users.Friends, username, start, limit)
}

// IsFollowing reports whether me follows other. The ports have no point lookup of one follow,
// so this pages through me's friends, up to domain.MaxFollowPage of them.
func (s *Service) IsFollowing(ctx context.Context, me, other string) (bool, error) {
	start := ""
	for seen := 0; seen < domain.MaxFollowPage; {
		page, err := s.Friends(ctx, me, start, domain.MaxPageSize)
		if err != nil {
			return false, err
		}
		for _, f := range page.Follows {
			if f.Username == other {
				return true, nil
			}
		}
		seen += len(page.Follows)
		if page.Next == "" {
			return false, nil
		}
		start = page.Next
	}
	return false, nil
}

// Followers lists who follows username.
func (s *Service) Followers(ctx context.Context, username, start string, limit int) (FollowPage, error) {
	return s.followPage(ctx, s.users.Followers, username, start, limit)
}

type followLister func(ctx context.Context, username, after string, limit int) ([]domain.Follow, error)

func (s *Service) followPage(ctx context.Context, list followLister, username, start string, limit int) (FollowPage, error) {
	if _, err := s.GetUser(ctx, username); err != nil {
		return FollowPage{}, err
	}
	return s.follows(ctx, list, username, start, limit)
}

// follows is a page of a follow list of a user known to exist.
func (s *Service) follows(ctx context.Context, list followLister, username, start string, limit int) (FollowPage, error) {
	limit, err := domain.ValidateLimit(limit)
	if err != nil {
		return FollowPage{}, err
	}
	after, err := domain.ParseFollowCursor(start)
	if err != nil {
		return FollowPage{}, err
	}
	follows, err := list(ctx, username, after, limit+1)
	if err != nil {
		return FollowPage{}, err
	}
	page := FollowPage{Follows: follows}
	if len(follows) > limit {
		page.Follows = follows[:limit]
		page.Next = domain.EncodeFollowCursor(follows[limit-1].Cursor)
	}
	return page, nil
}

// Follow makes username follow friend and backfills the friend's newest tweets into username's
// timeline, so a new follow shows something at once.
func (s *Service) Follow(ctx context.Context, username, friend string) error {
	if err := s.checkPair(ctx, username, friend); err != nil {
		return err
	}
	if err := s.users.Follow(ctx, username, friend, s.clock.Now().UTC().Truncate(1000)); err != nil {
		return err
	}
	// Each store copies the friend's userline as it writes entries itself (a store whose lines
	// carry their tweets writes them whole): in compare mode, each model from its own line.
	return s.lines.Backfill(ctx, domain.TimelineOf(username), domain.UserlineOf(friend), BackfillSize)
}

// Unfollow ends the follow and removes the friend's tweets from username's timeline. The
// friend's userline names exactly the timeline entries to delete, because a tweet has the same
// time in every line. Unfollowing someone not followed succeeds.
func (s *Service) Unfollow(ctx context.Context, username, friend string) error {
	if err := s.checkPair(ctx, username, friend); err != nil {
		return err
	}
	if err := s.users.Unfollow(ctx, username, friend); err != nil {
		return err
	}
	timeline := domain.TimelineOf(username)
	before := int64(0)
	for {
		entries, err := s.lines.Slice(ctx, domain.UserlineOf(friend), before, cleanupChunk)
		if err != nil {
			return fmt.Errorf("cleanup slice: %w", err)
		}
		if len(entries) == 0 {
			return nil
		}
		times := make([]int64, len(entries))
		for i, e := range entries {
			times[i] = e.Time
		}
		if err := s.lines.Remove(ctx, timeline, times...); err != nil {
			return fmt.Errorf("cleanup remove: %w", err)
		}
		if len(entries) < cleanupChunk {
			return nil
		}
		before = entries[len(entries)-1].Time
	}
}

func (s *Service) checkPair(ctx context.Context, username, friend string) error {
	if err := domain.ValidateUsername(username); err != nil {
		return err
	}
	if err := domain.ValidateUsername(friend); err != nil {
		return domain.Invalid("friend", "must be 1 to %d ASCII letters, digits or underscores", domain.MaxUsernameLen)
	}
	if username == friend {
		return domain.Invalid("friend", "you cannot follow yourself")
	}
	users, err := s.users.GetUsers(ctx, []string{username, friend})
	if err != nil {
		return err
	}
	if len(users) != 2 {
		missing := friend
		if len(users) == 0 || users[0].Username != username {
			missing = username
		}
		return fmt.Errorf("%w: user %q", domain.ErrNotFound, missing)
	}
	return nil
}

// Post creates a tweet and fans it out: the author's userline, the public line, the author's
// timeline and, unless the author is pulled (see fanout.go), the timeline of every follower
// (paged through, however many).
func (s *Service) Post(ctx context.Context, username, body string) (domain.Tweet, error) {
	body, err := domain.NormalizeBody(body)
	if err != nil {
		return domain.Tweet{}, err
	}
	now := s.stamper.Next()
	t := domain.Tweet{ID: domain.NewTimeUUID(now), Username: username, Body: body, CreatedAt: domain.TimeFromMicros(now)}
	if err := s.publish(ctx, t); err != nil {
		return domain.Tweet{}, err
	}
	return t, nil
}

// publish stores a tweet and fans it out to every line it belongs in.
func (s *Service) publish(ctx context.Context, t domain.Tweet) error {
	lines := []domain.LineKey{domain.UserlineOf(t.Username), domain.PublicLine(), domain.TimelineOf(t.Username)}
	plan, err := s.fanoutOf(ctx, t.Username)
	if err != nil {
		return err
	}
	if plan.Pull {
		// Marked before the tweet is in any line, so that no page that shows the tweet's
		// userline entry can miss it for want of the mark.
		if err := s.users.MarkPulled(ctx, t.Username); err != nil {
			return fmt.Errorf("fan-out mark pulled: %w", err)
		}
	}
	// The tweet is stored before any line names it, so a reader never meets a dangling ID for
	// long; lines that do name a missing tweet are skipped when read.
	if err := s.tweets.SaveTweet(ctx, t); err != nil {
		return err
	}
	s.publicWrites.begin()
	defer s.publicWrites.end()
	e := domain.LineEntry{Time: t.Time(), TweetID: t.ID, Tweet: &t}
	n := len(lines)
	if plan.Pull {
		err = s.lines.Append(ctx, e, lines...)
	} else {
		// Every follower's timeline too, as the store lists its followers and names their
		// timelines (paged through, however many).
		n, err = s.lines.AppendToFollowers(ctx, e, t.Username, lines...)
	}
	if err == nil {
		s.heads.posted(t.Username, e) // this server's post is in its merged pages at once
	} else {
		s.heads.forget(t.Username) // the userline may or may not hold it: read it again
	}
	noteFanout(ctx, t.Username, n, plan, err)
	return err
}

// GetTweet returns one tweet.
func (s *Service) GetTweet(ctx context.Context, id uuid.UUID) (domain.Tweet, error) {
	return s.tweets.GetTweet(ctx, id)
}

// TweetPage is one page of a line.
type TweetPage struct {
	Tweets []domain.Tweet
	Next   string // opaque; "" when there is no more
}

// Userline is the page of username's own tweets.
func (s *Service) Userline(ctx context.Context, username, start string, limit int) (TweetPage, error) {
	if _, err := s.GetUser(ctx, username); err != nil {
		return TweetPage{}, err
	}
	return s.linePage(ctx, domain.UserlineOf(username), start, limit)
}

// Profile is what a user's page shows: the user, a page of their userline, and the first of the
// users they follow and of their followers.
type Profile struct {
	User      domain.User
	Line      TweetPage
	Friends   FollowPage
	Followers FollowPage
}

// Profile reads a user's page: the user once, the userline from start (at most limit tweets),
// and the first follows of each side (at most follows each).
func (s *Service) Profile(ctx context.Context, username, start string, limit, follows int) (Profile, error) {
	u, err := s.GetUser(ctx, username)
	if err != nil {
		return Profile{}, err
	}
	p := Profile{User: u}
	if p.Line, err = s.linePage(ctx, domain.UserlineOf(username), start, limit); err != nil {
		return Profile{}, err
	}
	if p.Friends, err = s.follows(ctx, s.users.Friends, username, "", follows); err != nil {
		return Profile{}, err
	}
	if p.Followers, err = s.follows(ctx, s.users.Followers, username, "", follows); err != nil {
		return Profile{}, err
	}
	return p, nil
}

// Timeline is username's home timeline: the timeline row, merged with the userlines of the
// pulled authors username follows (see fanout.go). The caller has authenticated username. The
// options (WithoutHeads, WithMergeStats) are for the views that show how a merged page is read.
func (s *Service) Timeline(ctx context.Context, username, start string, limit int, opts ...PageOption) (TweetPage, error) {
	pulled, err := s.users.PulledFriends(ctx, username)
	if err != nil {
		return TweetPage{}, err
	}
	if len(pulled) == 0 {
		return s.linePage(ctx, domain.TimelineOf(username), start, limit)
	}
	var o pageOptions
	for _, opt := range opts {
		opt(&o)
	}
	return s.mergedPage(ctx, username, pulled, start, limit, o)
}

// PublicLine is the page of everyone's tweets.
func (s *Service) PublicLine(ctx context.Context, start string, limit int) (TweetPage, error) {
	return s.linePage(ctx, domain.PublicLine(), start, limit)
}

// linePage is one slice of limit+1 entries and the tweets of the first limit: "next" exists
// only when the extra entry does, so a full last page never leads to an empty one.
func (s *Service) linePage(ctx context.Context, line domain.LineKey, start string, limit int) (TweetPage, error) {
	limit, before, err := pageArgs(start, limit)
	if err != nil {
		return TweetPage{}, err
	}
	return s.pageOf(ctx, limit, func(ctx context.Context, lines domain.PageLines) ([]domain.LineEntry, error) {
		return lines.Slice(ctx, line, before, limit+1)
	})
}

// pageArgs checks a page's size and reads its cursor.
func pageArgs(start string, limit int) (int, int64, error) {
	limit, err := domain.ValidateLimit(limit)
	if err != nil {
		return 0, 0, err
	}
	before, err := domain.ParseLineCursor(start)
	if err != nil {
		return 0, 0, err
	}
	return limit, before, nil
}

// pageOf reads the page plan chooses (up to limit+1 entries, newest first) with the tweets of
// the first limit (ports.LineStore.ReadPage: each store reads them its own way), and makes the
// page: those tweets, and the cursor of the rest when the extra entry is there. A tweet missing
// from the store is left out, never a crash.
func (s *Service) pageOf(ctx context.Context, limit int, plan domain.PagePlan) (TweetPage, error) {
	entries, err := s.lines.ReadPage(ctx, limit, plan)
	if err != nil {
		return TweetPage{}, err
	}
	return pageFrom(entries, limit), nil
}

// pageFrom makes the page of entries read by ReadPage.
func pageFrom(entries []domain.LineEntry, limit int) TweetPage {
	var page TweetPage
	if len(entries) > limit {
		entries = entries[:limit]
		page.Next = domain.EncodeLineCursor(entries[limit-1].Time)
	}
	page.Tweets = make([]domain.Tweet, 0, len(entries)) // one allocation, not one per doubling
	for _, e := range entries {
		if e.Tweet != nil {
			page.Tweets = append(page.Tweets, *e.Tweet)
		}
	}
	return page
}
