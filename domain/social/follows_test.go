package social_test

import (
	"context"
	"fmt"
	"testing"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
)

// IsFollowing finds a follow past the first page of the follower's friends, and says no for a
// user not followed, or followed no longer.
func TestIsFollowing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memory.New()
	svc := social.New(st, st, st, nil, domain.NewPasswordHasher(4))
	names := []string{"reader"}
	for i := range domain.MaxPageSize + 5 { // more friends than one page holds
		names = append(names, fmt.Sprintf("author%03d", i))
	}
	names = append(names, "stranger")
	for _, n := range names {
		if _, err := svc.SignUp(ctx, n, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range names[1 : len(names)-1] {
		if err := svc.Follow(ctx, "reader", n); err != nil {
			t.Fatal(err)
		}
	}
	for who, want := range map[string]bool{names[1]: true, names[len(names)-2]: true, "stranger": false} {
		if got, err := svc.IsFollowing(ctx, "reader", who); err != nil || got != want {
			t.Errorf("IsFollowing(reader, %s) = %v, %v; want %v", who, got, err, want)
		}
	}
	if err := svc.Unfollow(ctx, "reader", names[len(names)-2]); err != nil {
		t.Fatal(err)
	}
	if got, err := svc.IsFollowing(ctx, "reader", names[len(names)-2]); err != nil || got {
		t.Errorf("after the unfollow, IsFollowing = %v, %v", got, err)
	}
}
