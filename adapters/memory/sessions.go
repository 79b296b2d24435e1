package memory

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/ports/oplog"
)

// Sessions implements ports.SessionStore in memory: one process's log-in attempts and ended
// sessions, each forgotten once it no longer matters (swept as the maps grow).
type Sessions struct {
	mu       sync.Mutex
	attempts map[string][]attempt // by key, oldest first
	ended    map[string]time.Time // session id -> when it would have expired
	// sweepAt is the size of attempts plus ended from which the next write sweeps.
	sweepAt int
	now     func() time.Time
}

type attempt struct {
	id    uuid.UUID
	at    time.Time
	until time.Time // when it may be forgotten
}

const sweepMin = 1024

// NewSessions returns an empty session store.
func NewSessions() *Sessions {
	return &Sessions{attempts: map[string][]attempt{}, ended: map[string]time.Time{}, sweepAt: sweepMin, now: time.Now}
}

// sweep forgets what has expired once the maps have doubled since the last sweep; the caller
// holds mu.
func (s *Sessions) sweep() {
	if len(s.attempts)+len(s.ended) < s.sweepAt {
		return
	}
	now := s.now()
	for k, as := range s.attempts {
		as = slices.DeleteFunc(as, func(a attempt) bool { return !now.Before(a.until) })
		if len(as) == 0 {
			delete(s.attempts, k)
		} else {
			s.attempts[k] = as
		}
	}
	for id, exp := range s.ended {
		if !now.Before(exp) {
			delete(s.ended, id)
		}
	}
	s.sweepAt = max(sweepMin, 2*(len(s.attempts)+len(s.ended)))
}

// AddLoginAttempt implements ports.SessionStore.
func (s *Sessions) AddLoginAttempt(ctx context.Context, key string, id uuid.UUID, keep time.Duration) error {
	if err := done(ctx); err != nil {
		return err
	}
	at := time.UnixMicro(domain.TimeUUIDMicros(id))
	s.mu.Lock()
	s.sweep()
	as := s.attempts[key]
	i, _ := slices.BinarySearchFunc(as, at, func(a attempt, t time.Time) int { return a.at.Compare(t) })
	s.attempts[key] = slices.Insert(as, i, attempt{id: id, at: at, until: s.now().Add(keep)})
	s.mu.Unlock()
	if describe(ctx, oplog.Write, "add") {
		noteText(ctx, oplog.Write, nil, "add login_attempt "+key+" "+id.String())
	}
	return nil
}

// LoginAttempts implements ports.SessionStore.
func (s *Sessions) LoginAttempts(ctx context.Context, key string, since time.Time, limit int) ([]time.Time, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	var out []time.Time
	s.mu.Lock()
	for _, a := range s.attempts[key] {
		if len(out) == limit {
			break
		}
		if !a.at.Before(since) {
			out = append(out, a.at)
		}
	}
	s.mu.Unlock()
	if describe(ctx, oplog.Read, "slice") {
		noteText(ctx, oplog.Read, nil, "slice login_attempts "+key+" since="+since.UTC().Format(time.RFC3339)+" limit="+itoa(limit)+" -> "+itoa(len(out)))
	}
	return out, nil
}

// DropLoginAttempt implements ports.SessionStore.
func (s *Sessions) DropLoginAttempt(ctx context.Context, key string, id uuid.UUID) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	if as := slices.DeleteFunc(s.attempts[key], func(a attempt) bool { return a.id == id }); len(as) == 0 {
		delete(s.attempts, key)
	} else {
		s.attempts[key] = as
	}
	s.mu.Unlock()
	if describe(ctx, oplog.Write, "drop") {
		noteText(ctx, oplog.Write, nil, "drop login_attempt "+key+" "+id.String())
	}
	return nil
}

// ClearLoginAttempts implements ports.SessionStore.
func (s *Sessions) ClearLoginAttempts(ctx context.Context, key string) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.attempts, key)
	s.mu.Unlock()
	if describe(ctx, oplog.Write, "clear") {
		noteText(ctx, oplog.Write, nil, "clear login_attempts "+key)
	}
	return nil
}

// EndSession implements ports.SessionStore.
func (s *Sessions) EndSession(ctx context.Context, id string, expires time.Time) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	s.sweep()
	s.ended[id] = expires
	s.mu.Unlock()
	if describe(ctx, oplog.Write, "end") {
		noteText(ctx, oplog.Write, nil, "end session "+id)
	}
	return nil
}

// SessionEnded implements ports.SessionStore.
func (s *Sessions) SessionEnded(ctx context.Context, id string, expires time.Time) (bool, error) {
	if err := done(ctx); err != nil {
		return false, err
	}
	s.mu.Lock()
	_, ended := s.ended[id]
	s.mu.Unlock()
	if describe(ctx, oplog.Read, "get") {
		n := 0
		if ended {
			n = 1
		}
		noteText(ctx, oplog.Read, nil, "get ended_session "+id+" -> "+itoa(n))
	}
	return ended, nil
}
