package social

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"time"

	"twissandra/domain"
	"twissandra/ports"
)

// The log-in limit: at most LoginLimit attempts per LoginWindow for one username, and as many
// for one client address, counted in the store, so that every server of a cluster counts the
// same attempts and the limit does not grow with their number.
const (
	LoginLimit  = 5
	LoginWindow = time.Minute
)

// Access runs logging in under the limit and the ending of sessions, over a SessionStore
// shared by every server of the backend.
//
// The limit is per username and per address, and both must allow. Per username, an attempt is
// written before it is counted, and counted before the password is checked: of any number of
// attempts on one name made at once, on any number of servers, at most LoginLimit check a
// password in a window (each counts every attempt written before its own read, its own
// included). An attempt refused for the limit is dropped again, so hammering an account does not
// lengthen its wait, and a right password clears the name's count. That bound is what protects a
// password, from one client or from a botnet.
//
// Per address, only failures count, written once the password proved wrong: one client guessing
// across many names is stopped after LoginLimit failures, but the attempts it has in flight
// when its fifth failure lands are still checked. Counting an address's attempts before their
// check would bound that burst too, at the price of refusing honest clients behind one address
// (an office, a load test) that log in at the same moment, which a limit must not do.
//
// The price of a per-username limit is the known one: anyone can hold a username's log-in shut
// by failing on purpose, for a minute at a time. An IPv6 client is counted by its /64, the block
// one subscriber is given.
type Access struct {
	users    *Service
	sessions ports.SessionStore
	clock    domain.Clock
}

// NewAccess runs log-in and log-out for svc's users over sessions. clock nil is the wall clock.
func NewAccess(svc *Service, sessions ports.SessionStore, clock domain.Clock) *Access {
	if clock == nil {
		clock = domain.SystemClock{}
	}
	return &Access{users: svc, sessions: sessions, clock: clock}
}

// LoginKeys are the keys a log-in by username from addr is counted under: "user:<name>" and
// "addr:<address>" (an IPv6 address by its /64). A name too long to exist shares one key, so
// that no amount of them grows the store; an address that is not one (a test's) is kept as
// given.
func LoginKeys(username, addr string) (user, address string) {
	user = "user:" + username
	if len(username) > domain.MaxUsernameLen {
		user = "user:"
	}
	if a, err := netip.ParseAddr(addr); err == nil {
		a = a.Unmap()
		if a.Is6() {
			p, _ := a.Prefix(64)
			return user, "addr:" + p.String()
		}
		return user, "addr:" + a.String()
	}
	return user, "addr:" + addr
}

// LogIn checks username and password for a client at addr, under the limit. Wrong
// credentials are domain.ErrUnauthenticated; too many attempts a *domain.RetryError
// (domain.ErrTooManyAttempts) saying when to try again.
func (a *Access) LogIn(ctx context.Context, username, password, addr string) (domain.User, error) {
	now := a.clock.Now()
	since := now.Add(-LoginWindow)
	id := domain.NewTimeUUID(now.UnixMicro())
	userKey, addrKey := LoginKeys(username, addr)
	if err := a.sessions.AddLoginAttempt(ctx, userKey, id, LoginWindow); err != nil {
		return domain.User{}, err
	}
	var wait time.Duration
	byName, err := a.sessions.LoginAttempts(ctx, userKey, since, LoginLimit+1)
	if err != nil {
		return domain.User{}, err
	}
	if len(byName) > LoginLimit {
		// The oldest attempt in the window leaves it first; then this one would pass.
		wait = byName[0].Add(LoginWindow).Sub(now)
	}
	byAddr, err := a.sessions.LoginAttempts(ctx, addrKey, since, LoginLimit)
	if err != nil {
		return domain.User{}, err
	}
	if len(byAddr) >= LoginLimit {
		wait = max(wait, byAddr[0].Add(LoginWindow).Sub(now))
	}
	if wait > 0 {
		if err := a.sessions.DropLoginAttempt(ctx, userKey, id); err != nil {
			return domain.User{}, err
		}
		secs := int(wait/time.Second) + 1
		return domain.User{}, &domain.RetryError{After: time.Duration(secs) * time.Second,
			Message: "too many log-in attempts: wait " + strconv.Itoa(secs) + " seconds and try again"}
	}
	u, err := a.users.LogIn(ctx, username, password)
	switch {
	case errors.Is(err, domain.ErrUnauthenticated):
		// The attempt stays in the name's count, and the failure joins the address's.
		if err := a.sessions.AddLoginAttempt(ctx, addrKey, id, LoginWindow); err != nil {
			return domain.User{}, err
		}
		return domain.User{}, err
	case err != nil:
		return domain.User{}, err
	}
	return u, a.sessions.ClearLoginAttempts(ctx, userKey)
}

// EndSession ends session id (a token's or a page session's), which would have lasted until
// expires, on every server sharing the store.
func (a *Access) EndSession(ctx context.Context, id string, expires time.Time) error {
	if id == "" {
		return fmt.Errorf("%w: a session without an id", domain.ErrInvalid)
	}
	if !a.clock.Now().Before(expires) {
		return nil // over already: nothing will take it
	}
	return a.sessions.EndSession(ctx, id, expires)
}

// SessionEnded reports whether session id, which lasts until expires, was ended.
func (a *Access) SessionEnded(ctx context.Context, id string, expires time.Time) (bool, error) {
	return a.sessions.SessionEnded(ctx, id, expires)
}
