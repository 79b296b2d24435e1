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
	"twissandra/ports/porttest"
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
	ops                 []string
}

func (c *counter) Divergence(op string) {
	c.mu.Lock()
	c.divergences++
	c.ops = append(c.ops, op)
	c.mu.Unlock()
}
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

// usersOn runs a and b as one UserStore.
func usersOn(p *compare.Pair, a, b ports.UserStore) ports.UserStore {
	return compare.Stores(p, ports.Stores{Users: a}, ports.Stores{Users: b}).Users
}

func user(name string) domain.User {
	return domain.User{ID: domain.NewTimeUUID(1), Username: name, PasswordHash: []byte("h"), CreatedAt: time.UnixMicro(1).UTC()}
}

func TestWritesGoToBothAndReadsAgree(t *testing.T) {
	t.Parallel()
	a, b := memory.New(), memory.New()
	obs := &counter{}
	users := usersOn(&compare.Pair{Primary: "one", Secondary: "two", Observer: obs}, a, b)
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
	users = usersOn(&compare.Pair{Primary: "one", Secondary: "two", Observer: obs}, a, b2)
	if _, err := users.GetUser(ctx, "alice"); err != nil {
		t.Fatalf("the primary's answer is the answer: %v", err)
	}
	if obs.divergences != 1 || !strings.Contains(r.joined(), "DIVERGENCE get_user alice: one: found, two: not found") {
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
		users := usersOn(&compare.Pair{Primary: "one", Secondary: "two", Observer: obs, Timeout: 50 * time.Millisecond}, a, broken{hang: hang})
		r := &rec{}
		ctx := oplog.With(context.Background(), r)
		if err := users.CreateUser(ctx, user("bob")); err != nil {
			t.Fatalf("hang=%v: %v", hang, err)
		}
		if _, err := users.GetUser(ctx, "bob"); err != nil {
			t.Fatalf("hang=%v: %v", hang, err)
		}
		if obs.faults != 2 || !strings.Contains(r.joined(), "SECONDARY FAILED create_user") {
			t.Fatalf("hang=%v: %d failures, ops:\n%s", hang, obs.faults, r.joined())
		}
	}
}

// Two models run as one pass the contract suites of one (every answer is the primary's), and the
// secondary never fails. The suites' concurrent subtests may see a shadowed read race a write
// (the secondary is read a moment after the primary), as compare mode does live and reports:
// those divergences are logged, not counted against the pair.
func TestPairKeepsTheContract(t *testing.T) {
	obs := &counter{}
	p := &compare.Pair{Primary: "one", Secondary: "two", Observer: obs}
	porttest.Run(t, func(t *testing.T) porttest.Stores {
		a, b := memory.New(), memory.New()
		s := compare.Stores(p, ports.Stores{Users: a, Tweets: a, Lines: a}, ports.Stores{Users: b, Tweets: b, Lines: b})
		return porttest.Stores{Users: s.Users, Tweets: s.Tweets, Lines: s.Lines}
	})
	porttest.RunBlog(t, func(t *testing.T) porttest.BlogStores {
		a, b := memory.NewBlog(), memory.NewBlog()
		s := compare.Stores(p, ports.Stores{Authors: a, Entries: a, Tags: a, Comments: a}, ports.Stores{Authors: b, Entries: b, Tags: b, Comments: b})
		return porttest.BlogStores{Authors: s.Authors, Entries: s.Entries, Tags: s.Tags, Comments: s.Comments}
	})
	porttest.RunSessions(t, func(t *testing.T) (ports.SessionStore, porttest.Stores) {
		a, b := memory.New(), memory.New()
		s := compare.Stores(p, ports.Stores{Users: a, Tweets: a, Lines: a, Sessions: memory.NewSessions()},
			ports.Stores{Users: b, Tweets: b, Lines: b, Sessions: memory.NewSessions()})
		return s.Sessions, porttest.Stores{Users: s.Users, Tweets: s.Tweets, Lines: s.Lines}
	})
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if obs.faults != 0 {
		t.Fatalf("the secondary failed %d times", obs.faults)
	}
	t.Logf("%d reads diverged under concurrent writes: %v", obs.divergences, obs.ops)
}
