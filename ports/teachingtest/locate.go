package teachingtest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/ports/porttest"
	"twissandra/ports/teaching"
)

// InspectStores is what an adapter hands the inspection contract: its stores, and the Locator
// that says where their records live.
type InspectStores struct {
	porttest.Stores
	Blog    porttest.BlogStores
	Locator teaching.Locator
}

// InspectFactory returns stores for one subtest, as porttest.Factory and porttest.BlogFactory do.
type InspectFactory func(t *testing.T) InspectStores

// RunLocate checks a teaching.Locator: every place a use case writes is located and present, the
// places of a deleted record are absent, secrets are never shown, and a tweet's followers page.
func RunLocate(t *testing.T, newStores InspectFactory) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s InspectStores)
	}{
		{"TweetLivesEverywhereItWasWritten", testLocateTweet},
		{"TweetFollowersPageExactly", testLocateFollowerPages},
		{"UserAndFollowBothSidesThenGone", testLocateUserFollow},
		{"BlogEntryTagsAuthorComment", testLocateBlog},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStores(t)) })
	}
}

func mustLocate(t *testing.T, s InspectStores, loci []teaching.Locus) []teaching.Placement {
	t.Helper()
	ps, err := s.Locator.Locate(porttest.Context(t), loci)
	if err != nil {
		t.Fatalf("Locate: %v", err)
	}
	for _, p := range ps {
		if p.Model == "" || p.Container == "" || p.Address == "" {
			t.Errorf("placement of %s without model, container or address: %+v", p.Locus.Role, p)
		}
		if !slices.ContainsFunc(loci, func(l teaching.Locus) bool { return l == p.Locus }) {
			t.Errorf("placement for a locus not asked: %+v", p.Locus)
		}
	}
	for _, l := range loci {
		if !slices.ContainsFunc(ps, func(p teaching.Placement) bool { return p.Locus == l }) {
			t.Errorf("locus %s (%s) has no placement", l.Role, l.Kind)
		}
		// A record in several places of one model says which part each holds, each its own.
		parts := map[string][]string{}
		for _, p := range ps {
			if p.Locus == l {
				parts[p.Model] = append(parts[p.Model], p.Part)
			}
		}
		for model, ss := range parts {
			if len(ss) < 2 {
				continue
			}
			if slices.Contains(ss, "") || len(slices.Compact(slices.Sorted(slices.Values(ss)))) != len(ss) {
				t.Errorf("%s (%s) occupies %d places on %s, their parts %q: each must say which part it holds", l.Role, l.Kind, len(ss), model, ss)
			}
		}
	}
	return ps
}

func placementsHold(t *testing.T, ps []teaching.Placement, present bool) {
	t.Helper()
	for _, p := range ps {
		if p.Present != present {
			t.Errorf("%s at %s: present %v, want %v", p.Locus.Role, p.Address, p.Present, present)
		}
		if !present && len(p.Cells) > 0 {
			t.Errorf("%s at %s is absent yet shows cells %+v", p.Locus.Role, p.Address, p.Cells)
		}
	}
}

func cellsHold(p teaching.Placement, want string) bool {
	return slices.ContainsFunc(p.Cells, func(c teaching.Cell) bool { return strings.Contains(c.Value, want) })
}

func testLocateTweet(t *testing.T, s InspectStores) {
	c := porttest.Context(t)
	svc := porttest.Social(s.Stores)
	author, fan, other := porttest.Name("author"), porttest.Name("fan"), porttest.Name("other")
	for _, n := range []string{author, fan, other} {
		if _, err := svc.SignUp(c, n, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Follow(c, fan, author); err != nil {
		t.Fatal(err)
	}
	tw, err := svc.Post(c, author, "where does this live")
	if err != nil {
		t.Fatal(err)
	}
	got, loci, next, err := svc.TweetLoci(c, tw.ID, "", 10)
	if err != nil || next != "" || got.ID != tw.ID {
		t.Fatalf("TweetLoci = %v, %q, %v", got.ID, next, err)
	}
	if len(loci) != 5 { // tweet, userline, public, own timeline, fan's timeline
		t.Fatalf("%d loci, want 5: %+v", len(loci), loci)
	}
	ps := mustLocate(t, s, loci)
	placementsHold(t, ps, true)
	for _, p := range ps {
		switch p.Locus.Kind {
		case teaching.LocusTweet:
			if !cellsHold(p, "where does this live") {
				t.Errorf("the tweet's placement %s does not show its body: %+v", p.Address, p.Cells)
			}
		case teaching.LocusLineEntry:
			if !cellsHold(p, tw.ID.String()) {
				t.Errorf("line entry %s does not name the tweet: %+v", p.Address, p.Cells)
			}
		}
	}
	// A timeline the tweet was never written to: located, and absent.
	absent := teaching.Locus{Kind: teaching.LocusLineEntry, Role: other + "'s timeline", Line: domain.TimelineOf(other), Time: tw.Time(), Tweet: tw.ID}
	placementsHold(t, mustLocate(t, s, []teaching.Locus{absent}), false)
	// Unfollowing removes it from the fan's timeline; the other places stay.
	if err := svc.Unfollow(c, fan, author); err != nil {
		t.Fatal(err)
	}
	fanLine := teaching.Locus{Kind: teaching.LocusLineEntry, Role: fan + "'s timeline", Line: domain.TimelineOf(fan), Time: tw.Time(), Tweet: tw.ID}
	placementsHold(t, mustLocate(t, s, []teaching.Locus{fanLine}), false)
	placementsHold(t, mustLocate(t, s, loci[:4]), true)

	if _, _, _, err := svc.TweetLoci(c, uuid.Must(uuid.NewUUID()), "", 10); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("TweetLoci of an unknown tweet: %v, want ErrNotFound", err)
	}
}

func testLocateFollowerPages(t *testing.T, s InspectStores) {
	c := porttest.Context(t)
	svc := porttest.Social(s.Stores)
	author := porttest.Name("star")
	if _, err := svc.SignUp(c, author, "password1"); err != nil {
		t.Fatal(err)
	}
	var fans []string
	for i := range 5 {
		f := porttest.Name(fmt.Sprintf("fan%d", i))
		fans = append(fans, f)
		if _, err := svc.SignUp(c, f, "password1"); err != nil {
			t.Fatal(err)
		}
		if err := svc.Follow(c, f, author); err != nil {
			t.Fatal(err)
		}
	}
	tw, err := svc.Post(c, author, "to five fans")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	after, pages := "", 0
	for {
		_, loci, next, err := svc.TweetLoci(c, tw.ID, after, 2)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		placementsHold(t, mustLocate(t, s, loci), true)
		for _, l := range loci {
			if l.Kind == teaching.LocusLineEntry && l.Line.Kind == domain.Timeline && l.Line.Owner != author {
				lines = append(lines, l.Line.Owner)
			}
		}
		if next == "" {
			break
		}
		after = next
		if pages > 10 {
			t.Fatal("follower pages never end")
		}
	}
	slices.Sort(lines)
	slices.Sort(fans)
	if pages != 3 || !slices.Equal(lines, fans) {
		t.Errorf("%d pages of followers' timelines %v, want 3 pages of %v", pages, lines, fans)
	}
}

func testLocateUserFollow(t *testing.T, s InspectStores) {
	c := porttest.Context(t)
	svc := porttest.Social(s.Stores)
	a, b := porttest.Name("anna"), porttest.Name("ben")
	ua, err := svc.SignUp(c, a, "password1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SignUp(c, b, "password1"); err != nil {
		t.Fatal(err)
	}
	loci, err := svc.UserLoci(c, a)
	if err != nil {
		t.Fatal(err)
	}
	ps := mustLocate(t, s, loci)
	placementsHold(t, ps, true)
	shown := false
	for _, p := range ps {
		shown = shown || cellsHold(p, a) || cellsHold(p, ua.ID.String())
		if cellsHold(p, string(ua.PasswordHash)) {
			t.Errorf("%s shows the password hash: %+v", p.Address, p.Cells)
		}
	}
	if !shown {
		t.Errorf("no placement of the user shows its name or id: %+v", ps)
	}
	if _, err := svc.UserLoci(c, porttest.Name("nobody")); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("UserLoci of an unknown user: %v, want ErrNotFound", err)
	}

	follow := svc.FollowLoci(a, b)
	placementsHold(t, mustLocate(t, s, follow), false)
	if err := svc.Follow(c, a, b); err != nil {
		t.Fatal(err)
	}
	ps = mustLocate(t, s, follow)
	if len(ps) < 2 {
		t.Errorf("a follow is written on both sides, located in %d places", len(ps))
	}
	// Each side says whose it is: the follower's list of friends, the followed user's list of
	// followers.
	for _, part := range []string{teaching.FriendSide(follow[0]), teaching.FollowerSide(follow[0])} {
		if !slices.ContainsFunc(ps, func(p teaching.Placement) bool { return p.Part == part }) {
			t.Errorf("no side of the follow is %q: %+v", part, ps)
		}
	}
	placementsHold(t, ps, true)
	if err := svc.Unfollow(c, a, b); err != nil {
		t.Fatal(err)
	}
	placementsHold(t, mustLocate(t, s, follow), false)
}

func testLocateBlog(t *testing.T, s InspectStores) {
	c := porttest.Context(t)
	svc := porttest.Blog(s.Blog)
	author := porttest.AuthorName("Jane")
	porttest.MustAuthor(t, svc, author, map[string]string{"email": "jane@example.com"})
	slug, tag := porttest.Slug("where"), porttest.Slug("tag")
	porttest.MustPublish(t, svc, blog.Draft{Slug: slug, Author: author, Tags: []string{tag}})
	loci, err := svc.EntryLoci(c, slug)
	if err != nil {
		t.Fatal(err)
	}
	if len(loci) != 4 { // entry, __notag__, tag, author
		t.Fatalf("%d loci, want 4: %+v", len(loci), loci)
	}
	ps := mustLocate(t, s, loci)
	placementsHold(t, ps, true)
	for _, p := range ps {
		if cellsHold(p, "jane@example.com") {
			t.Errorf("%s shows the author's email: %+v", p.Address, p.Cells)
		}
	}
	cm, err := svc.Comment(c, slug, blog.CommentDraft{Name: "reader", Email: "reader@example.com", Text: "nice"})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := svc.CommentLoci(c, slug, cm.ID)
	if err != nil {
		t.Fatal(err)
	}
	cps := mustLocate(t, s, cl)
	placementsHold(t, cps, true)
	for _, p := range cps {
		if cellsHold(p, "reader@example.com") {
			t.Errorf("%s shows the commenter's email: %+v", p.Address, p.Cells)
		}
	}
	if err := svc.DeleteEntry(c, slug); err != nil {
		t.Fatal(err)
	}
	placementsHold(t, mustLocate(t, s, loci[:3]), false)
	placementsHold(t, mustLocate(t, s, cl), false)
	if _, err := svc.EntryLoci(c, slug); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("EntryLoci of a deleted entry: %v, want ErrNotFound", err)
	}
}
