package teach_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

	"twissandra/adapters/widerow/teach"
	"twissandra/domain"
)

// Two scratch nodes are apart: a user written into one is in its rows (its inspector finds the
// row key) and not in the other's.
func TestScratchNodesAreApart(t *testing.T) {
	ctx := context.Background()
	a, err := teach.OpenScratch()
	if err != nil {
		t.Fatal(err)
	}
	b, err := teach.OpenScratch()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = b.Close() }()
	id := uuid.New()
	if err := a.Store.CreateUser(ctx, domain.User{ID: id, Username: "star", PasswordHash: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if key, err := a.Inspector.UserRowKey(ctx, "star"); err != nil || key != id.String() {
		t.Errorf("the scratch's own user: %q, %v", key, err)
	}
	if _, err := b.Inspector.UserRowKey(ctx, "star"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("another scratch node holds the user: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
}

// A pooled node comes back empty: the next run on it finds none of the last run's rows, and
// two runs at once each have a node of their own.
func TestScratchPoolGivesBackEmptyNodes(t *testing.T) {
	ctx := context.Background()
	p := teach.NewScratchPool(1)
	defer func() { _ = p.Close() }()
	a, err := p.Open()
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Open() // while a runs
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Fatal("two runs at once share a node")
	}
	if err := a.Store.CreateUser(ctx, domain.User{ID: uuid.New(), Username: "star", PasswordHash: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil { // the pool holds one idle node: b is closed
		t.Fatal(err)
	}
	c, err := p.Open()
	if err != nil {
		t.Fatal(err)
	}
	if c != a {
		t.Fatal("the idle node was not reused")
	}
	if _, err := c.Inspector.UserRowKey(ctx, "star"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("the last run's user is still there: %v", err)
	}
	keys, err := c.Inspector.RowKeys(ctx, "Twissandra", "User", 10)
	if err != nil || len(keys) != 0 {
		t.Fatalf("the reused node's User rows: %v, %v", keys, err)
	}
	if err := c.Store.CreateUser(ctx, domain.User{ID: uuid.New(), Username: "star", PasswordHash: []byte("x")}); err != nil {
		t.Fatalf("the name is not free again: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

// Runs at once on one pool each find their node empty, whatever ran on it before.
func TestScratchPoolUnderConcurrentRuns(t *testing.T) {
	ctx := context.Background()
	p := teach.NewScratchPool(2)
	defer func() { _ = p.Close() }()
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 10 {
				s, err := p.Open()
				if err != nil {
					errs <- err
					return
				}
				if _, err := s.Inspector.UserRowKey(ctx, "star"); !errors.Is(err, domain.ErrNotFound) {
					errs <- errors.Join(errors.New("a run found another's user"), err)
					return
				}
				if err := s.Store.CreateUser(ctx, domain.User{ID: uuid.New(), Username: "star", PasswordHash: []byte("x")}); err != nil {
					errs <- err
					return
				}
				if err := s.Close(); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
