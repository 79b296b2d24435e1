package ports

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// SessionStore keeps what logging in and out must share across restarts and across the servers
// of one cluster: the recent log-in attempts of a username or of a client address, which the
// log-in limit counts (social.Access), and the sessions ended before their time, which every
// server refuses from then on.
//
// Neither needs keeping long: an attempt matters for the limit's window, an ended session until
// it would have expired anyway. A store may forget each after that (Cassandra's TTL; the 0.6
// model, which had none, sweeps).
type SessionStore interface {
	// AddLoginAttempt records attempt id under key (a version-1 UUID, whose time is when the
	// attempt was made). The store may forget it once keep has passed.
	AddLoginAttempt(ctx context.Context, key string, id uuid.UUID, keep time.Duration) error
	// LoginAttempts returns the times of key's attempts made at or after since, oldest first, at
	// most limit of them.
	LoginAttempts(ctx context.Context, key string, since time.Time, limit int) ([]time.Time, error)
	// DropLoginAttempt forgets attempt id of key; ClearLoginAttempts every attempt of key.
	DropLoginAttempt(ctx context.Context, key string, id uuid.UUID) error
	ClearLoginAttempts(ctx context.Context, key string) error
	// EndSession records that session id, which would have lasted until expires, has ended.
	EndSession(ctx context.Context, id string, expires time.Time) error
	// SessionEnded reports whether session id, which lasts until expires, was ended. The store
	// may forget an ended session once expires has passed, when it would be refused anyway.
	SessionEnded(ctx context.Context, id string, expires time.Time) (bool, error)
}
