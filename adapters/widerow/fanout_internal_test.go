package widerow

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/oplog"
)

// followedStore is a store on node with users author and fans, each fan following author.
func followedStore(t *testing.T, node *engine.Node, author string, fans ...string) *Store {
	t.Helper()
	ctx := context.Background()
	s := NewStore(node)
	for _, name := range append([]string{author}, fans...) {
		if err := s.CreateUser(ctx, domain.User{ID: uuid.New(), Username: name, PasswordHash: []byte("h"), CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range fans {
		if err := s.Follow(ctx, f, author, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// A post's fan-out shows the calls it makes: the first after a follow reads Followers[author]
// in pages (which caches the row); the next takes the whole row from the row cache, with its
// followers' Timeline rows kept with it. Both write every follower's Timeline row in one
// batch_mutate.
func TestFanOutRecordsTheFollowersReadAndTheBatch(t *testing.T) {
	node, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { node.Close() })
	ctx := context.Background()
	s := followedStore(t, node, "author", "f1", "f2", "f3")
	post := func() (followers, batch oplog.Op) {
		t.Helper()
		var seen opsSeen
		now := time.Now().UnixMicro()
		tw := domain.Tweet{ID: domain.NewTimeUUID(now), Username: "author", Body: "hi", CreatedAt: domain.TimeFromMicros(now)}
		n, err := s.AppendToFollowers(oplog.With(ctx, &seen), domain.LineEntry{Time: now, TweetID: tw.ID, Tweet: &tw}, "author", domain.UserlineOf("author"), domain.TimelineOf("author"))
		if err != nil || n != 5 {
			t.Fatalf("AppendToFollowers = %d, %v; want 5 lines", n, err)
		}
		for _, op := range seen {
			switch {
			case op.Call == "get_slice" && op.Family == "Twissandra.Followers":
				followers = op
			case op.Call == "batch_mutate":
				batch = op
			}
		}
		return followers, batch
	}
	for i, want := range []string{"count=5001", "the whole row, from the row cache"} {
		f, b := post()
		if !strings.Contains(f.Predicate, want) || f.Touched != "3 columns" {
			t.Errorf("post %d read the followers as %q -> %q, want %q -> 3 columns", i+1, f.Predicate, f.Touched, want)
		}
		if b.Family != "Twissandra (Timeline: 4 rows, Userline: 1 row)" || b.KeyCount != 4 || b.Touched != "5 mutations" {
			t.Errorf("post %d wrote %s, %d keys, %s", i+1, b.Family, b.KeyCount, b.Touched)
		}
	}
}

// Config.RowCacheSize reaches the engine: with no row cache, a post reads the Followers row in
// pages every time (no row set), and what it writes is the same.
func TestRowCacheSizeReachesTheEngine(t *testing.T) {
	for _, tc := range []struct {
		size   int
		cached bool
	}{{0, true}, {-1, false}} {
		node, err := OpenNode(Config{RowCacheSize: tc.size}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		s := followedStore(t, node, "author", "fan")
		id, _, err := s.userID(ctx, "author")
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			now := time.Now().UnixMicro() + int64(i)
			tw := domain.Tweet{ID: domain.NewTimeUUID(now), Username: "author", Body: "hi", CreatedAt: domain.TimeFromMicros(now)}
			if n, err := s.AppendToFollowers(ctx, domain.LineEntry{Time: now, TweetID: tw.ID, Tweet: &tw}, "author"); err != nil || n != 1 {
				t.Fatalf("AppendToFollowers = %d, %v", n, err)
			}
		}
		if _, cached, err := node.RowsNamedBy(ctx, KeyspaceTwissandra, cfFollowers, id, cfTimeline, cl); err != nil || cached != tc.cached {
			t.Errorf("RowCacheSize %d: a row set after two posts: %v, %v; want %v", tc.size, cached, err, tc.cached)
		}
		if got, err := s.Slice(ctx, domain.TimelineOf("fan"), 0, 5); err != nil || len(got) != 2 {
			t.Errorf("RowCacheSize %d: the follower's timeline holds %d entries, %v; want 2", tc.size, len(got), err)
		}
		node.Close()
	}
}
