package seed_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/tools/seed"
)

func TestArticles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, bs := memory.New(), memory.NewBlog()
	svc := social.New(st, st, st, nil, domain.NewPasswordHasher(4))
	blogSvc := blog.New(bs, bs, bs, bs, nil)
	for range 2 { // the second load changes nothing
		if err := seed.Articles(ctx, svc, blogSvc); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{seed.ArticleUser, seed.ArticleFriend} {
		if _, err := svc.LogIn(ctx, name, "**********"); err != nil {
			t.Errorf("log in as %s: %v", name, err)
		}
	}
	// ericflo follows jericevans, as in the README's walkthrough.
	friends, err := svc.Friends(ctx, seed.ArticleFriend, "", 10)
	if err != nil || !slices.Equal(friends.Usernames(), []string{seed.ArticleUser}) {
		t.Errorf("friends of %s: %v %v", seed.ArticleFriend, friends.Usernames(), err)
	}
	if friends, err := svc.Friends(ctx, seed.ArticleUser, "", 10); err != nil || len(friends.Usernames()) != 0 {
		t.Errorf("friends of %s: %v %v", seed.ArticleUser, friends.Usernames(), err)
	}
	// jericevans' tweet is in his userline and timeline, the public line, and ericflo's timeline.
	for _, line := range []func() (social.TweetPage, error){
		func() (social.TweetPage, error) { return svc.Userline(ctx, seed.ArticleUser, "", 10) },
		func() (social.TweetPage, error) { return svc.Timeline(ctx, seed.ArticleUser, "", 10) },
		func() (social.TweetPage, error) { return svc.Timeline(ctx, seed.ArticleFriend, "", 10) },
		func() (social.TweetPage, error) { return svc.PublicLine(ctx, "", 10) },
	} {
		page, err := line()
		if err != nil || len(page.Tweets) != 1 || page.Tweets[0].Body != seed.ArticleTweet || page.Tweets[0].Username != seed.ArticleUser {
			t.Errorf("line: %+v %v", page.Tweets, err)
		}
	}
	e, err := blogSvc.GetEntry(ctx, "i-got-a-new-guitar")
	if err != nil || e.Entry.Author != "Arin Sarkissian" {
		t.Errorf("blog entry: %+v %v", e, err)
	}
}

func TestPlanIsDeterministic(t *testing.T) {
	t.Parallel()
	o := seed.Options{Users: 50, Tweets: 300, Span: 72 * time.Hour, Until: time.Date(2010, 5, 12, 0, 0, 0, 0, time.UTC), Seed: 42}
	a, err := seed.MakePlan(o)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := seed.MakePlan(o)
	if !slices.EqualFunc(a.Users, b.Users, func(x, y domain.User) bool {
		return x.ID == y.ID && x.Username == y.Username && x.CreatedAt.Equal(y.CreatedAt)
	}) ||
		!slices.Equal(a.Follows, b.Follows) || !slices.Equal(a.Tweets, b.Tweets) {
		t.Fatal("two plans of one seed differ")
	}
	o.Seed = 43
	c, _ := seed.MakePlan(o)
	if slices.Equal(a.Tweets, c.Tweets) {
		t.Error("another seed made the same tweets")
	}
	seen := map[string]bool{}
	for _, u := range a.Users {
		if err := domain.ValidateUsername(u.Username); err != nil || seen[u.Username] {
			t.Fatalf("username %q: %v (or duplicate)", u.Username, err)
		}
		seen[u.Username] = true
	}
	last := int64(0)
	for _, tw := range a.Tweets {
		if _, err := domain.NormalizeBody(tw.Body); err != nil {
			t.Fatalf("body %q: %v", tw.Body, err)
		}
		if tw.At.UnixMicro() <= last || tw.At.After(o.Until) || tw.At.Before(o.Until.Add(-o.Span)) {
			t.Fatalf("time %v out of order or out of the span", tw.At)
		}
		last = tw.At.UnixMicro()
	}
	// Zipf: a few users hold many followers, most hold few.
	counts := make([]int, len(a.Users))
	for _, f := range a.Follows {
		counts[f[1]]++
	}
	slices.Sort(counts)
	if counts[len(counts)-1] < 4*max(1, counts[len(counts)/2]) {
		t.Errorf("follower counts look flat: median %d, max %d", counts[len(counts)/2], counts[len(counts)-1])
	}
}

func TestGenerateIsIdempotent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memory.New()
	o := seed.Options{Users: 20, Tweets: 100, Span: 24 * time.Hour, Until: time.Date(2010, 5, 12, 0, 0, 0, 0, time.UTC), Seed: 7}
	stats, err := seed.Generate(ctx, o, st, social.New(st, st, st, nil, domain.NewPasswordHasher(4)))
	if err != nil {
		t.Fatal(err)
	}
	if stats.Users != 20 || stats.Tweets != 100 {
		t.Fatalf("stats %+v", stats)
	}
	page, _ := st.Slice(ctx, domain.PublicLine(), 0, 1000)
	if len(page) != 100 {
		t.Fatalf("public line holds %d entries", len(page))
	}
	if _, err := seed.Generate(ctx, o, st, social.New(st, st, st, nil, domain.NewPasswordHasher(4))); err != nil {
		t.Fatal(err)
	}
	if again, _ := st.Slice(ctx, domain.PublicLine(), 0, 1000); !slices.Equal(again, page) {
		t.Error("a second run changed the public line")
	}
	svc := social.New(st, st, st, nil, domain.NewPasswordHasher(4))
	plan, _ := seed.MakePlan(o)
	if _, err := svc.LogIn(ctx, plan.Users[0].Username, seed.Password); err != nil {
		t.Errorf("generated users cannot log in: %v", err)
	}
}
