package seed_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/tools/seed"
)

// Celebrity makes the followers it is asked for, resumes where it stopped, and refuses names
// that leave no room for the followers'.
func TestCelebrity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memory.New()
	var calls atomic.Int64
	for _, n := range []int{1000, 1000, 1500} { // again: nothing new; more: only the missing ones
		calls.Store(0)
		if err := seed.Celebrity(ctx, st, "star", n, 4, func() { calls.Add(1) }); err != nil {
			t.Fatal(err)
		}
		if got, err := st.FollowerCount(ctx, "star"); err != nil || got != int64(n) {
			t.Fatalf("after Celebrity(%d): %d followers, %v", n, got, err)
		}
		if calls.Load() != int64(n) {
			t.Fatalf("progress called %d times, want %d", calls.Load(), n)
		}
	}
	fans, err := st.Followers(ctx, "star", "", 2)
	if err != nil || len(fans) != 2 || fans[0].Username != seed.FanName("star", 0) || fans[1].Username != seed.FanName("star", 1) {
		t.Fatalf("first followers: %+v, %v", fans, err)
	}
	for _, bad := range []string{"", "no spaces", "abcdefghijklmnopqrstuvwxyz"} {
		if err := seed.Celebrity(ctx, st, bad, 1, 1, nil); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("Celebrity(%q): %v, want ErrInvalid", bad, err)
		}
	}
	if err := seed.Celebrity(ctx, st, "star", -1, 1, nil); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("Celebrity(-1 followers): %v, want ErrInvalid", err)
	}
}
