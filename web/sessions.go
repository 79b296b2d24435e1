package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"twissandra/domain"
	"twissandra/domain/social"
)

// SessionIDLen is the length of a session's id: an API token's, or a page session's.
const SessionIDLen = tokenIDLen

// SessionID names one log-in: a token's id, or a page session's.
type SessionID [SessionIDLen]byte

// NewSessionID makes a random session id.
func NewSessionID() SessionID {
	var id SessionID
	_, _ = rand.Read(id[:])
	return id
}

// String is the id as the store keeps it: 32 hex digits.
func (id SessionID) String() string { return hex.EncodeToString(id[:]) }

// ParseSessionID reads the 32 hex digits of String.
func ParseSessionID(s string) (SessionID, bool) {
	var id SessionID
	if len(s) != 2*SessionIDLen {
		return id, false
	}
	_, err := hex.Decode(id[:], []byte(s))
	return id, err == nil
}

// sessionCheck answers "was this session ended?" for the API's tokens and the pages' sessions.
// The answer lives in the store (ports.SessionStore through social.Access), shared by every
// server and kept across restarts; each server remembers what it learnt: an ended session until
// it expires (it never opens again), an open one for recheck, the longest another server's
// logout takes to be seen here. A logout on this server is seen here at once. A negative recheck
// never asks again once it knows, for a store that this process alone writes.
type sessionCheck struct {
	access  *social.Access
	recheck time.Duration
	clock   domain.Clock

	mu    sync.Mutex
	known map[SessionID]sessionAnswer
}

type sessionAnswer struct {
	ended bool
	until time.Time // ended: when the session expires; open: when to ask again (zero: never)
}

// maxKnownSessions bounds the answers a server remembers; past it, it forgets them all.
const maxKnownSessions = 100_000

func newSessionCheck(access *social.Access, recheck time.Duration, clock domain.Clock) *sessionCheck {
	return &sessionCheck{access: access, recheck: recheck, clock: clock, known: map[SessionID]sessionAnswer{}}
}

func (s *sessionCheck) remember(id SessionID, a sessionAnswer) {
	s.mu.Lock()
	if len(s.known) >= maxKnownSessions {
		clear(s.known)
	}
	s.known[id] = a
	s.mu.Unlock()
}

// ended reports whether session id, which lasts until expires, was ended.
func (s *sessionCheck) ended(ctx context.Context, id SessionID, expires time.Time) (bool, error) {
	now := s.clock.Now()
	s.mu.Lock()
	a, ok := s.known[id]
	s.mu.Unlock()
	if ok && (a.ended || a.until.IsZero() || now.Before(a.until)) {
		return a.ended, nil
	}
	ended, err := s.access.SessionEnded(ctx, id.String(), expires)
	if err != nil {
		return false, err
	}
	switch {
	case ended:
		s.remember(id, sessionAnswer{ended: true, until: expires})
	case s.recheck < 0:
		s.remember(id, sessionAnswer{})
	default:
		s.remember(id, sessionAnswer{until: now.Add(s.recheck)})
	}
	return ended, nil
}

// opened records that session id has just begun: nothing can have ended it yet.
func (s *sessionCheck) opened(id SessionID) {
	a := sessionAnswer{}
	if s.recheck > 0 {
		a.until = s.clock.Now().Add(s.recheck)
	}
	s.remember(id, a)
}

// end ends session id everywhere, and here at once.
func (s *sessionCheck) end(ctx context.Context, id SessionID, expires time.Time) error {
	if err := s.access.EndSession(ctx, id.String(), expires); err != nil {
		return err
	}
	s.remember(id, sessionAnswer{ended: true, until: expires})
	return nil
}

// SessionEnded reports whether the session id (a page session's), which lasts until expires,
// was ended by a logout on any server.
func (s *Server) SessionEnded(ctx context.Context, id SessionID, expires time.Time) (bool, error) {
	return s.sessions.ended(ctx, id, expires)
}

// SessionOpened tells the server that session id has just begun (a page log-in), so that
// its first pages need not ask the store.
func (s *Server) SessionOpened(id SessionID) { s.sessions.opened(id) }

// EndSession ends the session id, which would have lasted until expires, on every server.
func (s *Server) EndSession(ctx context.Context, id SessionID, expires time.Time) error {
	return s.sessions.end(ctx, id, expires)
}

// Access is the log-in and log-out of the server's users.
func (s *Server) Access() *social.Access { return s.deps.Access }
