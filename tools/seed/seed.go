// Package seed loads data into any backend through the ports: the seed articles' example data
// (Articles), or realistic synthetic users, follows and tweets (Generate) that are the same for
// the same seed, so two runs can be compared byte for byte with dump.
package seed

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/internal/parallel"
	"twissandra/ports"
)

// The people and the tweet of "Cassandra by example" (seed 001).
const (
	ArticleUser     = "jericevans"
	ArticleFriend   = "ericflo"
	ArticleTweet    = "@ericflo thanks for Twissandra, it helps!"
	ArticlePassword = "**********" // as the article prints it
)

// Articles loads the seed articles' data: jericevans and ericflo, ericflo following jericevans,
// jericevans' tweet to ericflo (so it is in ericflo's home timeline, as the README's walkthrough
// shows), and the blog of "WTF is a SuperColumn" (blog.LoadFixture). Both users' password is
// ArticlePassword. Loading again changes nothing.
func Articles(ctx context.Context, svc *social.Service, blogSvc *blog.Service) error {
	for _, name := range []string{ArticleUser, ArticleFriend} {
		if _, err := svc.SignUp(ctx, name, ArticlePassword); err != nil && !errors.Is(err, domain.ErrAlreadyExists) {
			return fmt.Errorf("sign up %s: %w", name, err)
		}
	}
	if err := svc.Follow(ctx, ArticleFriend, ArticleUser); err != nil {
		return fmt.Errorf("follow: %w", err)
	}
	page, err := svc.Userline(ctx, ArticleUser, "", domain.MaxPageSize)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(page.Tweets, func(t domain.Tweet) bool { return t.Body == ArticleTweet }) {
		if _, err := svc.Post(ctx, ArticleUser, ArticleTweet); err != nil {
			return fmt.Errorf("tweet: %w", err)
		}
	}
	if blogSvc != nil {
		if err := blog.LoadFixture(ctx, blogSvc); err != nil {
			return err
		}
	}
	return nil
}

// Password is the password of every generated user.
const Password = "twissandra"

// passwordHash is a bcrypt hash (cost 10) of Password, made once: hashing thousands of
// passwords would dominate generation, and a fresh salt per run would make runs differ.
const passwordHash = "$2a$10$yjnJnQ0Pm5eOtnQbqtUWl.9N.wY8rMrdX57cXSXqysSx/PduJGtsO"

// Options shape a generated data set.
type Options struct {
	Users  int
	Tweets int
	// Span is how far back from Until the tweets reach; users sign up before it.
	Span  time.Duration
	Until time.Time
	Seed  uint64
	// FollowSkew is the Zipf exponent s (> 1) of follower counts: larger means fewer popular
	// users. 0 means 1.2.
	FollowSkew float64
	// Concurrency bounds the posts in flight; 0 means 8.
	Concurrency int
	// Progress, when set, is called after each tweet is posted (from several goroutines).
	Progress func()
}

// Stats counts what Generate wrote.
type Stats struct {
	Users       int
	Follows     int
	Tweets      int
	LineEntries int64 // every line entry written: userline, public, own timeline, followers' timelines
	MaxFollower int   // the most followers of one user
}

// Plan is a generated data set before it is written.
type Plan struct {
	Users   []domain.User
	Follows [][2]int // follower index, followed index
	Since   []time.Time
	Tweets  []PlannedTweet
}

// PlannedTweet is one tweet to post.
type PlannedTweet struct {
	Author int
	Body   string
	At     time.Time
}

// MakePlan draws the data set from the seed; the same options give the same plan.
func MakePlan(o Options) (Plan, error) {
	if o.Users < 2 {
		return Plan{}, errors.New("--users must be at least 2")
	}
	if o.Tweets < 0 || o.Span <= 0 {
		return Plan{}, errors.New("--tweets must be >= 0 and --span positive")
	}
	if o.FollowSkew == 0 {
		o.FollowSkew = 1.2
	}
	if o.FollowSkew <= 1 {
		return Plan{}, errors.New("the follow skew must be greater than 1")
	}
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))
	start := o.Until.Add(-o.Span).UTC().Truncate(time.Microsecond)
	p := Plan{Users: make([]domain.User, o.Users)}
	for i := range p.Users {
		var id uuid.UUID
		binaryFill(rng, id[:])
		id[6] = id[6]&0x0F | 0x40
		id[8] = id[8]&0x3F | 0x80
		p.Users[i] = domain.User{
			ID:           id,
			Username:     username(rng, i),
			PasswordHash: []byte(passwordHash),
			CreatedAt:    start.Add(-time.Duration(rng.Int64N(int64(90 * 24 * time.Hour)))).Truncate(time.Microsecond),
		}
	}
	// Follower counts are Zipf-distributed: most users have a handful, a few have most users.
	zipf := rand.NewZipf(rng, o.FollowSkew, 2, uint64(o.Users-1))
	for followed := range p.Users {
		k := int(zipf.Uint64())
		for _, follower := range pick(rng, o.Users, k, followed) {
			p.Follows = append(p.Follows, [2]int{follower, followed})
			since := laterOf(p.Users[follower].CreatedAt, p.Users[followed].CreatedAt)
			p.Since = append(p.Since, since.Add(time.Duration(rng.Int64N(int64(24*time.Hour)))).Truncate(time.Microsecond))
		}
	}
	// Activity is skewed too: authors are drawn by Zipf over a shuffled order of users.
	order := rng.Perm(o.Users)
	active := rand.NewZipf(rng, 1.1, 4, uint64(o.Users-1))
	times := make([]int64, o.Tweets)
	for i := range times {
		times[i] = start.UnixMicro() + rng.Int64N(o.Span.Microseconds())
	}
	slices.Sort(times)
	for i := 1; i < len(times); i++ {
		if times[i] <= times[i-1] {
			times[i] = times[i-1] + 1 // every line time unique, as PostAt would make it
		}
	}
	p.Tweets = make([]PlannedTweet, o.Tweets)
	for i := range p.Tweets {
		author := order[active.Uint64()]
		p.Tweets[i] = PlannedTweet{Author: author, At: domain.TimeFromMicros(times[i]), Body: body(rng, p.Users, author)}
	}
	return p, nil
}

func laterOf(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func binaryFill(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

// pick draws k distinct users of n other than skip.
func pick(rng *rand.Rand, n, k, skip int) []int {
	k = min(k, n-1)
	if k > n/4 {
		out := make([]int, 0, k)
		for _, i := range rng.Perm(n) {
			if i != skip && len(out) < k {
				out = append(out, i)
			}
		}
		return out
	}
	seen := make(map[int]bool, k)
	out := make([]int, 0, k)
	for len(out) < k {
		i := rng.IntN(n)
		if i != skip && !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	return out
}

var (
	adjectives = []string{"quiet", "rapid", "sunny", "brave", "lucky", "witty", "mellow", "fuzzy", "cosmic", "nimble", "stormy", "gentle", "bold", "dusty", "rusty", "silent"}
	nouns      = []string{"otter", "falcon", "badger", "comet", "maple", "pixel", "harbor", "walrus", "cactus", "tiger", "pepper", "quasar", "lynx", "ember", "koala", "raven"}
	words      = strings.Fields("cassandra column family super row key token ring gossip compaction memtable sstable commit log quorum replica hinted handoff bloom filter tombstone timestamp slice range wide row thrift cql keyspace comparator timeuuid node cluster latency throughput coffee weekend deploy bug release tests lunch rain music guitar movie")
	openers    = []string{"just learned that", "today:", "anyone else think", "hot take:", "finally shipped", "reading about", "TIL", "debugging", "loving", "why is"}
)

func username(rng *rand.Rand, i int) string {
	return fmt.Sprintf("%s_%s%d", adjectives[rng.IntN(len(adjectives))], nouns[rng.IntN(len(nouns))], i)
}

func body(rng *rand.Rand, users []domain.User, author int) string {
	var sb strings.Builder
	if rng.IntN(5) == 0 {
		other := rng.IntN(len(users))
		if other != author {
			sb.WriteString("@" + users[other].Username + " ")
		}
	}
	sb.WriteString(openers[rng.IntN(len(openers))])
	for n := 3 + rng.IntN(12); n > 0; n-- {
		w := words[rng.IntN(len(words))]
		if sb.Len()+1+len(w) > domain.MaxTweetLen {
			break
		}
		sb.WriteString(" " + w)
	}
	return sb.String()
}

// Generate writes the plan of o through the ports: users (UserStore.CreateUser, with the plan's
// IDs), follows (UserStore.Follow, with the plan's times, before any tweet, so no backfill is
// needed), then the tweets (social.Service.PostAt, with bounded concurrency). Running it again
// on the same store changes nothing: a user that exists with the plan's ID is left alone, follows
// are rewritten as they were, and PostAt gives each tweet the same ID and line time again.
func Generate(ctx context.Context, o Options, users ports.UserStore, svc *social.Service) (Stats, error) {
	p, err := MakePlan(o)
	if err != nil {
		return Stats{}, err
	}
	return Write(ctx, p, o, users, svc)
}

// Write writes a plan (see Generate).
func Write(ctx context.Context, p Plan, o Options, users ports.UserStore, svc *social.Service) (Stats, error) {
	st := Stats{Users: len(p.Users), Follows: len(p.Follows), Tweets: len(p.Tweets)}
	for _, u := range p.Users {
		if err := createUser(ctx, users, u); err != nil {
			return st, err
		}
	}
	followers := make([]int, len(p.Users))
	for i, f := range p.Follows {
		follower, followed := p.Users[f[0]].Username, p.Users[f[1]].Username
		if err := users.Follow(ctx, follower, followed, p.Since[i]); err != nil {
			return st, fmt.Errorf("follow %s -> %s: %w", follower, followed, err)
		}
		followers[f[1]]++
	}
	for _, n := range followers {
		st.MaxFollower = max(st.MaxFollower, n)
	}
	var entries atomic.Int64
	err := parallel.For(ctx, len(p.Tweets), workers(o.Concurrency), func(ctx context.Context, i int) error {
		t := p.Tweets[i]
		author := p.Users[t.Author].Username
		if _, err := svc.PostAt(ctx, author, t.Body, t.At); err != nil {
			return fmt.Errorf("post as %s at %s: %w", author, t.At.Format(time.RFC3339Nano), err)
		}
		entries.Add(int64(3 + followers[t.Author]))
		if o.Progress != nil {
			o.Progress()
		}
		return nil
	})
	st.LineEntries = entries.Load()
	return st, err
}

// workers is the bound of a parallel step: concurrency, where 0 (or less) means 8.
func workers(concurrency int) int {
	if concurrency <= 0 {
		return 8
	}
	return concurrency
}

func createUser(ctx context.Context, users ports.UserStore, u domain.User) error {
	// Look first: on widerow a CreateUser that loses its name removes the User row of its ID,
	// which on a re-run is the very user created before.
	have, err := users.GetUser(ctx, u.Username)
	if errors.Is(err, domain.ErrNotFound) {
		err = users.CreateUser(ctx, u)
		if !errors.Is(err, domain.ErrAlreadyExists) {
			return err
		}
		have, err = users.GetUser(ctx, u.Username)
	}
	if err != nil {
		return fmt.Errorf("user %s: %w", u.Username, err)
	}
	if have.ID != u.ID {
		return fmt.Errorf("user %s already exists with another ID (%s, the seed wants %s): seed an empty store or use another --seed", u.Username, have.ID, u.ID)
	}
	return nil
}
