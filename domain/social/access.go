package social

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/ports"
)

// The log-in limit, counted in the store, so that every server of a cluster counts the same
// attempts and the limit does not grow with their number: in any LoginWindow,
//   - at most LoginLimit attempts on one username reach the password check (a right password
//     clears the count);
//   - at most LoginLimit attempts from one device (a browser that logged in before: see Client)
//     fail or are in flight, and at most DevicesPerAddressLimit of all the devices behind one
//     address together;
//   - at most AddressLoginLimit attempts from one address without a device fail or are in
//     flight.
const (
	LoginLimit             = 5
	AddressLoginLimit      = 10
	DevicesPerAddressLimit = 50
	LoginWindow            = time.Minute
)

// Client is who makes a log-in attempt: the address it comes from and, when its browser has
// logged in or signed up here before, the device the server named it then (a random ID in a
// signed cookie; the web layer checks the signature and passes only a genuine one).
type Client struct {
	Addr   string
	Device string
}

// Access runs logging in under the limit and the ending of sessions, over a SessionStore
// shared by every server of the backend.
//
// Every count is exact under any concurrency and over any number of servers: an attempt is
// written under each of its keys before it is counted, and counted before the password is
// checked, so that of any number of attempts at once each counts every attempt written before
// its own read, its own included, and at most the limit pass. An attempt refused for a limit
// is dropped again, so hammering does not lengthen the wait.
//
// Per username, every attempt counts (a right password clears the name's count): that bound
// is what protects a password, from one client or from a botnet. Per device and per address,
// an attempt counts while in flight and stays only if its password proves wrong: the bound is
// of the guesses one client can make, and honest log-ins at the same moment release their
// place as soon as they succeed.
//
// Counting a learner by their device rather than by their address is what lets a classroom sit
// behind one address: one learner's typos lock out that learner's browser, not the room. The
// web layer gives a device with the log-in form, so a class's first log-ins are counted so too;
// a client that mints devices is held by the total of the devices behind its address.
//
// A refused attempt costs the store nothing once this server has seen the key blocked: it
// remembers until when (blocks), so an address or a name hammered while blocked is refused in
// memory, without a write or a tombstone in the window its owner's attempts are counted in.
//
// The price of a per-username limit is the known one: anyone can hold a username's log-in shut
// by failing on purpose, for a minute at a time. An IPv6 client is counted by its /64, the block
// one subscriber is given.
type Access struct {
	users    *Service
	sessions ports.SessionStore
	clock    domain.Clock
	tally    *tally
	signUps  *Gate
	// devicesPerAddress is the failed log-ins a minute of the devices behind one address
	// together (DevicesPerAddressLimit unless SetLimits says otherwise).
	devicesPerAddress int
}

// Limits are the bounds per address of sign-ups and log-ins that an operator may set (serve's
// --signups-per-address and --login-failures-per-address); a zero figure keeps its default.
type Limits struct {
	// SignUpsPerAddress is the sign-ups in SignUpLimits.Window from one address: from its
	// clients without a device, and from its devices together (SignUpLimits' PerAddress and
	// PerAddressDevices).
	SignUpsPerAddress int
	// LoginFailuresPerAddress is the failed log-ins a minute of the devices behind one address
	// together (DevicesPerAddressLimit).
	LoginFailuresPerAddress int
}

// SetLimits sets the bounds per address of l's non-zero figures. Call it before serving.
func (a *Access) SetLimits(l Limits) {
	if l.SignUpsPerAddress > 0 {
		s := SignUpLimits
		s.PerAddress, s.PerAddressDevices = l.SignUpsPerAddress, l.SignUpsPerAddress
		a.signUps = a.NewGate("sign-up", s)
	}
	if l.LoginFailuresPerAddress > 0 {
		a.devicesPerAddress = l.LoginFailuresPerAddress
	}
}

// NewAccess runs sign-up, log-in and log-out for svc's users over sessions. clock nil is the
// wall clock.
func NewAccess(svc *Service, sessions ports.SessionStore, clock domain.Clock) *Access {
	if clock == nil {
		clock = domain.SystemClock{}
	}
	a := &Access{users: svc, sessions: sessions, clock: clock, devicesPerAddress: DevicesPerAddressLimit,
		tally: &tally{sessions: sessions, clock: clock, blocks: blocks{until: map[string]time.Time{}}}}
	a.signUps = a.NewGate("sign-up", SignUpLimits)
	return a
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

// loginCounter is one count an attempt is held to.
type loginCounter struct {
	key   string
	limit int
}

// counters are the counts of an attempt on username from client: the name's first.
func (a *Access) counters(username string, client Client) []loginCounter {
	userKey, addrKey := LoginKeys(username, client.Addr)
	if client.Device != "" {
		return []loginCounter{{userKey, LoginLimit}, {"device:" + client.Device, LoginLimit},
			{"devices:" + strings.TrimPrefix(addrKey, "addr:"), a.devicesPerAddress}}
	}
	return []loginCounter{{userKey, LoginLimit}, {addrKey, AddressLoginLimit}}
}

// LogIn checks username and password for client, under the limit. Wrong credentials are
// domain.ErrUnauthenticated; too many attempts a *domain.RetryError (domain.ErrTooManyAttempts)
// saying when to try again.
func (a *Access) LogIn(ctx context.Context, username, password string, client Client) (domain.User, error) {
	cs := a.counters(username, client)
	id, err := a.tally.take(ctx, cs, LoginWindow, "log-in attempts")
	if err != nil {
		return domain.User{}, err
	}
	u, err := a.users.LogIn(ctx, username, password)
	switch {
	case errors.Is(err, domain.ErrUnauthenticated):
		return domain.User{}, err // the attempt stays in every count
	case err != nil:
		return domain.User{}, err
	}
	// A right password clears the name's count and takes the attempt out of the others: they
	// count what failed.
	if err := a.sessions.ClearLoginAttempts(ctx, cs[0].key); err != nil {
		return domain.User{}, err
	}
	return u, a.tally.drop(ctx, cs[1:], id)
}

// SignUp creates an account for client under SignUpLimits (Service.SignUp).
// A sign-up refused for its name or password does not count.
func (a *Access) SignUp(ctx context.Context, username, password string, client Client) (domain.User, error) {
	pass, err := a.signUps.Admit(ctx, client)
	if err != nil {
		return domain.User{}, err
	}
	u, err := a.users.SignUp(ctx, username, password)
	if err != nil {
		return domain.User{}, errors.Join(err, pass.Undo(context.WithoutCancel(ctx)))
	}
	return u, nil
}

// tally counts attempts in the store, exactly: each attempt is written under each of its keys
// before it is counted, and counts every attempt written before its read, its own included.
type tally struct {
	sessions ports.SessionStore
	clock    domain.Clock
	blocks   blocks
}

// take admits an attempt under counters cs in a window, or refuses it with a *domain.RetryError
// about what ("log-in attempts"): refused by this server's memory of a block at no cost, or
// written, counted over a limit and dropped again.
func (t *tally) take(ctx context.Context, cs []loginCounter, window time.Duration, what string) (uuid.UUID, error) {
	now := t.clock.Now()
	var wait time.Duration
	for _, c := range cs {
		wait = max(wait, t.blocks.left(c.key, now))
	}
	if wait > 0 {
		return uuid.Nil, tooMany(what, wait)
	}
	since := now.Add(-window)
	id := domain.NewTimeUUID(now.UnixMicro())
	for _, c := range cs {
		if err := t.sessions.AddLoginAttempt(ctx, c.key, id, window); err != nil {
			return uuid.Nil, err
		}
	}
	for _, c := range cs {
		times, err := t.sessions.LoginAttempts(ctx, c.key, since, c.limit+1)
		if err != nil {
			return uuid.Nil, err
		}
		if len(times) > c.limit {
			// The oldest attempt in the window leaves it first; then this one would pass.
			t.blocks.add(c.key, times[0].Add(window), now)
			wait = max(wait, times[0].Add(window).Sub(now))
		}
	}
	if wait > 0 {
		if err := t.drop(ctx, cs, id); err != nil {
			return uuid.Nil, err
		}
		return uuid.Nil, tooMany(what, wait)
	}
	return id, nil
}

// drop takes attempt id out of each count.
func (t *tally) drop(ctx context.Context, cs []loginCounter, id uuid.UUID) error {
	for _, c := range cs {
		if err := t.sessions.DropLoginAttempt(ctx, c.key, id); err != nil {
			return err
		}
	}
	return nil
}

// tooMany is the refusal of an attempt that must wait.
func tooMany(what string, wait time.Duration) error {
	secs := int(wait/time.Second) + 1
	return &domain.RetryError{After: time.Duration(secs) * time.Second,
		Message: "too many " + what + ": wait " + strconv.Itoa(secs) + " seconds and try again"}
}

// blocks are the keys this server found over their limit, and until when: an attempt under one
// is refused without asking the store. A block ends when the oldest attempt it counted leaves
// the window, whatever happens meanwhile (a right password is refused during it too), so
// another server's attempts cannot end it early. At most maxBlocks are kept.
type blocks struct {
	mu    sync.Mutex
	until map[string]time.Time
}

const maxBlocks = 100_000

func (b *blocks) left(key string, now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	until, ok := b.until[key]
	if !ok {
		return 0
	}
	if !now.Before(until) {
		delete(b.until, key)
		return 0
	}
	return until.Sub(now)
}

func (b *blocks) add(key string, until, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.until) >= maxBlocks {
		for k, u := range b.until {
			if !now.Before(u) {
				delete(b.until, k)
			}
		}
		if len(b.until) >= maxBlocks {
			return
		}
	}
	b.until[key] = until
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
