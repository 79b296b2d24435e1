// Package porttest is the one contract suite every storage adapter runs: one call checks that an
// adapter behaves like every other, from raw port semantics up to the use cases built on them
// (exact paging, same-microsecond tweets, fan-out past 5000 followers, follow backfill, unfollow
// cleanup, concurrent sign-ups).
//
//	func TestContract(t *testing.T) {
//		porttest.Run(t, func(t *testing.T) porttest.Stores { s := memory.New(); return porttest.Stores{s, s, s} })
//	}
package porttest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports"
)

// Stores is what an adapter hands the suite.
type Stores struct {
	Users  ports.UserStore
	Tweets ports.TweetStore
	Lines  ports.LineStore
}

// Factory returns stores for one subtest. They must be empty, or at least hold nothing in the
// public line and no user of the names the subtest makes (each subtest makes its own names).
// The suite only follows, posts as and reads the lines of users it has created, as the
// application does: a store may key lines and follows by something it keeps per user.
type Factory func(t *testing.T) Stores

// Run runs the whole Twissandra contract.
func Run(t *testing.T, newStores Factory) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s Stores)
	}{
		{"CreateAndGetUser", testCreateAndGetUser},
		{"ConcurrentSignUpsOneWinner", testConcurrentSignUps},
		{"GetUsersKeepsOrderDropsMissing", testGetUsers},
		{"FollowWritesBothSides", testFollowBothSides},
		{"FollowPagingIsExact", testFollowPaging},
		{"TweetsSaveGetMultiget", testTweets},
		{"LineSliceOrderAndBounds", testLineSlice},
		{"LineAppendManyAndRemove", testLineAppendRemove},
		{"LinePagingIsExact", testLinePaging},
		{"SameMicrosecondTweetsBothKept", testSameMicrosecond},
		{"PostFansOutToEveryFollower", testFanOut},
		{"FanOutPastFiveThousandFollowers", testFanOutLarge},
		{"AppendToFollowersReachesTheFollowersNow", testAppendToFollowers},
		{"FollowBackfillsUnfollowCleansUp", testBackfillCleanup},
		{"PagingStableUnderConcurrentPosts", testPagingUnderAppends},
		{"ServiceErrors", testServiceErrors},
		{"MissingTweetIsSkippedNotFatal", testMissingTweet},
		{"LineEntriesCarryTheirTweetOrNone", testLineCarriesTweet},
		{"FollowerCountIsExact", testFollowerCount},
		{"FollowerCountExactUnderConcurrentFollows", testFollowerCountConcurrent},
		{"PulledFriendsAreThePulledAmongFriends", testPulledFriends},
		{"PulledAuthorMergedFromTheFollow", testPulledAuthorMergedFromTheFollow},
		{"SliceManyIsEachSlice", testSliceMany},
		{"ReadPageGivesThePageItsTweets", testReadPage},
		{"BackfillCopiesTheNewestEntries", testBackfill},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStores(t)) })
	}
	t.Run("HybridFanOutPagesEqualPushToEveryone", func(t *testing.T) { testHybridEqualsPush(t, newStores) })
}

// stepClock advances one microsecond per reading, so tests get distinct, ordered times fast.
type stepClock struct{ now atomic.Int64 }

func newStepClock() *stepClock {
	c := &stepClock{}
	c.now.Store(time.Date(2010, 5, 12, 9, 0, 0, 0, time.UTC).UnixMicro())
	return c
}

func (c *stepClock) Now() time.Time { return time.UnixMicro(c.now.Add(1)).UTC() }

// frozenClock always says the same microsecond.
type frozenClock struct{ t time.Time }

func (c frozenClock) Now() time.Time { return c.t }

func service(s Stores, clock domain.Clock) *social.Service {
	if clock == nil {
		clock = newStepClock()
	}
	return social.New(s.Users, s.Tweets, s.Lines, clock, domain.NewPasswordHasher(bcrypt.MinCost))
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}

// name makes a username unique to this run so stores shared between subtests never clash.
func name(prefix string) string {
	return fmt.Sprintf("%s_%s", prefix, uuid.NewString()[:8])
}

func mustUser(t *testing.T, s Stores, username string) domain.User {
	t.Helper()
	u := domain.User{ID: uuid.New(), Username: username, PasswordHash: []byte("$2a$04$hash-of-" + username), CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
	if err := s.Users.CreateUser(ctx(t), u); err != nil {
		t.Fatalf("CreateUser(%s): %v", username, err)
	}
	return u
}

func testCreateAndGetUser(t *testing.T, s Stores) {
	c := ctx(t)
	u := mustUser(t, s, name("jericevans"))
	got, err := s.Users.GetUser(c, u.Username)
	if err != nil {
		t.Fatalf("GetUser: %v", err)
	}
	if got.ID != u.ID || got.Username != u.Username || string(got.PasswordHash) != string(u.PasswordHash) || !got.CreatedAt.Equal(u.CreatedAt) {
		t.Fatalf("GetUser = %+v, want %+v", got, u)
	}
	if _, err := s.Users.GetUser(c, name("nobody")); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("GetUser(missing) err = %v, want ErrNotFound", err)
	}
	dup := u
	dup.ID = uuid.New()
	dup.PasswordHash = []byte("other")
	if err := s.Users.CreateUser(c, dup); !errors.Is(err, domain.ErrAlreadyExists) {
		t.Fatalf("CreateUser(duplicate) err = %v, want ErrAlreadyExists", err)
	}
	got, err = s.Users.GetUser(c, u.Username)
	if err != nil || got.ID != u.ID || string(got.PasswordHash) != string(u.PasswordHash) {
		t.Fatalf("after a refused duplicate, GetUser = %+v, %v; want the original", got, err)
	}
}

func testConcurrentSignUps(t *testing.T, s Stores) {
	c := ctx(t)
	username := name("popular")
	const n = 50
	ids := make([]uuid.UUID, n)
	for i := range ids {
		ids[i] = uuid.New()
	}
	winner := exactlyOneWins(t, "sign-ups", n, domain.ErrAlreadyExists, func(i int) error {
		return s.Users.CreateUser(c, domain.User{ID: ids[i], Username: username, PasswordHash: []byte("h"), CreatedAt: time.Now().UTC()})
	})
	got, err := s.Users.GetUser(c, username)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != ids[winner] {
		t.Fatalf("stored user %s is not the winner %s", got.ID, ids[winner])
	}
}

func testGetUsers(t *testing.T, s Stores) {
	a, b, cc := mustUser(t, s, name("a")), mustUser(t, s, name("b")), mustUser(t, s, name("c"))
	got, err := s.Users.GetUsers(ctx(t), []string{cc.Username, name("missing"), a.Username, b.Username})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{cc.Username, a.Username, b.Username}
	if names := usernames(got); !slices.Equal(names, want) {
		t.Fatalf("GetUsers = %v, want %v", names, want)
	}
	got, err = s.Users.GetUsers(ctx(t), nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("GetUsers(nil) = %v, %v", got, err)
	}
}

func usernames(us []domain.User) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.Username
	}
	return out
}

func testFollowBothSides(t *testing.T, s Stores) {
	c := ctx(t)
	a, b := mustUser(t, s, name("a")), mustUser(t, s, name("b"))
	since := time.Date(2010, 3, 1, 12, 0, 0, 123000, time.UTC)
	if err := s.Users.Follow(c, a.Username, b.Username, since); err != nil {
		t.Fatal(err)
	}
	friends, err := s.Users.Friends(c, a.Username, "", 10)
	if err != nil || len(friends) != 1 || friends[0].Username != b.Username || !friends[0].Since.Equal(since) {
		t.Fatalf("Friends(a) = %+v, %v; want b since %v", friends, err, since)
	}
	followers, err := s.Users.Followers(c, b.Username, "", 10)
	if err != nil || len(followers) != 1 || followers[0].Username != a.Username || !followers[0].Since.Equal(since) {
		t.Fatalf("Followers(b) = %+v, %v; want a", followers, err)
	}
	if fs, _ := s.Users.Friends(c, b.Username, "", 10); len(fs) != 0 {
		t.Fatalf("Friends(b) = %+v; following is one-way", fs)
	}
	for i := 0; i < 2; i++ { // the second unfollow must be harmless
		if err := s.Users.Unfollow(c, a.Username, b.Username); err != nil {
			t.Fatalf("Unfollow #%d: %v", i+1, err)
		}
	}
	friends, _ = s.Users.Friends(c, a.Username, "", 10)
	followers, _ = s.Users.Followers(c, b.Username, "", 10)
	if len(friends) != 0 || len(followers) != 0 {
		t.Fatalf("after unfollow: friends %v followers %v", friends, followers)
	}
}

func testFollowPaging(t *testing.T, s Stores) {
	svc := service(s, nil)
	const limit = 4
	for _, n := range []int{0, limit - 1, limit, limit + 1, 2 * limit} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			c := ctx(t)
			star := mustUser(t, s, name("star"))
			var want []string
			for i := 0; i < n; i++ {
				f := mustUser(t, s, name(fmt.Sprintf("fan%d", i)))
				if err := s.Users.Follow(c, f.Username, star.Username, time.Now().UTC()); err != nil {
					t.Fatal(err)
				}
				want = append(want, f.Username)
			}
			follows, pages := walkPages(t, limit, func(start string) ([]domain.Follow, string, error) {
				p, err := svc.Followers(c, star.Username, start, limit)
				return p.Follows, p.Next, err
			})
			got := social.FollowPage{Follows: follows}.Usernames()
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("paged followers = %v, want %v", got, want)
			}
			checkPageCount(t, "followers", n, limit, pages)
		})
	}
}

func testTweets(t *testing.T, s Stores) {
	c := ctx(t)
	now := time.Now().UnixMicro()
	author := mustUser(t, s, name("u")).Username
	var tweets []domain.Tweet
	for i := 0; i < 3; i++ {
		tw := domain.Tweet{ID: domain.NewTimeUUID(now + int64(i)), Username: author, Body: fmt.Sprintf("tweet %d ✓", i), CreatedAt: domain.TimeFromMicros(now + int64(i))}
		if err := s.Tweets.SaveTweet(c, tw); err != nil {
			t.Fatal(err)
		}
		tweets = append(tweets, tw)
	}
	got, err := s.Tweets.GetTweet(c, tweets[1].ID)
	if err != nil || !sameTweet(got, tweets[1]) {
		t.Fatalf("GetTweet = %+v, %v; want %+v", got, err, tweets[1])
	}
	if _, err := s.Tweets.GetTweet(c, domain.NewTimeUUID(now)); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("GetTweet(missing) err = %v, want ErrNotFound", err)
	}
	many, err := s.Tweets.GetTweets(c, []uuid.UUID{tweets[2].ID, domain.NewTimeUUID(now), tweets[0].ID})
	if err != nil || len(many) != 2 || !sameTweet(many[0], tweets[2]) || !sameTweet(many[1], tweets[0]) {
		t.Fatalf("GetTweets = %+v, %v; want tweets 2 and 0 in that order", many, err)
	}
}

func sameTweet(a, b domain.Tweet) bool {
	return a.ID == b.ID && a.Username == b.Username && a.Body == b.Body && a.CreatedAt.Equal(b.CreatedAt)
}

func entry(micros int64) domain.LineEntry {
	return domain.LineEntry{Time: micros, TweetID: domain.NewTimeUUID(micros)}
}

func times(es []domain.LineEntry) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.Time
	}
	return out
}

func testLineSlice(t *testing.T, s Stores) {
	c := ctx(t)
	line := domain.UserlineOf(mustUser(t, s, name("u")).Username)
	base := time.Now().UnixMicro()
	// Out of order on purpose: a line is ordered by time, not by arrival.
	for _, d := range []int64{3, 1, 5, 2, 4} {
		if err := s.Lines.Append(c, entry(base+d), line); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		before int64
		limit  int
		want   []int64
	}{
		{0, 10, []int64{5, 4, 3, 2, 1}},
		{0, 2, []int64{5, 4}},
		{base + 4, 10, []int64{3, 2, 1}},
		{base + 4, 1, []int64{3}},
		{base + 1, 10, nil},
		{base + 100, 2, []int64{5, 4}},
	}
	for _, tc := range cases {
		got, err := s.Lines.Slice(c, line, tc.before, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		for _, d := range tc.want {
			want = append(want, base+d)
		}
		if g := times(got); !slices.Equal(g, want) {
			t.Errorf("Slice(before=%d, limit=%d) = %v, want %v", tc.before-base, tc.limit, g, want)
		}
	}
	for _, e := range mustSlice(t, s, line, 0, 10) {
		if domain.TimeUUIDMicros(e.TweetID) != e.Time {
			t.Fatalf("entry %d carries tweet %s of another time", e.Time, e.TweetID)
		}
	}
	if got := mustSlice(t, s, domain.TimelineOf(name("nobody")), 0, 10); len(got) != 0 {
		t.Fatalf("an unknown line holds %v", got)
	}
}

func mustSlice(t *testing.T, s Stores, line domain.LineKey, before int64, limit int) []domain.LineEntry {
	t.Helper()
	got, err := s.Lines.Slice(ctx(t), line, before, limit)
	if err != nil {
		t.Fatalf("Slice(%v): %v", line, err)
	}
	return got
}

func testLineAppendRemove(t *testing.T, s Stores) {
	c := ctx(t)
	a, b := domain.TimelineOf(mustUser(t, s, name("a")).Username), domain.TimelineOf(mustUser(t, s, name("b")).Username)
	base := time.Now().UnixMicro()
	e1, e2, e3 := entry(base+1), entry(base+2), entry(base+3)
	if err := s.Lines.Append(c, e1, a, b); err != nil {
		t.Fatal(err)
	}
	if err := s.Lines.AppendEntries(c, a, []domain.LineEntry{e3, e2}); err != nil {
		t.Fatal(err)
	}
	if err := s.Lines.Append(c, e1, a); err != nil { // again: harmless
		t.Fatal(err)
	}
	got := mustSlice(t, s, a, 0, 10)
	if !slices.Equal(times(got), []int64{e3.Time, e2.Time, e1.Time}) || got[0].TweetID != e3.TweetID {
		t.Fatalf("line a = %v", got)
	}
	if got := mustSlice(t, s, b, 0, 10); len(got) != 1 || got[0] != e1 {
		t.Fatalf("line b = %v, want [e1]", got)
	}
	if err := s.Lines.Remove(c, a, e2.Time, base+99); err != nil {
		t.Fatal(err)
	}
	if got := times(mustSlice(t, s, a, 0, 10)); !slices.Equal(got, []int64{e3.Time, e1.Time}) {
		t.Fatalf("after Remove(e2), line a = %v", got)
	}
	if got := mustSlice(t, s, b, 0, 10); len(got) != 1 {
		t.Fatalf("Remove on a touched b: %v", got)
	}
}

// postN posts n tweets as username and returns them newest first.
func postN(t *testing.T, svc *social.Service, username string, n int) []domain.Tweet {
	t.Helper()
	out := make([]domain.Tweet, n)
	for i := 0; i < n; i++ {
		tw, err := svc.Post(ctx(t), username, fmt.Sprintf("tweet %d of %s", i, username))
		if err != nil {
			t.Fatalf("Post: %v", err)
		}
		out[n-1-i] = tw
	}
	return out
}

func tweetIDs(ts []domain.Tweet) []uuid.UUID {
	out := make([]uuid.UUID, len(ts))
	for i, tw := range ts {
		out[i] = tw.ID
	}
	return out
}

type pager func(start string) (social.TweetPage, error)

// walk pages through a line with walkPages.
func walk(t *testing.T, limit int, page pager) (all []domain.Tweet, pages int) {
	t.Helper()
	return walkPages(t, limit, func(start string) ([]domain.Tweet, string, error) {
		p, err := page(start)
		return p.Tweets, p.Next, err
	})
}

func testLinePaging(t *testing.T, s Stores) {
	const limit = 5
	for _, n := range []int{0, limit - 1, limit, limit + 1, 2 * limit} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			svc := service(s, nil)
			u := name("pager")
			if _, err := svc.SignUp(ctx(t), u, "password1"); err != nil {
				t.Fatal(err)
			}
			want := postN(t, svc, u, n)
			for _, line := range []struct {
				name string
				page pager
			}{
				{"userline", func(st string) (social.TweetPage, error) { return svc.Userline(ctx(t), u, st, limit) }},
				{"timeline", func(st string) (social.TweetPage, error) { return svc.Timeline(ctx(t), u, st, limit) }},
			} {
				got, pages := walk(t, limit, line.page)
				if !slices.Equal(tweetIDs(got), tweetIDs(want)) {
					t.Fatalf("%s: paged %d tweets, want %d, newest first, no gaps or duplicates", line.name, len(got), len(want))
				}
				checkPageCount(t, line.name+" tweets", n, limit, pages)
			}
		})
	}
}

func testSameMicrosecond(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, frozenClock{t: time.Date(2014, 4, 17, 12, 0, 0, 0, time.UTC)})
	a, b := name("a"), name("b")
	for _, u := range []string{a, b} {
		if _, err := svc.SignUp(c, u, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Follow(c, b, a); err != nil {
		t.Fatal(err)
	}
	t1, err := svc.Post(c, a, "first")
	if err != nil {
		t.Fatal(err)
	}
	t2, err := svc.Post(c, a, "second, same microsecond on the clock")
	if err != nil {
		t.Fatal(err)
	}
	t3, err := svc.Post(c, b, "third, by another user")
	if err != nil {
		t.Fatal(err)
	}
	if t1.ID == t2.ID || t1.Time() == t2.Time() {
		t.Fatalf("two tweets share a name: %v %v", t1, t2)
	}
	want := []uuid.UUID{t3.ID, t2.ID, t1.ID}
	if p, _ := svc.Timeline(c, b, "", 10); !slices.Equal(tweetIDs(p.Tweets), want) {
		t.Fatalf("timeline of b = %v, want all three", tweetIDs(p.Tweets))
	}
	if p, _ := svc.PublicLine(c, "", 10); !slices.Equal(tweetIDs(p.Tweets), want) {
		t.Fatalf("public line = %v, want all three", tweetIDs(p.Tweets))
	}
}

func testFanOut(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, nil)
	author := name("ericflo")
	fans := []string{name("jericevans"), name("fan"), name("fan")}
	for _, u := range append([]string{author}, fans...) {
		if _, err := svc.SignUp(c, u, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range fans {
		if err := svc.Follow(c, f, author); err != nil {
			t.Fatal(err)
		}
	}
	stranger := name("stranger")
	if _, err := svc.SignUp(c, stranger, "password1"); err != nil {
		t.Fatal(err)
	}
	tw, err := svc.Post(c, author, "  @jericevans thanks for Twissandra, it helps!  ")
	if err != nil {
		t.Fatal(err)
	}
	if tw.Body != "@jericevans thanks for Twissandra, it helps!" {
		t.Fatalf("body not trimmed: %q", tw.Body)
	}
	for _, line := range []domain.LineKey{domain.UserlineOf(author), domain.TimelineOf(author), domain.PublicLine(), domain.TimelineOf(fans[0]), domain.TimelineOf(fans[2])} {
		if got := mustSlice(t, s, line, 0, 1); len(got) != 1 || got[0].TweetID != tw.ID || got[0].Time != tw.Time() {
			t.Fatalf("%v = %v, want the new tweet at its time", line, got)
		}
	}
	if got := mustSlice(t, s, domain.TimelineOf(stranger), 0, 1); len(got) != 0 {
		t.Fatalf("a non-follower's timeline got %v", got)
	}
	got, err := svc.GetTweet(c, tw.ID)
	if err != nil || !sameTweet(got, tw) {
		t.Fatalf("GetTweet = %+v, %v", got, err)
	}
}

func testFanOutLarge(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, nil)
	author := mustUser(t, s, name("celebrity")).Username
	const n = domain.MaxFollowPage + 37
	fans := make([]string, n)
	var wg sync.WaitGroup
	work := make(chan int)
	var failed atomic.Value
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if err := s.Users.CreateUser(c, domain.User{ID: uuid.New(), Username: fans[i], PasswordHash: []byte("h"), CreatedAt: time.Now().UTC()}); err != nil {
					failed.Store(err)
				} else if err := s.Users.Follow(c, fans[i], author, time.Now().UTC()); err != nil {
					failed.Store(err)
				}
			}
		}()
	}
	prefix := name("f")
	for i := range fans {
		fans[i] = fmt.Sprintf("%s_%05d", prefix, i)
		work <- i
	}
	close(work)
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		t.Fatal(err)
	}
	tw, err := svc.Post(c, author, "hello to all of you")
	if err != nil {
		t.Fatal(err)
	}
	missing := 0
	for _, f := range fans {
		if got := mustSlice(t, s, domain.TimelineOf(f), 0, 1); len(got) != 1 || got[0].TweetID != tw.ID {
			missing++
		}
	}
	if missing > 0 {
		t.Fatalf("%d of %d followers did not get the tweet", missing, n)
	}
}

func testBackfillCleanup(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, nil)
	a, b := name("a"), name("b")
	for _, u := range []string{a, b} {
		if _, err := svc.SignUp(c, u, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	aOld := postN(t, svc, a, 3)
	bOwn := postN(t, svc, b, 2)
	if err := svc.Follow(c, b, a); err != nil {
		t.Fatal(err)
	}
	aNew := postN(t, svc, a, 1)
	p, err := svc.Timeline(c, b, "", 40)
	if err != nil {
		t.Fatal(err)
	}
	// Newest first: a's new tweet, then b's two, then a's three older ones.
	want := tweetIDs(slices.Concat(aNew, bOwn, aOld))
	if !slices.Equal(tweetIDs(p.Tweets), want) {
		t.Fatalf("after follow, timeline of b has %d tweets, want a's backfilled ones and b's own in time order", len(p.Tweets))
	}
	if err := svc.Unfollow(c, b, a); err != nil {
		t.Fatal(err)
	}
	p, _ = svc.Timeline(c, b, "", 40)
	if !slices.Equal(tweetIDs(p.Tweets), tweetIDs(bOwn)) {
		t.Fatalf("after unfollow, timeline of b has %d tweets, want only b's own 2", len(p.Tweets))
	}
	if p, _ := svc.Userline(c, a, "", 40); len(p.Tweets) != 4 {
		t.Fatalf("unfollow touched a's userline: %d tweets", len(p.Tweets))
	}
	if err := svc.Unfollow(c, b, a); err != nil {
		t.Fatalf("a second unfollow: %v", err)
	}
}

func testPagingUnderAppends(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, nil)
	u := name("busy")
	if _, err := svc.SignUp(c, u, "password1"); err != nil {
		t.Fatal(err)
	}
	before := postN(t, svc, u, 23)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := svc.Post(c, u, fmt.Sprintf("concurrent %d", i)); err != nil {
				t.Errorf("concurrent post: %v", err)
				return
			}
		}
	}()
	// The first page may include new tweets; every later page continues strictly below the cursor,
	// so the tweets that existed before must all appear exactly once, in order.
	got, _ := walk(t, 4, func(st string) (social.TweetPage, error) { return svc.Userline(c, u, st, 4) })
	close(stop)
	wg.Wait()
	seen := map[uuid.UUID]bool{}
	for i, tw := range got {
		if seen[tw.ID] {
			t.Fatalf("tweet %s appears twice", tw.ID)
		}
		seen[tw.ID] = true
		if i > 0 && got[i-1].Time() <= tw.Time() {
			t.Fatalf("pages are not newest first at %d", i)
		}
	}
	for _, tw := range before {
		if !seen[tw.ID] {
			t.Fatalf("tweet %q vanished while paging", tw.Body)
		}
	}
}

func testServiceErrors(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, nil)
	a := name("a")
	if _, err := svc.SignUp(c, a, "password1"); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		what string
		err  error
		want error
	}{
		{"sign up taken", second(svc.SignUp(c, a, "password2")), domain.ErrAlreadyExists},
		{"sign up bad name", second(svc.SignUp(c, "no spaces", "password1")), domain.ErrInvalid},
		{"sign up short password", second(svc.SignUp(c, name("b"), "short")), domain.ErrInvalid},
		{"log in wrong password", second(svc.LogIn(c, a, "password2")), domain.ErrUnauthenticated},
		{"log in unknown user", second(svc.LogIn(c, name("ghost"), "password1")), domain.ErrUnauthenticated},
		{"get unknown user", second(svc.GetUser(c, name("ghost"))), domain.ErrNotFound},
		{"follow unknown", svc.Follow(c, a, name("ghost")), domain.ErrNotFound},
		{"unfollow unknown", svc.Unfollow(c, a, name("ghost")), domain.ErrNotFound},
		{"follow self", svc.Follow(c, a, a), domain.ErrInvalid},
		{"empty tweet", second(svc.Post(c, a, " \n\t ")), domain.ErrInvalid},
		{"141 code points", second(svc.Post(c, a, string(make([]rune, 141)))), domain.ErrInvalid},
		{"userline of unknown", second(svc.Userline(c, name("ghost"), "", 10)), domain.ErrNotFound},
		{"limit 201", second(svc.PublicLine(c, "", 201)), domain.ErrInvalid},
		{"limit -1", second(svc.PublicLine(c, "", -1)), domain.ErrInvalid},
		{"garbage cursor", second(svc.PublicLine(c, "not-a-cursor", 10)), domain.ErrInvalid},
		{"missing tweet", second(svc.GetTweet(c, domain.NewTimeUUID(1))), domain.ErrNotFound},
	}
	for _, ch := range checks {
		if !errors.Is(ch.err, ch.want) {
			t.Errorf("%s: err = %v, want %v", ch.what, ch.err, ch.want)
		}
	}
	if u, err := svc.LogIn(c, a, "password1"); err != nil || u.Username != a {
		t.Fatalf("log in = %v, %v", u, err)
	}
	emoji := ""
	for i := 0; i < 140; i++ {
		emoji += "🐦"
	}
	if _, err := svc.Post(c, a, emoji); err != nil {
		t.Fatalf("140 emoji refused: %v", err)
	}
	if p, _ := svc.Userline(c, a, "", 10); len(p.Tweets) != 1 {
		t.Fatalf("refused posts were stored: userline has %d tweets", len(p.Tweets))
	}
}

func second[T any](_ T, err error) error { return err }

func testMissingTweet(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, nil)
	u := name("u")
	if _, err := svc.SignUp(c, u, "password1"); err != nil {
		t.Fatal(err)
	}
	posted := postN(t, svc, u, 2)
	// A line entry whose tweet was never stored (a post cut short between its writes).
	ghost := entry(posted[0].Time() + 1)
	if err := s.Lines.Append(c, ghost, domain.UserlineOf(u)); err != nil {
		t.Fatal(err)
	}
	p, err := svc.Userline(c, u, "", 10)
	if err != nil {
		t.Fatalf("a dangling line entry broke the page: %v", err)
	}
	if !slices.Equal(tweetIDs(p.Tweets), tweetIDs(posted)) {
		t.Fatalf("page = %v, want the two real tweets", tweetIDs(p.Tweets))
	}
}

// testLineCarriesTweet: a store may keep a line entry's tweet in the line (ports.LineStore: the
// query-first tables) or only its ID. Either way an entry read back that carries a tweet carries
// exactly the stored tweet; an entry appended without one (a row older than such tables) reads
// back without one or with the right one; and a page over a line mixing both is the page of
// tweets by ID, in order.
func testLineCarriesTweet(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, nil)
	author := name("carrier")
	if _, err := svc.SignUp(c, author, "password1"); err != nil {
		t.Fatal(err)
	}
	var posted []domain.Tweet
	for i := range 3 {
		tw, err := svc.Post(c, author, fmt.Sprintf("carried %d", i))
		if err != nil {
			t.Fatal(err)
		}
		posted = append(posted, tw)
	}
	// An old row: the tweet exists, the line holds only its ID.
	old := domain.Tweet{ID: domain.NewTimeUUID(posted[0].Time() - 1000), Username: author, Body: "from before", CreatedAt: domain.TimeFromMicros(posted[0].Time() - 1000)}
	if err := s.Tweets.SaveTweet(c, old); err != nil {
		t.Fatal(err)
	}
	if err := s.Lines.AppendEntries(c, domain.UserlineOf(author), []domain.LineEntry{{Time: old.Time(), TweetID: old.ID}}); err != nil {
		t.Fatal(err)
	}
	entries, err := s.Lines.Slice(c, domain.UserlineOf(author), 0, 10)
	if err != nil || len(entries) != 4 {
		t.Fatalf("Slice: %d entries, %v", len(entries), err)
	}
	want := append([]domain.Tweet{posted[2], posted[1], posted[0]}, old)
	for i, e := range entries {
		if e.TweetID != want[i].ID {
			t.Fatalf("entry %d names %s, want %s", i, e.TweetID, want[i].ID)
		}
		if e.Tweet != nil && (e.Tweet.ID != want[i].ID || e.Tweet.Username != want[i].Username || e.Tweet.Body != want[i].Body || !e.Tweet.CreatedAt.Equal(want[i].CreatedAt)) {
			t.Errorf("entry %d carries %+v, want %+v", i, *e.Tweet, want[i])
		}
	}
	page, err := svc.Userline(c, author, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Tweets) != 4 {
		t.Fatalf("page of %d tweets", len(page.Tweets))
	}
	for i, tw := range page.Tweets {
		if tw.ID != want[i].ID || tw.Body != want[i].Body || !tw.CreatedAt.Equal(want[i].CreatedAt) {
			t.Errorf("page tweet %d: %+v, want %+v", i, tw, want[i])
		}
	}
	// A follow copies the userline, old row included, into the follower's timeline whole.
	fan := name("fan")
	if _, err := svc.SignUp(c, fan, "password1"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Follow(c, fan, author); err != nil {
		t.Fatal(err)
	}
	tl, err := svc.Timeline(c, fan, "", 10)
	if err != nil || len(tl.Tweets) != 4 || tl.Tweets[3].Body != "from before" {
		t.Fatalf("the follower's timeline: %+v, %v", tl.Tweets, err)
	}
}

// testReadPage: ReadPage runs the plan on the store's own lines and returns what it chose, the
// first limit entries with their tweets (carried or read by ID, a missing one nil), the rest as
// read; a plan's error is the call's. The lines a plan reads name themselves, the same in every
// page read (what the server keeps of them between pages is kept by that name).
func testReadPage(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, nil)
	author := name("pager")
	if _, err := svc.SignUp(c, author, "password1"); err != nil {
		t.Fatal(err)
	}
	posted := postN(t, svc, author, 5) // newest first
	// A line entry whose tweet was never stored, older than every post.
	ghost := entry(posted[4].Time() - 1)
	if err := s.Lines.Append(c, ghost, domain.UserlineOf(author)); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var named [2][]domain.LinesID // by each page read, the LinesID of every run of its plan
	runs := 0
	page, err := s.Lines.ReadPage(c, 3, func(ctx context.Context, lines domain.PageLines) ([]domain.LineEntry, error) {
		mu.Lock()
		runs++
		named[0] = append(named[0], lines.LinesID())
		mu.Unlock()
		return lines.Slice(ctx, domain.UserlineOf(author), posted[0].Time(), 4) // from the second newest
	})
	if err != nil || runs < 1 || len(page) != 4 {
		t.Fatalf("ReadPage: %d entries, %d runs of the plan, %v", len(page), runs, err)
	}
	for i, e := range page[:3] {
		if e.TweetID != posted[i+1].ID || e.Tweet == nil || !sameTweet(*e.Tweet, posted[i+1]) {
			t.Errorf("entry %d: %+v, want tweet %+v", i, e, posted[i+1])
		}
	}
	if page[3].TweetID != posted[4].ID {
		t.Errorf("the entry past the page names %s, want %s", page[3].TweetID, posted[4].ID)
	}
	// The ghost's tweet is missing: its entry stays, without one.
	page, err = s.Lines.ReadPage(c, 2, func(ctx context.Context, lines domain.PageLines) ([]domain.LineEntry, error) {
		mu.Lock()
		named[1] = append(named[1], lines.LinesID())
		mu.Unlock()
		return lines.Slice(ctx, domain.UserlineOf(author), posted[4].Time(), 2)
	})
	if err != nil || len(page) != 1 || page[0].TweetID != ghost.TweetID || page[0].Tweet != nil {
		t.Fatalf("a page of the ghost entry: %+v, %v", page, err)
	}
	for i := range named {
		slices.Sort(named[i])
	}
	if !slices.Equal(named[0], named[1]) || slices.Contains(named[0], domain.NoLinesID) {
		t.Errorf("the plans' lines are named %v in one page read and %v in the next; want the same names, none NoLinesID", named[0], named[1])
	}
	boom := errors.New("the plan failed")
	if _, err := s.Lines.ReadPage(c, 2, func(context.Context, domain.PageLines) ([]domain.LineEntry, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("a failed plan: %v", err)
	}
}

// testBackfill: Backfill copies the newest limit entries of one line into another, nothing of an
// empty line; what it copies reads back as the store reads any entry: the tweet whole, or none.
func testBackfill(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, nil)
	author, fan := name("filled"), name("filler")
	for _, n := range []string{author, fan} {
		if _, err := svc.SignUp(c, n, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Lines.Backfill(c, domain.TimelineOf(fan), domain.UserlineOf(author), 3); err != nil {
		t.Fatalf("Backfill of an empty line: %v", err)
	}
	if got, err := s.Lines.Slice(c, domain.TimelineOf(fan), 0, 10); err != nil || len(got) != 0 {
		t.Fatalf("an empty line copied %d entries, %v", len(got), err)
	}
	posted := postN(t, svc, author, 5)
	if err := s.Lines.Backfill(c, domain.TimelineOf(fan), domain.UserlineOf(author), 3); err != nil {
		t.Fatal(err)
	}
	got, err := s.Lines.Slice(c, domain.TimelineOf(fan), 0, 10)
	if err != nil || len(got) != 3 {
		t.Fatalf("Backfill of 3 copied %d entries, %v", len(got), err)
	}
	for i, e := range got {
		if e.Time != posted[i].Time() || e.TweetID != posted[i].ID {
			t.Errorf("entry %d: %d %s, want %d %s", i, e.Time, e.TweetID, posted[i].Time(), posted[i].ID)
		}
		if e.Tweet != nil && !sameTweet(*e.Tweet, posted[i]) {
			t.Errorf("entry %d carries %+v, want %+v", i, *e.Tweet, posted[i])
		}
	}
}
