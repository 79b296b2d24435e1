package cql3

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/internal/testkit/webkit"
)

// Without a node the rows the lesson shows (and the order question grades by) are the table's
// first by follower, sorted from all the follows: widerow lists them by the followers' UUIDs,
// so a page of them would be some other followers. A user with more followers than the lesson
// reads is refused with a client's error.
func TestBuiltFollowerRowsAreTheTablesFirst(t *testing.T) {
	ctx := context.Background()
	st := webkit.WiderowStores(t)
	svc := social.New(st.Users, st.Tweets, st.Lines, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	h := lessonOn(st, svc)
	if _, err := svc.SignUp(ctx, "star", "password1"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := range followersShown + 2 {
		u := fmt.Sprintf("fan%02d", followersShown+2-i)
		if _, err := svc.SignUp(ctx, u, "password1"); err != nil {
			t.Fatal(err)
		}
		if err := svc.Follow(ctx, u, "star"); err != nil {
			t.Fatal(err)
		}
		names = append(names, u)
	}
	slices.Sort(names)
	for _, n := range []int{orderShown, followersShown} {
		rows, live, err := h.followerRows(ctx, "star", int64(len(names)), n)
		if err != nil || live != "built" {
			t.Fatal(live, err)
		}
		var got []string
		for _, row := range rows {
			for _, c := range row {
				if c.Name == "follower" {
					got = append(got, unquote(c.Value))
				}
			}
		}
		if !slices.Equal(got, names[:n]) {
			t.Errorf("first %d: %v, want %v", n, got, names[:n])
		}
	}
	_, _, err := h.followerRows(ctx, "star", builtMax+1, orderShown)
	if !errors.Is(err, errTooManyToBuild) || !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("past the bound: %v", err)
	}
}
