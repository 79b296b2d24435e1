package lastcount_test

import (
	"fmt"
	"sync"
	"testing"

	"twissandra/adapters/internal/lastcount"
)

func TestCounts(t *testing.T) {
	t.Parallel()
	var c lastcount.Counts
	if n, ok := c.Get("alice"); ok || n != 0 {
		t.Fatalf("empty: %d, %v", n, ok)
	}
	c.Drop("alice") // dropping what is not there is fine
	c.Put("alice", 3)
	c.Put("bob", 0)
	if n, ok := c.Get("alice"); !ok || n != 3 {
		t.Fatalf("alice: %d, %v, want 3", n, ok)
	}
	if n, ok := c.Get("bob"); !ok || n != 0 {
		t.Fatalf("bob: %d, %v, want a kept 0", n, ok)
	}
	c.Put("alice", 4)
	if n, _ := c.Get("alice"); n != 4 {
		t.Fatalf("alice after Put 4: %d", n)
	}
	c.Drop("alice")
	if _, ok := c.Get("alice"); ok {
		t.Fatal("alice still kept after Drop")
	}
	if n, ok := c.Get("bob"); !ok || n != 0 {
		t.Fatalf("Drop of alice lost bob: %d, %v", n, ok)
	}
}

// TestCountsConcurrent runs the adapters' pattern from many goroutines (run it with -race):
// each user's writer serialises its own read-modify-write, as the adapters do under the user's
// lock, while readers of every user and the writers of other users run alongside.
func TestCountsConcurrent(t *testing.T) {
	t.Parallel()
	const users, follows = 8, 510
	var c lastcount.Counts
	var wg sync.WaitGroup
	for u := range users {
		user := fmt.Sprintf("user%d", u)
		wg.Go(func() { // the writer of user
			var stored int64 // the store's count, written only here
			for i := range follows {
				n, ok := c.Get(user)
				if !ok {
					n = stored // read the stored count
				}
				if n != stored {
					t.Errorf("%s: kept %d, stored %d", user, n, stored)
					return
				}
				stored = n + 1
				c.Put(user, stored)
				if i%50 == 49 {
					c.Drop(user) // as after a write whose outcome is unknown
				}
			}
		})
		wg.Go(func() { // a reader of every user
			for range follows {
				for v := range users {
					if n, ok := c.Get(fmt.Sprintf("user%d", v)); ok && (n < 1 || n > follows) {
						t.Errorf("user%d: count %d out of range", v, n)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	for u := range users {
		if n, ok := c.Get(fmt.Sprintf("user%d", u)); !ok || n != follows {
			t.Errorf("user%d: %d, %v, want %d", u, n, ok, follows)
		}
	}
}
