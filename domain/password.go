package domain

import (
	"fmt"
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// PasswordHasher hashes and checks passwords with bcrypt. Cost is the bcrypt cost; tests use
// bcrypt.MinCost so that signing up thousands of users stays fast.
type PasswordHasher struct {
	Cost int

	dummyOnce sync.Once
	dummy     []byte
}

// NewPasswordHasher returns a hasher with the given cost (bcrypt.DefaultCost when 0).
func NewPasswordHasher(cost int) *PasswordHasher {
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	return &PasswordHasher{Cost: cost}
}

// Hash returns the bcrypt hash of pw.
func (h *PasswordHasher) Hash(pw string) ([]byte, error) {
	if err := ValidatePassword(pw); err != nil {
		return nil, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(pw), h.Cost)
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
			h.dummy, _ = bcrypt.GenerateFromPassword([]byte("no such user, no such password"), h.Cost)
		})
		_ = bcrypt.CompareHashAndPassword(h.dummy, []byte(pw))
		return false
	}
	return bcrypt.CompareHashAndPassword(hash, []byte(pw)) == nil
}
