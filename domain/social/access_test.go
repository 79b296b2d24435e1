package social_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports"
)

// countingSessions counts the calls that reach a SessionStore.
type countingSessions struct {
	ports.SessionStore
	writes, reads atomic.Int64
}

func (c *countingSessions) AddLoginAttempt(ctx context.Context, key string, id uuid.UUID, keep time.Duration) error {
	c.writes.Add(1)
	return c.SessionStore.AddLoginAttempt(ctx, key, id, keep)
}

func (c *countingSessions) DropLoginAttempt(ctx context.Context, key string, id uuid.UUID) error {
	c.writes.Add(1)
	return c.SessionStore.DropLoginAttempt(ctx, key, id)
}

func (c *countingSessions) ClearLoginAttempts(ctx context.Context, key string) error {
	c.writes.Add(1)
	return c.SessionStore.ClearLoginAttempts(ctx, key)
}

func (c *countingSessions) LoginAttempts(ctx context.Context, key string, since time.Time, limit int) ([]time.Time, error) {
	c.reads.Add(1)
	return c.SessionStore.LoginAttempts(ctx, key, since, limit)
}

// A refused attempt costs the store nothing once the server has seen its key blocked: an address
// hammering a name while blocked writes nothing (no tombstone in the window the name's owner is
// counted in), and the owner's right password from elsewhere is not refused for it.
func TestRefusedAttemptsCostTheStoreNothing(t *testing.T) {
	ctx := context.Background()
	st := memory.New()
	svc := social.New(st, st, st, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	sessions := &countingSessions{SessionStore: memory.NewSessions()}
	a := social.NewAccess(svc, sessions, nil)
	if _, err := svc.SignUp(ctx, "victim", "right password"); err != nil {
		t.Fatal(err)
	}
	attacker := social.Client{Addr: "203.0.113.9"}
	for i := range social.AddressLoginLimit {
		if _, err := a.LogIn(ctx, "ghost"+string(rune('a'+i)), "wrong", attacker); !errors.Is(err, domain.ErrUnauthenticated) {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	// The first refusal reads the counts and finds the address over its limit.
	if _, err := a.LogIn(ctx, "victim", "guess", attacker); !errors.Is(err, domain.ErrTooManyAttempts) {
		t.Fatalf("the attempt over the limit: %v", err)
	}
	writes, reads := sessions.writes.Load(), sessions.reads.Load()
	for range 200 {
		if _, err := a.LogIn(ctx, "victim", "guess", attacker); !errors.Is(err, domain.ErrTooManyAttempts) {
			t.Fatalf("a blocked address: %v", err)
		}
	}
	if w, r := sessions.writes.Load()-writes, sessions.reads.Load()-reads; w != 0 || r != 0 {
		t.Fatalf("200 refused attempts of a blocked address cost %d writes and %d reads, want none", w, r)
	}
	if _, err := a.LogIn(ctx, "victim", "right password", social.Client{Addr: "198.51.100.1"}); err != nil {
		t.Fatalf("the victim from elsewhere while an address hammers the name: %v", err)
	}
}
