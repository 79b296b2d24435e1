package teaching

import "context"

// NameClaims is the uniqueness race's sandbox: names claimed apart from the application's users,
// in the store's own model, two ways. Write is a blind write (what a read-then-write sign-up
// does after its read); WriteIfAbsent is the store's lightweight transaction (INSERT ... IF NOT
// EXISTS on cql3, insert_if_absent on widerow, a check and a write under one lock in memory).
type NameClaims interface {
	// Lookup returns the owner of name, found false when it is unclaimed.
	Lookup(ctx context.Context, name string) (owner string, found bool, err error)
	// Write claims name for owner whatever is there.
	Write(ctx context.Context, name, owner string) error
	// WriteIfAbsent claims name for owner only if it is unclaimed, atomically.
	WriteIfAbsent(ctx context.Context, name, owner string) (applied bool, err error)
	// Release forgets name's claim, whoever holds it, so that a race leaves nothing behind.
	Release(ctx context.Context, name string) error
	// Statements describes the three calls in the model's own words: read, write, LWT.
	Statements() (read, write, lwt string)
}
