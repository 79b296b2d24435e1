package compare_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"twissandra/adapters/compare"
	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/ports"
	"twissandra/ports/oplog"
)

// rec records lines, and keeps the secondary's apart (an oplog.Shadower).
type rec struct {
	mu     sync.Mutex
	lines  []string
	shadow *rec
}

func (r *rec) Record(op oplog.Op) { r.mu.Lock(); r.lines = append(r.lines, op.Text); r.mu.Unlock() }
func (r *rec) Shadow(string) oplog.Recorder {
	if r.shadow == nil {
		r.shadow = &rec{}
	}
	return r.shadow
}
func (r *rec) joined() string { r.mu.Lock(); defer r.mu.Unlock(); return strings.Join(r.lines, "\n") }

type counter struct {
	mu                  sync.Mutex
	divergences, faults int
}

func (c *counter) Divergence(string)       { c.mu.Lock(); c.divergences++; c.mu.Unlock() }
func (c *counter) SecondaryFailure(string) { c.mu.Lock(); c.faults++; c.mu.Unlock() }

// broken fails every call, or hangs until its context ends.
type broken struct {
	ports.UserStore
	hang bool
}

func (b broken) CreateUser(ctx context.Context, _ domain.User) error {
	if b.hang {
		<-ctx.Done()
		return ctx.Err()
	}
	return errors.New("node down")
}

func (b broken) GetUser(ctx context.Context, _ string) (domain.User, error) {
	return domain.User{}, b.CreateUser(ctx, domain.User{})
}

func user(name string) domain.User {
	return domain.User{ID: domain.NewTimeUUID(1), Username: name, PasswordHash: []byte("h"), CreatedAt: time.UnixMicro(1).UTC()}
}

func TestWritesGoToBothAndReadsAgree(t *testing.T) {
	t.Parallel()
	a, b := memory.New(), memory.New()
	obs := &counter{}
	users := compare.Users(&compare.Pair{Primary: "one", Secondary: "two", Observer: obs}, a, b)
	r := &rec{}
	ctx := oplog.With(context.Background(), r)
	if err := users.CreateUser(ctx, user("alice")); err != nil {
		t.Fatal(err)
	}
	if _, err := b.GetUser(context.Background(), "alice"); err != nil {
		t.Fatalf("the secondary lacks the write: %v", err)
	}
	if _, err := users.GetUser(ctx, "alice"); err != nil || obs.divergences != 0 {
		t.Fatalf("read: %v, %d divergences", err, obs.divergences)
	}
	// A write the primary refuses is not made on the secondary.
	if err := users.CreateUser(ctx, user("alice")); !errors.Is(err, domain.ErrAlreadyExists) {
		t.Fatalf("again: %v", err)
	}
	// The secondary loses alice behind the pair's back: the next read diverges, and says so.
	b2 := memory.New()
	users = compare.Users(&compare.Pair{Primary: "one", Secondary: "two", Observer: obs}, a, b2)
	if _, err := users.GetUser(ctx, "alice"); err != nil {
		t.Fatalf("the primary's answer is the answer: %v", err)
	}
	if obs.divergences != 1 || !strings.Contains(r.joined(), "DIVERGENCE get user alice: one: found, two: not found") {
		t.Fatalf("%d divergences, ops:\n%s", obs.divergences, r.joined())
	}
}

// A failing or hanging secondary never reaches the application: it is reported, bounded by the
// pair's timeout.
func TestSecondaryFailuresAreReportedOnly(t *testing.T) {
	t.Parallel()
	for _, hang := range []bool{false, true} {
		a := memory.New()
		obs := &counter{}
		users := compare.Users(&compare.Pair{Primary: "one", Secondary: "two", Observer: obs, Timeout: 50 * time.Millisecond}, a, broken{hang: hang})
		r := &rec{}
		ctx := oplog.With(context.Background(), r)
		if err := users.CreateUser(ctx, user("bob")); err != nil {
			t.Fatalf("hang=%v: %v", hang, err)
		}
		if _, err := users.GetUser(ctx, "bob"); err != nil {
			t.Fatalf("hang=%v: %v", hang, err)
		}
		if obs.faults != 2 || !strings.Contains(r.joined(), "SECONDARY FAILED create user bob") {
			t.Fatalf("hang=%v: %d failures, ops:\n%s", hang, obs.faults, r.joined())
		}
	}
}
