package migrate

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"twissandra/adapters/memory"
	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/ports"
	"twissandra/tools/dump"
	"twissandra/tools/seed"
)

func widerowSet(t *testing.T) (*engine.Node, ports.Stores) {
	t.Helper()
	node, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node.Close() })
	st, bs := widerow.NewStore(node), widerow.NewBlogStore(node)
	return node, ports.Stores{Users: st, Tweets: st, Lines: st, Authors: bs, Entries: bs, Tags: bs, Comments: bs}
}

func memorySet() ports.Stores {
	st, bs := memory.New(), memory.NewBlog()
	return ports.Stores{Users: st, Tweets: st, Lines: st, Authors: bs, Entries: bs, Tags: bs, Comments: bs}
}

// fill loads the articles' data and a generated data set.
func fill(t *testing.T, s ports.Stores) {
	t.Helper()
	ctx := context.Background()
	svc := social.New(s.Users, s.Tweets, s.Lines, nil, domain.NewPasswordHasher(4))
	if err := seed.Articles(ctx, svc, blog.New(s.Authors, s.Entries, s.Tags, s.Comments, nil)); err != nil {
		t.Fatal(err)
	}
	// The most followed authors are pulled: their posts are in no follower's timeline, and the
	// copy must carry the pulled set for the target's home pages to merge them.
	if err := svc.SetPullThreshold(5); err != nil {
		t.Fatal(err)
	}
	o := seed.Options{Users: 40, Tweets: 300, Span: 48 * time.Hour, Until: time.Date(2010, 5, 12, 0, 0, 0, 0, time.UTC), Seed: 42}
	if _, err := seed.Generate(ctx, o, s.Users, svc); err != nil {
		t.Fatal(err)
	}
	if pulled, err := s.Users.PulledAuthors(ctx); err != nil || len(pulled) == 0 {
		t.Fatalf("no author was pulled (%v): the data set tests no pulled set", err)
	}
}

func jsonl(t *testing.T, node *engine.Node) string {
	t.Helper()
	var b bytes.Buffer
	if err := dump.Widerow(context.Background(), &b, node, dump.WiderowOptions{Format: dump.JSONL}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func portsDump(t *testing.T, s ports.Stores) string {
	t.Helper()
	var b bytes.Buffer
	if err := dump.Ports(context.Background(), &b, s, dump.PortsOptions{ShowSecrets: true}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func copyAndVerify(t *testing.T, from, to ports.Stores, o Options) {
	t.Helper()
	if err := Copy(context.Background(), from, to, o); err != nil {
		t.Fatal(err)
	}
	r, err := Verify(context.Background(), from, to, VerifyOptions{Sample: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != 0 {
		t.Fatal(r.Error())
	}
	if r.From != r.To || r.From.Tweets < 300 || r.From.Comments == 0 || r.From.TagRefs == 0 {
		t.Fatalf("counts %+v / %+v", r.From, r.To)
	}
}

// TestRoundTrip copies widerow -> memory -> widerow: both widerow stores dump the same JSON lines.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	srcNode, src := widerowSet(t)
	fill(t, src)
	mem := memorySet()
	copyAndVerify(t, src, mem, Options{PageSize: 7})
	dstNode, dst := widerowSet(t)
	copyAndVerify(t, mem, dst, Options{PageSize: 11, Concurrency: 3})
	a, b := jsonl(t, srcNode), jsonl(t, dstNode)
	if a != b {
		t.Fatalf("the widerow dumps differ:\n%s\n----\n%s", firstDiff(a, b), "")
	}
	if !strings.Contains(a, `"cf":"Comments"`) || !strings.Contains(a, `"cf":"Timeline"`) {
		t.Error("the dump lacks the blog or the timelines")
	}

	// Running it again changes nothing.
	before := portsDump(t, dst)
	copyAndVerify(t, mem, dst, Options{})
	if after := jsonl(t, dstNode); after != a {
		t.Fatalf("a second run changed the target:\n%s", firstDiff(a, after))
	}
	if portsDump(t, dst) != before {
		t.Fatal("a second run changed the target's records")
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + al[i] + "\n != \n" + bl[i]
		}
	}
	return "one is a prefix of the other"
}

// TestResume stops the copy after a few pages, as a crash would, and resumes it.
func TestResume(t *testing.T) {
	t.Parallel()
	_, src := widerowSet(t)
	fill(t, src)
	dstNode, dst := widerowSet(t)
	cp := filepath.Join(t.TempDir(), "checkpoint.json")
	o := Options{Checkpoint: cp, Route: "widerow -> widerow", PageSize: 5, stopAfter: 9}
	if err := Copy(context.Background(), src, dst, o); !errors.Is(err, errStopped) {
		t.Fatalf("err %v, want the simulated stop", err)
	}
	if err := Copy(context.Background(), src, dst, Options{Checkpoint: cp, Route: "elsewhere", Resume: true}); err == nil {
		t.Fatal("a checkpoint of another route was accepted")
	}
	for i := 0; ; i++ {
		o.Resume = true
		err := Copy(context.Background(), src, dst, o)
		if err == nil {
			break
		}
		if !errors.Is(err, errStopped) || i > 100 {
			t.Fatal(err)
		}
	}
	r, err := Verify(context.Background(), src, dst, VerifyOptions{Sample: 1000})
	if err != nil || r.Total != 0 {
		t.Fatalf("%v %v", err, r.Error())
	}
	srcCopy := memorySet()
	copyAndVerify(t, src, srcCopy, Options{})
	_ = dstNode
}

// TestVerifyCatchesCorruption changes the target behind the copy's back in several ways.
func TestVerifyCatchesCorruption(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, src := widerowSet(t)
	fill(t, src)
	cases := []struct {
		name    string
		corrupt func(t *testing.T, dst ports.Stores)
		want    string
	}{
		{"tweet body", func(t *testing.T, dst ports.Stores) {
			all, _ := dump.AllTweets(ctx, dst.Tweets)
			tw := all[len(all)/2]
			tw.Body = "tampered"
			if err := dst.Tweets.SaveTweet(ctx, tw); err != nil {
				t.Fatal(err)
			}
		}, `body`},
		{"timeline entry", func(t *testing.T, dst ports.Stores) {
			l := domain.TimelineOf(seed.ArticleUser)
			page, _ := dst.Lines.Slice(ctx, l, 0, 1)
			if err := dst.Lines.Remove(ctx, l, page[0].Time); err != nil {
				t.Fatal(err)
			}
		}, "timeline:" + seed.ArticleUser},
		{"extra user", func(t *testing.T, dst ports.Stores) {
			if err := dst.Users.CreateUser(ctx, domain.User{Username: "intruder", PasswordHash: []byte("x")}); err != nil {
				t.Fatal(err)
			}
		}, "user intruder: only in the target"},
		{"comment", func(t *testing.T, dst ports.Stores) {
			if err := dst.Comments.DeleteComments(ctx, "scream-is-the-best-movie-ever"); err != nil {
				t.Fatal(err)
			}
		}, "comments of"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dst := memorySet()
			if err := Copy(ctx, src, dst, Options{}); err != nil {
				t.Fatal(err)
			}
			c.corrupt(t, dst)
			r, err := Verify(ctx, src, dst, VerifyOptions{Sample: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if r.Total == 0 || !strings.Contains(r.Error(), c.want) {
				t.Fatalf("report %q, want a difference mentioning %q", r.Error(), c.want)
			}
			if len(r.Differences) > MaxDifferences {
				t.Errorf("%d differences listed", len(r.Differences))
			}
		})
	}
}

// TestUserNameClash: a target user of the same name but another ID stops the copy.
func TestUserNameClash(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, src := widerowSet(t)
	fill(t, src)
	dst := memorySet()
	if err := dst.Users.CreateUser(ctx, domain.User{Username: seed.ArticleFriend, PasswordHash: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	err := Copy(ctx, src, dst, Options{})
	if err == nil || !strings.Contains(err.Error(), "exists in the target as another user") {
		t.Fatalf("err %v", err)
	}
}
