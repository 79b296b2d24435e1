// Package ports declares the storage contracts of the domain's use cases (domain/social,
// domain/blog): UserStore, TweetStore and LineStore for Twissandra, each a reader and a writer,
// and the four stores of the blog (blog.go), with Pinger for the stores that can lose their
// connection. Every adapter (memory, widerow, cql3) implements them, and ports/porttest checks
// that they all behave alike. This package holds contracts only: what most adapters implement
// alike is in adapters/internal/linestore.
//
// What other concerns read a store through lives beside this package, each with its suite:
// ports/teaching (the teaching views: where a record lives, rows as stored, the lab, the race;
// ports/teachingtest) and ports/scan (enumerating a store whole for the tools; ports/scantest).
// ports/oplog carries the record of what each call cost the storage below.
//
// Rules every implementation follows:
//   - every method takes a context and stops when it is done;
//   - errors wrap the storage's own error with %w and match the domain's sentinels
//     (domain.ErrNotFound, domain.ErrAlreadyExists, domain.ErrUnavailable, domain.ErrInvalid);
//   - paging logic (limit+1, the next cursor) lives in the use cases: a store only answers
//     "up to n records after this position";
//   - follows and lines name users that exist (the use cases check): a store may key them by
//     something it keeps per user, as the Thrift-era model keys them by the user's UUID.
package ports

import (
	"context"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
)

// Each store of Twissandra is a reader and a writer, and UserStore holds two concerns, the users
// and who follows whom: each contract reads on its own, and code that needs one half names it
// (dump reads through the readers; linestore's fan-out takes a FollowReader and a LineWriter).
// A backend implements the whole stores (UserStore, TweetStore, LineStore), which the wiring,
// the wrappers of compare mode and metrics, and the contract suite (ports/porttest) take.

// UserStore keeps users and the follow graph.
type UserStore interface {
	UserReader
	UserWriter
	FollowReader
	FollowWriter
}

// UserReader reads users.
type UserReader interface {
	// GetUser returns the user or domain.ErrNotFound.
	GetUser(ctx context.Context, username string) (domain.User, error)
	// GetUsers returns the users that exist, in the order asked, in one round trip (or a bounded
	// set of concurrent ones); missing names are dropped.
	GetUsers(ctx context.Context, usernames []string) ([]domain.User, error)
}

// UserWriter writes users.
type UserWriter interface {
	// CreateUser stores a new user. Exactly one of any number of concurrent creates of one
	// username succeeds; the others get domain.ErrAlreadyExists.
	CreateUser(ctx context.Context, u domain.User) error
}

// FollowReader reads the follow graph: whom a user follows, who follows them, and the pulled
// authors (the celebrities whose followers read their userline; domain/social/fanout.go).
type FollowReader interface {
	// Friends lists whom username follows, and Followers who follows username: at most limit
	// records, in the store's own stable order, starting after the record whose Cursor is after
	// ("" = from the start). A cursor the store cannot read is domain.ErrInvalid.
	Friends(ctx context.Context, username, after string, limit int) ([]domain.Follow, error)
	Followers(ctx context.Context, username, after string, limit int) ([]domain.Follow, error)
	// FollowerCount returns how many users follow username, exactly: each Follow that adds a
	// follower and each Unfollow that removes one changes it once, however many run at once and
	// however often a store retries. A user nobody follows, or no user at all, counts 0.
	FollowerCount(ctx context.Context, username string) (int64, error)
	// PulledFriends returns the follows of username (with their Since) whose friend was ever
	// marked pulled: a read of the marked authors and one of username's follows among them,
	// never a walk of username's whole friend list. The list is read-only, for the store and
	// its callers alike: a store may hand the same list to every call while nothing changes it.
	PulledFriends(ctx context.Context, username string) ([]domain.Follow, error)
	// PulledAuthors lists every author ever marked pulled, by username (the teaching view shows
	// them; migrate copies them).
	PulledAuthors(ctx context.Context) ([]string, error)
}

// FollowWriter writes the follow graph.
type FollowWriter interface {
	// Follow records that username follows friend, on both sides (friends and followers), and
	// counts friend's new follower. Following again changes nothing: the first since stays (a
	// pulled friend's userline is merged into username's timeline from it on).
	Follow(ctx context.Context, username, friend string, since time.Time) error
	// Unfollow removes both sides, and counts friend's follower gone. Unfollowing someone not
	// followed is not an error and counts nothing.
	Unfollow(ctx context.Context, username, friend string) error
	// MarkPulled records that username's posts are pulled from now on: they go to no follower's
	// timeline, and the followers' pages read them from username's userline. Marking again
	// changes nothing. A store never forgets an author it was told of: the posts made while
	// pulled are in no timeline, whatever the author's count becomes.
	MarkPulled(ctx context.Context, username string) error
}

// TweetStore keeps tweets by ID.
type TweetStore interface {
	TweetReader
	TweetWriter
}

// TweetReader reads tweets by ID.
type TweetReader interface {
	// GetTweet returns the tweet or domain.ErrNotFound.
	GetTweet(ctx context.Context, id uuid.UUID) (domain.Tweet, error)
	// GetTweets returns the tweets that exist, in the order asked, in one round trip (or a
	// bounded set of concurrent ones); missing IDs are dropped.
	GetTweets(ctx context.Context, ids []uuid.UUID) ([]domain.Tweet, error)
}

// TweetWriter writes tweets.
type TweetWriter interface {
	// SaveTweet stores the tweet (an upsert by ID).
	SaveTweet(ctx context.Context, t domain.Tweet) error
}

// LineStore keeps the userlines, timelines and the public line.
type LineStore interface {
	LineReader
	LineWriter
}

// LineReader reads the lines: a slice of one, of several at once, and a page with its tweets.
type LineReader interface {
	// Slice returns at most limit entries of line, newest first, strictly older than before
	// (before <= 0: from the newest). An unknown line is empty, not an error.
	Slice(ctx context.Context, line domain.LineKey, before int64, limit int) ([]domain.LineEntry, error)
	// SliceMany slices several lines, each as Slice would, the results in the order asked. A
	// store that pays a round trip per slice sends them at once (a merged home page reads a
	// timeline and several userlines); a local store reads them one after another.
	SliceMany(ctx context.Context, reqs []domain.LineSlice) ([][]domain.LineEntry, error)
	// ReadPage reads one page of a line, or of several merged (a home page with pulled
	// authors), with the page's tweets. Which entries make the page is the use case's rule, and
	// how its lines and tweets are read is the store's: so the use case hands its rule over as
	// plan, and the store runs it on its own lines (a domain.PageLines, which plan slices) and
	// then reads the tweets. Compare mode runs the whole of it on each of its two models, each
	// reading the page as it would alone.
	//
	// It returns the entries plan chose, the first limit of them with their tweets: those the
	// lines carry as they are, the others read by ID in one multiget (a store whose lines keep
	// IDs only reads them all). An entry whose tweet is missing (a write cut short) keeps Tweet
	// nil; the entries past limit, which only say that a next page exists, are returned as read.
	ReadPage(ctx context.Context, limit int, plan domain.PagePlan) ([]domain.LineEntry, error)
}

// LineWriter writes the lines.
type LineWriter interface {
	// Append adds one entry to many lines at once; the store chooses how to fan out (one batch,
	// bounded concurrent inserts). Appending an entry already present is harmless.
	Append(ctx context.Context, e domain.LineEntry, lines ...domain.LineKey) error
	// AppendToFollowers adds e to lines and to the timeline of every follower of author, in one
	// Append as the store chooses: the followers as this store lists them (Followers), their
	// timelines named by the store itself, so that a store which keys both by something of its
	// own (widerow: the follower's UUID is the column name in the author's Followers row and the
	// key of the follower's Timeline row) goes from one to the other without the usernames, and
	// never names a row of another store. It returns how many lines the entry went to.
	AppendToFollowers(ctx context.Context, e domain.LineEntry, author string, lines ...domain.LineKey) (int, error)
	// AppendEntries adds many entries to one line (the backfill of a follow).
	AppendEntries(ctx context.Context, line domain.LineKey, entries []domain.LineEntry) error
	// Remove deletes the entries with these times from line; absent ones are ignored.
	Remove(ctx context.Context, line domain.LineKey, times ...int64) error
	// Backfill copies the newest limit entries of from (a followed user's userline) into line
	// (the follower's timeline), each written as this store writes an entry itself: a store
	// whose lines carry their tweets writes them whole, reading by ID the tweets of entries it
	// read without one (rows older than its query-first tables). Every model copies from its
	// own line, so compare mode runs the whole of it on each.
	Backfill(ctx context.Context, line, from domain.LineKey, limit int) error
}

// Stores is every store of one backend: what the tools that copy, dump or verify a whole
// backend take, and what the wrappers of compare mode and metrics wrap at once.
type Stores struct {
	Users    UserStore
	Tweets   TweetStore
	Lines    LineStore
	Authors  AuthorStore
	Entries  EntryStore
	Tags     TagIndex
	Comments CommentStore
	Sessions SessionStore
}

// Twin is implemented by the stores of compare mode (adapters/compare), each of which runs one
// store of two models as one, for a use case that must leave both models holding the same
// records, IDs included (the article's blog loaded from its lesson after the primary alone was
// seeded): it reads each model apart and copies to one what the other holds and it lacks. A
// store of one model does not implement it.
type Twin[S any] interface {
	// Models returns the primary model's store and the secondary's.
	Models() (primary, secondary S)
	// OnPrimary runs call on the primary as compare mode runs the primary's calls.
	OnPrimary(ctx context.Context, call func(context.Context) error) error
	// OnSecondary runs call on the secondary as compare mode runs the secondary's calls: under
	// a deadline of its own, its operations recorded apart from the primary's. Any error call
	// returns is reported beside the request's operations, naming op, and returned.
	OnSecondary(ctx context.Context, op string, call func(context.Context) error) error
}

// Pinger is implemented by stores that can lose their connection; /readyz asks it.
type Pinger interface {
	Ping(ctx context.Context) error
}
