package domain

import (
	"fmt"
	"runtime"
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// PasswordHasher hashes and checks passwords with bcrypt. Cost is the bcrypt cost; tests use
// bcrypt.MinCost so that signing up thousands of users stays fast.
//
// bcrypt is the costliest thing an anonymous visitor can ask of a server (a sign-up or a
// log-in: about 60 ms of a core at cost 10), so a hasher runs at most one less bcrypt at once
// than the process has cores (one at least): however many sign-ups and log-ins arrive together,
// a core is left for everyone else's requests, which wait for no bcrypt.
type PasswordHasher struct {
	Cost int

	dummyOnce sync.Once
	dummy     []byte

	slotsOnce sync.Once
	slots     chan struct{}
}

// NewPasswordHasher returns a hasher with the given cost (bcrypt.DefaultCost when 0).
func NewPasswordHasher(cost int) *PasswordHasher {
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	return &PasswordHasher{Cost: cost}
}

// Concurrency is how many bcrypt computations the hasher runs at once.
func (h *PasswordHasher) Concurrency() int { return cap(h.slotChan()) }

func (h *PasswordHasher) slotChan() chan struct{} {
	h.slotsOnce.Do(func() { h.slots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1)) })
	return h.slots
}

// run runs f, a bcrypt computation, in one of the hasher's slots.
func (h *PasswordHasher) run(f func()) {
	slots := h.slotChan()
	slots <- struct{}{}
	defer func() { <-slots }()
	f()
}

// Hash returns the bcrypt hash of pw.
func (h *PasswordHasher) Hash(pw string) ([]byte, error) {
	if err := ValidatePassword(pw); err != nil {
		return nil, err
	}
	var hash []byte
	var err error
	h.run(func() { hash, err = bcrypt.GenerateFromPassword([]byte(pw), h.Cost) })
	if err != nil {
		return nil, fmt.Errorf("hash password: %w", err)
	}
	return hash, nil
}

// Verify reports whether pw matches hash. With a nil hash (no such user) it still runs one bcrypt
// comparison of the same cost, so that a login takes the same time whether or not the user exists.
func (h *PasswordHasher) Verify(hash []byte, pw string) bool {
	if hash == nil {
		h.dummyOnce.Do(func() {
			h.run(func() { h.dummy, _ = bcrypt.GenerateFromPassword([]byte("no such user, no such password"), h.Cost) })
		})
		h.run(func() { _ = bcrypt.CompareHashAndPassword(h.dummy, []byte(pw)) })
		return false
	}
	var err error
	h.run(func() { err = bcrypt.CompareHashAndPassword(hash, []byte(pw)) })
	return err == nil
}
