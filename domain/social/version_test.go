package social_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
)

// gatedLines is the memory store whose Append waits at a gate: entered is signalled once
// Append has begun, release lets it go on (and fail with err, if set).
type gatedLines struct {
	*memory.Store
	entered, release chan struct{}
	err              error
}

func (g *gatedLines) Append(ctx context.Context, e domain.LineEntry, lines ...domain.LineKey) error {
	g.entered <- struct{}{}
	<-g.release
	if g.err != nil {
		return g.err
	}
	return g.Store.Append(ctx, e, lines...)
}

// AppendToFollowers fans out through the gated Append (the tests' authors have fewer followers
// than one page of them).
func (g *gatedLines) AppendToFollowers(ctx context.Context, e domain.LineEntry, author string, lines ...domain.LineKey) (int, error) {
	followers, err := g.Followers(ctx, author, "", domain.MaxFollowPage)
	if err != nil {
		return 0, err
	}
	all := slices.Clip(lines)
	for _, f := range followers {
		all = append(all, domain.TimelineOf(f.Username))
	}
	return len(all), g.Append(ctx, e, all...)
}

func TestPublicLineVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memory.New()
	lines := &gatedLines{Store: st, entered: make(chan struct{}), release: make(chan struct{})}
	svc := social.New(st, st, lines, nil, domain.NewPasswordHasher(4))
	if _, err := svc.SignUp(ctx, "jericevans", "password1"); err != nil {
		t.Fatal(err)
	}
	v0, ok := svc.PublicLineVersion()
	if !ok {
		t.Fatal("no post in flight, yet the version is not ok")
	}

	// While a post is being written the version is not ok; once written it has moved on.
	posted := make(chan error)
	go func() {
		_, err := svc.Post(ctx, "jericevans", "hello")
		posted <- err
	}()
	<-lines.entered
	if _, ok := svc.PublicLineVersion(); ok {
		t.Fatal("a post is being written, yet the version is ok")
	}
	lines.release <- struct{}{}
	if err := <-posted; err != nil {
		t.Fatal(err)
	}
	v1, ok := svc.PublicLineVersion()
	if !ok || v1 == v0 {
		t.Fatalf("after a post: version %d (ok %v), before %d", v1, ok, v0)
	}

	// A post whose write fails may have written part of its lines: it moves the version too.
	lines.err = errors.New("disk full")
	go func() {
		_, err := svc.Post(ctx, "jericevans", "lost")
		posted <- err
	}()
	<-lines.entered
	lines.release <- struct{}{}
	if err := <-posted; err == nil {
		t.Fatal("the failed write was not reported")
	}
	if v2, ok := svc.PublicLineVersion(); !ok || v2 == v1 {
		t.Fatalf("after a failed post: version %d (ok %v), before %d", v2, ok, v1)
	}

	// Reads and follows leave it alone.
	v3, _ := svc.PublicLineVersion()
	if _, err := svc.PublicLine(ctx, "", 10); err != nil {
		t.Fatal(err)
	}
	if v4, ok := svc.PublicLineVersion(); !ok || v4 != v3 {
		t.Fatalf("a read moved the version: %d -> %d", v3, v4)
	}
}
