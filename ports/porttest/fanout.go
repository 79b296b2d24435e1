package porttest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/social"
)

// The follower counts and the hybrid fan-out (domain/social/fanout.go).

func testFollowerCount(t *testing.T, s Stores) {
	c := ctx(t)
	a, b := mustUser(t, s, name("a")), mustUser(t, s, name("b"))
	count := func(want int64, when string) {
		t.Helper()
		if n, err := s.Users.FollowerCount(c, b.Username); err != nil || n != want {
			t.Fatalf("%s: FollowerCount(b) = %d, %v; want %d", when, n, err, want)
		}
	}
	count(0, "before any follow")
	if n, err := s.Users.FollowerCount(c, name("nobody")); err != nil || n != 0 {
		t.Fatalf("FollowerCount(no such user) = %d, %v; want 0", n, err)
	}
	first := time.Date(2010, 3, 1, 12, 0, 0, 123000, time.UTC)
	if err := s.Users.Follow(c, a.Username, b.Username, first); err != nil {
		t.Fatal(err)
	}
	count(1, "after a follow")
	if err := s.Users.Follow(c, a.Username, b.Username, first.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	count(1, "after following again")
	friends, err := s.Users.Friends(c, a.Username, "", 10)
	if err != nil || len(friends) != 1 || !friends[0].Since.Equal(first) {
		t.Fatalf("after following again, Friends(a) = %+v, %v; want b since %v (the first since stays)", friends, err, first)
	}
	followers, err := s.Users.Followers(c, b.Username, "", 10)
	if err != nil || len(followers) != 1 || !followers[0].Since.Equal(first) {
		t.Fatalf("after following again, Followers(b) = %+v, %v; want a since %v", followers, err, first)
	}
	for i := range 2 {
		if err := s.Users.Unfollow(c, a.Username, b.Username); err != nil {
			t.Fatal(err)
		}
		count(0, fmt.Sprintf("after unfollow #%d", i+1))
	}
}

// testFollowerCountConcurrent follows and unfollows one author from many goroutines at once,
// each follow and unfollow twice: the count must be exactly the followers left.
func testFollowerCountConcurrent(t *testing.T, s Stores) {
	c := ctx(t)
	star := mustUser(t, s, name("star"))
	const fans = 16
	names := make([]string, fans)
	for i := range names {
		names[i] = mustUser(t, s, name(fmt.Sprintf("fan%d", i))).Username
	}
	run := func(op func(i int) error) {
		t.Helper()
		start := make(chan struct{})
		errs := make(chan error, fans)
		var wg sync.WaitGroup
		for i := range fans {
			wg.Go(func() {
				<-start
				errs <- op(i)
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	since := time.Date(2010, 3, 1, 12, 0, 0, 0, time.UTC)
	follow := func(i int) error {
		return s.Users.Follow(c, names[i], star.Username, since.Add(time.Duration(i)*time.Second))
	}
	unfollow := func(i int) error { return s.Users.Unfollow(c, names[i], star.Username) }
	// Everyone follows twice; the odd ones unfollow twice between and after.
	run(func(i int) error {
		for range 2 {
			if err := follow(i); err != nil {
				return err
			}
		}
		if i%2 == 1 {
			for range 2 {
				if err := unfollow(i); err != nil {
					return err
				}
			}
		}
		return nil
	})
	check := func(want int, when string) {
		t.Helper()
		n, err := s.Users.FollowerCount(c, star.Username)
		listed, lerr := s.Users.Followers(c, star.Username, "", 100)
		if err != nil || lerr != nil || n != int64(want) || len(listed) != want {
			t.Fatalf("%s: FollowerCount = %d (%v), %d followers listed (%v); want %d", when, n, err, len(listed), lerr, want)
		}
	}
	check(fans/2, "after concurrent follows and unfollows")
	// Now the even ones leave while the odd ones come back.
	run(func(i int) error {
		if i%2 == 0 {
			return unfollow(i)
		}
		return follow(i)
	})
	check(fans/2, "after the halves swapped")
	run(unfollow)
	check(0, "after everyone left")
}

func testPulledFriends(t *testing.T, s Stores) {
	c := ctx(t)
	reader, star, other, plain := mustUser(t, s, name("reader")), mustUser(t, s, name("star")), mustUser(t, s, name("other")), mustUser(t, s, name("plain"))
	since := time.Date(2010, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, f := range []domain.User{star, plain} {
		if err := s.Users.Follow(c, reader.Username, f.Username, since); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.Users.PulledFriends(c, reader.Username); err != nil || len(got) != 0 {
		t.Fatalf("PulledFriends before any mark = %+v, %v; want none", got, err)
	}
	for range 2 { // marking again changes nothing
		for _, u := range []domain.User{star, other} {
			if err := s.Users.MarkPulled(c, u.Username); err != nil {
				t.Fatal(err)
			}
		}
	}
	all, err := s.Users.PulledAuthors(c)
	if err != nil || !slices.IsSorted(all) || !slices.Contains(all, star.Username) || !slices.Contains(all, other.Username) || slices.Contains(all, plain.Username) {
		t.Fatalf("PulledAuthors = %v, %v; want %s and %s among them, sorted, and not %s", all, err, star.Username, other.Username, plain.Username)
	}
	got, err := s.Users.PulledFriends(c, reader.Username)
	if err != nil || len(got) != 1 || got[0].Username != star.Username || !got[0].Since.Equal(since) {
		t.Fatalf("PulledFriends(reader) = %+v, %v; want only %s since %v (other is pulled but not followed, plain followed but not pulled)", got, err, star.Username, since)
	}
	if got, err := s.Users.PulledFriends(c, plain.Username); err != nil || len(got) != 0 {
		t.Fatalf("PulledFriends of a user who follows nobody = %+v, %v", got, err)
	}
	if err := s.Users.Follow(c, reader.Username, other.Username, since.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.Users.Unfollow(c, reader.Username, star.Username); err != nil {
		t.Fatal(err)
	}
	if now, err := s.Users.PulledFriends(c, reader.Username); err != nil || len(now) != 1 || now[0].Username != other.Username {
		t.Fatalf("PulledFriends after a follow and an unfollow = %+v, %v; want only %s", now, err, other.Username)
	}
	// A list handed out is read-only: the store changed nothing in it (a store may hand one
	// list to every call, and a caller may keep it).
	if len(got) != 1 || got[0].Username != star.Username || !got[0].Since.Equal(since) {
		t.Fatalf("the list PulledFriends returned before the follows changed became %+v", got)
	}
	if err := s.Users.Unfollow(c, reader.Username, other.Username); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Users.PulledFriends(c, reader.Username); err != nil || len(got) != 0 {
		t.Fatalf("PulledFriends after the unfollows = %+v, %v; want none", got, err)
	}
}

// hybridWorld is one store with its own service and users (prefix_0 ... prefix_n-1).
type hybridWorld struct {
	svc   *social.Service
	users []string
}

// movableClock says the same time until the test moves it.
type movableClock struct{ now atomic.Int64 }

func (c *movableClock) Now() time.Time { return time.UnixMicro(c.now.Load()).UTC() }

// testHybridEqualsPush runs one random script of posts, follows, unfollows and threshold
// changes twice, on two stores: pushing to everyone (threshold 0) and the hybrid with a small
// threshold. Every home-timeline page, read through in small pages, must be the same, with
// no tweet twice.
func testHybridEqualsPush(t *testing.T, newStores Factory) {
	const users = 8
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	worlds := make([]hybridWorld, 2)
	var hybridStores Stores
	for w := range worlds {
		s := newStores(t)
		hybridStores = s
		worlds[w].svc = service(s, nil)
		prefix := name(fmt.Sprintf("h%d", w))
		for i := range users {
			worlds[w].users = append(worlds[w].users, mustUser(t, s, fmt.Sprintf("%s_%d", prefix, i)).Username)
		}
	}
	push, hybrid := worlds[0], worlds[1]
	if err := hybrid.svc.SetPullThreshold(2); err != nil {
		t.Fatal(err)
	}
	// The hybrid's pages are read through three servers of one store: the one that posts (its
	// heads of the pulled authors' userlines take its posts at once), another whose heads are
	// a bound old at every check (each check reads them again, then shares them), and one that
	// keeps no heads.
	otherClock := &movableClock{}
	otherClock.now.Store(time.Now().UnixMicro())
	other := social.New(hybridStores.Users, hybridStores.Tweets, hybridStores.Lines, otherClock, nil)
	uncached := social.New(hybridStores.Users, hybridStores.Tweets, hybridStores.Lines, nil, nil)
	if err := uncached.SetHeadBound(0); err != nil {
		t.Fatal(err)
	}
	readers := []struct {
		name string
		svc  *social.Service
	}{{"the posting server", hybrid.svc}, {"another server", other}, {"a server without heads", uncached}}
	c := ctx(t)
	rng := rand.New(rand.NewPCG(seed, 7))
	both := func(op string, f func(w hybridWorld) error) {
		t.Helper()
		for _, w := range worlds {
			if err := f(w); err != nil {
				t.Fatalf("%s: %v", op, err)
			}
		}
	}
	check := func(when string) {
		t.Helper()
		otherClock.now.Add(social.DefaultHeadBound.Microseconds())
		for i := range users {
			want := pagedTimeline(t, push, i)
			for _, r := range readers {
				got := pagedTimeline(t, hybridWorld{svc: r.svc, users: hybrid.users}, i)
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Fatalf("seed %d, %s: user %d's timeline read on %s\nhybrid: %v\npush:   %v", seed, when, i, r.name, got, want)
				}
			}
		}
	}
	// User 0 starts with three followers, above the threshold: pulled from the first post on.
	for i := 1; i <= 3; i++ {
		both("follow", func(w hybridWorld) error { return w.svc.Follow(c, w.users[i], w.users[0]) })
	}
	pulledSeen := false
	for step := range 80 {
		a, b := rng.IntN(users), rng.IntN(users)
		switch r := rng.IntN(20); {
		case r < 9:
			body := fmt.Sprintf("t%d", step)
			both("post", func(w hybridWorld) error { _, err := w.svc.Post(c, w.users[a], body); return err })
		case r < 15 && a != b:
			both("follow", func(w hybridWorld) error { return w.svc.Follow(c, w.users[a], w.users[b]) })
		case r < 18 && a != b:
			both("unfollow", func(w hybridWorld) error { return w.svc.Unfollow(c, w.users[a], w.users[b]) })
		case r >= 18:
			if err := hybrid.svc.SetPullThreshold(int64(rng.IntN(4))); err != nil {
				t.Fatal(err)
			}
		}
		if !pulledSeen {
			for _, u := range hybrid.users {
				f, err := hybrid.svc.FanoutOf(c, u)
				if err != nil {
					t.Fatal(err)
				}
				pulledSeen = pulledSeen || f.Pull
			}
		}
		if step%20 == 19 {
			check(fmt.Sprintf("after step %d", step))
		}
	}
	if !pulledSeen {
		t.Fatalf("seed %d: no author was ever pulled: the script tested nothing", seed)
	}
}

// pagedTimeline reads user i's whole home timeline in pages of 3, as "author index:body",
// failing on a tweet seen twice.
func pagedTimeline(t *testing.T, w hybridWorld, i int) []string {
	t.Helper()
	c := ctx(t)
	var out []string
	seen := map[string]bool{}
	start := ""
	for {
		page, err := w.svc.Timeline(c, w.users[i], start, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, tw := range page.Tweets {
			author := tw.Username[strings.LastIndexByte(tw.Username, '_')+1:]
			e := author + ":" + tw.Body
			if seen[e] {
				t.Fatalf("user %d's timeline shows %s twice", i, e)
			}
			seen[e] = true
			out = append(out, e)
		}
		if page.Next == "" {
			return out
		}
		start = page.Next
	}
}

// testPulledAuthorMergedFromTheFollow: a pulled author's posts reach no follower's timeline
// row, yet every follower's page shows them; a new follower sees the backfill's newest
// BackfillSize and what came after, as pushing would have given, not the whole userline.
func testPulledAuthorMergedFromTheFollow(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, nil)
	if err := svc.SetPullThreshold(1); err != nil {
		t.Fatal(err)
	}
	star, fan1, fan2, late := mustUser(t, s, name("star")), mustUser(t, s, name("fan")), mustUser(t, s, name("fan")), mustUser(t, s, name("late"))
	for _, f := range []domain.User{fan1, fan2} {
		if err := svc.Follow(c, f.Username, star.Username); err != nil {
			t.Fatal(err)
		}
	}
	if f, err := svc.FanoutOf(c, star.Username); err != nil || !f.Pull || f.Followers != 2 || f.Mode() != "pull" {
		t.Fatalf("FanoutOf(star) = %+v, %v; want 2 followers, pulled", f, err)
	}
	const before = social.BackfillSize + 5
	for i := range before {
		if _, err := svc.Post(c, star.Username, fmt.Sprintf("old%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if row, err := s.Lines.Slice(c, domain.TimelineOf(fan1.Username), 0, 10); err != nil || len(row) != 0 {
		t.Fatalf("a pulled author's posts wrote %d entries into a follower's timeline row (%v); want none", len(row), err)
	}
	if err := svc.Follow(c, late.Username, star.Username); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Post(c, star.Username, "new"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		reader domain.User
		want   int
	}{{fan1, before + 1}, {late, social.BackfillSize + 1}} {
		var bodies []string
		start := ""
		for {
			page, err := svc.Timeline(c, tc.reader.Username, start, domain.MaxPageSize)
			if err != nil {
				t.Fatal(err)
			}
			for _, tw := range page.Tweets {
				bodies = append(bodies, tw.Body)
			}
			if start = page.Next; start == "" {
				break
			}
		}
		if len(bodies) != tc.want || bodies[0] != "new" || bodies[len(bodies)-1] != fmt.Sprintf("old%d", before+1-tc.want) {
			t.Fatalf("%s's timeline has %d tweets (%v ... %v); want %d, from \"new\" back to old%d",
				tc.reader.Username, len(bodies), bodies[:min(3, len(bodies))], bodies[max(0, len(bodies)-3):], tc.want, before+1-tc.want)
		}
	}
}

// testSliceMany: SliceMany answers each request as Slice does, in the order asked, unknown
// lines empty.
func testSliceMany(t *testing.T, s Stores) {
	c := ctx(t)
	svc := service(s, nil)
	a, b := mustUser(t, s, name("a")), mustUser(t, s, name("b"))
	for i := range 7 {
		author := a
		if i%3 == 0 {
			author = b
		}
		if _, err := svc.Post(c, author.Username, fmt.Sprintf("t%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	first, err := s.Lines.Slice(c, domain.UserlineOf(a.Username), 0, 2)
	if err != nil || len(first) != 2 {
		t.Fatalf("Slice: %d entries, %v", len(first), err)
	}
	reqs := []domain.LineSlice{
		{Line: domain.UserlineOf(a.Username), Limit: 10},
		{Line: domain.UserlineOf(b.Username), Limit: 2},
		{Line: domain.UserlineOf(a.Username), Before: first[1].Time, Limit: 10},
		{Line: domain.PublicLine(), Limit: 5},
		{Line: domain.TimelineOf(b.Username), Limit: 10},
		{Line: domain.UserlineOf(name("nobody")), Limit: 10},
	}
	// Many lines of one kind from their newest, of one size, some of them twice: a store may
	// read them in one go (the heads of a merged page's pulled authors).
	owners := []string{b.Username, a.Username, name("nobody")}
	for i := range 40 {
		reqs = append(reqs, domain.LineSlice{Line: domain.UserlineOf(owners[i%3]), Limit: 3})
	}
	got, err := s.Lines.SliceMany(c, reqs)
	if err != nil || len(got) != len(reqs) {
		t.Fatalf("SliceMany: %d results, %v", len(got), err)
	}
	for i, r := range reqs {
		want, err := s.Lines.Slice(c, r.Line, r.Before, r.Limit)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(times(got[i])) != fmt.Sprint(times(want)) {
			t.Errorf("request %d (%s before %d limit %d): %v, Slice gives %v", i, r.Line, r.Before, r.Limit, times(got[i]), times(want))
		}
	}
	if len(got[0]) != 4 || len(got[1]) != 2 || len(got[2]) != 2 || len(got[5]) != 0 {
		t.Fatalf("sizes %d %d %d %d, want 4 2 2 0", len(got[0]), len(got[1]), len(got[2]), len(got[5]))
	}
	for i := 6; i < len(reqs); i++ {
		if want := 3 * min(1, 2-(i-6)%3); len(got[i]) != want {
			t.Fatalf("request %d (%s, limit 3): %d entries, want %d", i, reqs[i].Line, len(got[i]), want)
		}
	}
}

// testAppendToFollowers: the entry goes to the lines given and to the timeline of each of the
// author's followers, as the store lists them now (not one who unfollowed, not a stranger), and
// the store says how many lines that was; an author nobody follows reaches the lines given.
func testAppendToFollowers(t *testing.T, s Stores) {
	c := ctx(t)
	author, stranger := mustUser(t, s, name("author")), mustUser(t, s, name("stranger"))
	var fans []domain.User
	for range 3 {
		fans = append(fans, mustUser(t, s, name("fan")))
	}
	since := time.Date(2010, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, f := range fans {
		if err := s.Users.Follow(c, f.Username, author.Username, since); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Users.Unfollow(c, fans[1].Username, author.Username); err != nil {
		t.Fatal(err)
	}
	tw := domain.Tweet{ID: domain.NewTimeUUID(since.Add(time.Hour).UnixMicro()), Username: author.Username, Body: "to the followers", CreatedAt: since.Add(time.Hour)}
	if err := s.Tweets.SaveTweet(c, tw); err != nil {
		t.Fatal(err)
	}
	e := domain.LineEntry{Time: tw.Time(), TweetID: tw.ID, Tweet: &tw}
	base := []domain.LineKey{domain.UserlineOf(author.Username), domain.TimelineOf(author.Username)}
	n, err := s.Lines.AppendToFollowers(c, e, author.Username, base...)
	if err != nil || n != len(base)+2 {
		t.Fatalf("AppendToFollowers = %d, %v; want %d lines (two given, two followers)", n, err, len(base)+2)
	}
	for _, tc := range []struct {
		line domain.LineKey
		want int
	}{{base[0], 1}, {base[1], 1}, {domain.TimelineOf(fans[0].Username), 1}, {domain.TimelineOf(fans[2].Username), 1},
		{domain.TimelineOf(fans[1].Username), 0}, {domain.TimelineOf(stranger.Username), 0}, {domain.UserlineOf(fans[0].Username), 0}} {
		if got := mustSlice(t, s, tc.line, 0, 5); len(got) != tc.want || (tc.want == 1 && got[0].TweetID != tw.ID) {
			t.Errorf("%s: %v, want %d entry of the tweet", tc.line, got, tc.want)
		}
	}
	if n, err := s.Lines.AppendToFollowers(c, e, stranger.Username, domain.UserlineOf(stranger.Username)); err != nil || n != 1 {
		t.Fatalf("AppendToFollowers of an author nobody follows = %d, %v; want 1 line", n, err)
	}
	// Posts after posts, with follows between them: each reaches the followers as they are
	// then, whatever a store kept of the list from the post before (widerow keeps the
	// followers' rows with its cached Followers row).
	post := func(hours int) domain.LineEntry {
		t.Helper()
		at := since.Add(time.Duration(hours) * time.Hour)
		tw := domain.Tweet{ID: domain.NewTimeUUID(at.UnixMicro()), Username: author.Username, Body: "again", CreatedAt: at}
		if err := s.Tweets.SaveTweet(c, tw); err != nil {
			t.Fatal(err)
		}
		e := domain.LineEntry{Time: tw.Time(), TweetID: tw.ID, Tweet: &tw}
		if n, err := s.Lines.AppendToFollowers(c, e, author.Username, base...); err != nil || n != len(base)+2 {
			t.Fatalf("AppendToFollowers = %d, %v; want %d lines", n, err, len(base)+2)
		}
		return e
	}
	newest := func(u domain.User) (uuid.UUID, bool) {
		got := mustSlice(t, s, domain.TimelineOf(u.Username), 0, 1)
		if len(got) == 0 {
			return uuid.UUID{}, false
		}
		return got[0].TweetID, true
	}
	second, third := post(2), post(3)
	for _, f := range []domain.User{fans[0], fans[2]} {
		if id, _ := newest(f); id != third.TweetID {
			t.Errorf("%s's newest after two more posts: %v, want %v", f.Username, id, third.TweetID)
		}
	}
	if err := s.Users.Follow(c, fans[1].Username, author.Username, since); err != nil {
		t.Fatal(err)
	}
	if err := s.Users.Unfollow(c, fans[0].Username, author.Username); err != nil {
		t.Fatal(err)
	}
	fourth := post(4)
	for _, tc := range []struct {
		fan  domain.User
		want domain.LineEntry
	}{{fans[0], third}, {fans[1], fourth}, {fans[2], fourth}} {
		if id, _ := newest(tc.fan); id != tc.want.TweetID {
			t.Errorf("%s's newest after a follow, an unfollow and a post: %v, want %v", tc.fan.Username, id, tc.want.TweetID)
		}
	}
	if _, ok := newest(stranger); ok || second.TweetID == third.TweetID {
		t.Errorf("the stranger's timeline holds a post, or two posts share an id")
	}
}
