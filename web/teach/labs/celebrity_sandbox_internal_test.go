package labs

import (
	"context"
	"errors"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/web/teach/frame"
)

// The sandbox creates its users with the precomputed hash of its one password, which bcrypt
// accepts for that password, and the follow it measures still finds both users in the store.
func TestSandboxUsersHoldThePrecomputedHash(t *testing.T) {
	st := memory.New()
	open := func() (frame.Scratch, error) {
		return frame.Scratch{Users: st, Tweets: st, Lines: st, Close: func() error { return nil }}, nil
	}
	step, err := RunFollow(context.Background(), open, 1)
	if err != nil {
		t.Fatal(err)
	}
	if step.Calls == 0 {
		t.Fatalf("the follow cost no call: %+v", step)
	}
	for _, name := range []string{sandboxAuthor, sandboxFan + "1"} {
		u, err := st.GetUser(context.Background(), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(u.PasswordHash) != sandboxHash {
			t.Fatalf("%s's hash %q, want the precomputed one", name, u.PasswordHash)
		}
		if err := bcrypt.CompareHashAndPassword(u.PasswordHash, []byte("sandbox password")); err != nil {
			t.Fatalf("%s: the hash is not the sandbox password's: %v", name, err)
		}
	}
	// A second user of a name already taken is refused, as a sign-up would be.
	if err := sandboxUsers(context.Background(), st, sandboxAuthor); err == nil {
		t.Fatal("a second user named star was created")
	}
	if err := sandboxUsers(context.Background(), st, "not a name!"); !errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("%v, want invalid", err)
	}
}
