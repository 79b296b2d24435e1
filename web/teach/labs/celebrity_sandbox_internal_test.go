package labs

import (
	"context"
	"errors"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	wideteach "twissandra/adapters/widerow/teach"
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

// A run does only the parts asked for after the post, each as the whole run does it; runs one
// after the other on a pool's reused nodes find what a fresh node finds.
func TestSandboxRunsTheAskedParts(t *testing.T) {
	pool := wideteach.NewScratchPool(1)
	defer func() { _ = pool.Close() }()
	open := func() (frame.Scratch, error) {
		s, err := pool.Open()
		if err != nil {
			return frame.Scratch{}, err
		}
		return frame.Scratch{Users: s.Store, Tweets: s.Store, Lines: s.Store, Rows: s.Inspector, Close: s.Close}, nil
	}
	ctx := context.Background()
	for round := range 2 {
		all, err := RunSandbox(ctx, open, 2, 3)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := RunSandboxParts(ctx, open, 2, 3, SandboxRows)
		if err != nil {
			t.Fatal(err)
		}
		read, err := RunSandboxParts(ctx, open, 2, 3, SandboxRead)
		if err != nil {
			t.Fatal(err)
		}
		if !all.Merged || all.LineRows != 3 || all.Read.Calls == 0 {
			t.Fatalf("round %d, the whole run: merged %v, %d rows, page %d calls", round, all.Merged, all.LineRows, all.Read.Calls)
		}
		if rows.LineRows != all.LineRows || rows.Read.Calls != 0 || rows.Merged || rows.Post.Calls != all.Post.Calls {
			t.Errorf("round %d, the rows alone: %d rows, page %d calls, post %d calls (the whole run's: %d rows, post %d)", round, rows.LineRows, rows.Read.Calls, rows.Post.Calls, all.LineRows, all.Post.Calls)
		}
		if read.Merged != all.Merged || read.Read.Calls != all.Read.Calls || read.LineRows != 0 || read.Userlines != nil {
			t.Errorf("round %d, the page alone: merged %v, page %d calls, %d rows", round, read.Merged, read.Read.Calls, read.LineRows)
		}
	}
}
