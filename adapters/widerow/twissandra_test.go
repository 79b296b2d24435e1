package widerow_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/ports/porttest"
)

func openNode(t testing.TB, dir string) *engine.Node {
	t.Helper()
	n, err := engine.Open(engine.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

func TestContractInMemory(t *testing.T) {
	porttest.Run(t, func(t *testing.T) porttest.Stores {
		s := widerow.NewStore(openNode(t, ""))
		return porttest.Stores{Users: s, Tweets: s, Lines: s}
	})
}

func TestContractOnDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("on-disk contract run is part of the full suite")
	}
	porttest.Run(t, func(t *testing.T) porttest.Stores {
		s := widerow.NewStore(openNode(t, t.TempDir()))
		return porttest.Stores{Users: s, Tweets: s, Lines: s}
	})
}

// TestCreatingTheSameUserAgainKeepsIt: a re-run import creates a user that exists with the same
// ID; the refused create must not remove the User row it shares with the winner.
func TestCreatingTheSameUserAgainKeepsIt(t *testing.T) {
	s := widerow.NewStore(openNode(t, ""))
	ctx := context.Background()
	u := domain.User{ID: uuid.New(), Username: "jericevans", PasswordHash: []byte("h"), CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateUser(ctx, u); !errors.Is(err, domain.ErrAlreadyExists) {
		t.Fatalf("second create: %v, want ErrAlreadyExists", err)
	}
	got, err := widerow.NewStore(s.Node()).GetUser(ctx, "jericevans") // a fresh store: no cache
	if err != nil || got.ID != u.ID {
		t.Fatalf("after a repeated create, GetUser = %+v, %v", got, err)
	}
}

// A page's tweet bodies are the multiget's own bytes, not copies (tweetsOf): they must stay as
// read while later reads fill and evict the row cache and later writes land, whether the rows
// came from Pebble or from the cache.
func TestTweetBodiesOutliveLaterReads(t *testing.T) {
	t.Parallel()
	n, err := engine.Open(engine.Options{RowCacheSize: 64 << 10}) // a few hundred rows: reads evict
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	s := widerow.NewStore(n)
	ctx := context.Background()
	if err := s.CreateUser(ctx, domain.User{ID: uuid.New(), Username: "author", PasswordHash: []byte("h"), CreatedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	var ids []uuid.UUID
	want := map[uuid.UUID]string{}
	for i := range 600 {
		tw := domain.Tweet{ID: domain.NewTimeUUID(int64(1_700_000_000_000_000 + i)), Username: "author", Body: fmt.Sprintf("body %d %s", i, strings.Repeat("x", i%50)),
			CreatedAt: domain.TimeFromMicros(int64(1_700_000_000_000_000 + i))}
		if err := s.SaveTweet(ctx, tw); err != nil {
			t.Fatal(err)
		}
		ids, want[tw.ID] = append(ids, tw.ID), tw.Body
	}
	var kept []domain.Tweet
	for round := range 3 { // the first read from Pebble, the next from the cache, then evicted
		for from := 0; from < len(ids); from += 40 {
			got, err := s.GetTweets(ctx, ids[from:from+40])
			if err != nil || len(got) != 40 {
				t.Fatalf("round %d: %d tweets, %v", round, len(got), err)
			}
			if from == 0 || from == 280 {
				kept = append(kept, got...)
			}
		}
		if err := s.SaveTweet(ctx, domain.Tweet{ID: uuid.New(), Username: "author", Body: strings.Repeat("y", 140), CreatedAt: time.Now().UTC()}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tw := range kept {
		if tw.Body != want[tw.ID] {
			t.Fatalf("tweet %s: body %q after later reads, want %q", tw.ID, tw.Body, want[tw.ID])
		}
	}
}
