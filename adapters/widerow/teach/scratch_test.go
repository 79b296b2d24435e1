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
