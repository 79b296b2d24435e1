package social_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
)

// SetLimits sets the failed log-ins of an address's devices together, and the sign-ups of an
// address, in place of their defaults.
func TestAccessLimitsAreSet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memory.New()
	svc := social.New(st, st, st, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	a := social.NewAccess(svc, memory.NewSessions(), nil)
	a.SetLimits(social.Limits{LoginFailuresPerAddress: 3, SignUpsPerAddress: 2})
	for i := range 3 {
		dev := social.Client{Addr: "203.0.113.9", Device: "device" + strconv.Itoa(i)}
		if _, err := a.LogIn(ctx, "ghost"+strconv.Itoa(i), "wrong", dev); !errors.Is(err, domain.ErrUnauthenticated) {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	if _, err := a.LogIn(ctx, "ghost", "wrong", social.Client{Addr: "203.0.113.9", Device: "another"}); !errors.Is(err, domain.ErrTooManyAttempts) {
		t.Fatalf("a fourth device's failure, over the address's 3: %v", err)
	}
	room := social.Client{Addr: "198.51.100.7"}
	for i := range 2 {
		if _, err := a.SignUp(ctx, "pupil"+strconv.Itoa(i), "password1", room); err != nil {
			t.Fatalf("sign-up %d: %v", i+1, err)
		}
	}
	if _, err := a.SignUp(ctx, "pupil2", "password1", room); !errors.Is(err, domain.ErrTooManyAttempts) {
		t.Fatalf("a third sign-up, over the address's 2: %v", err)
	}
}
