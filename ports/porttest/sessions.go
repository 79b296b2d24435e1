package porttest

import (
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports"
)

// SessionsFactory returns a session store for one subtest, beside stores of the same backend
// (for the log-in checks of social.Access). Subtests use keys and ids of their own.
type SessionsFactory func(t *testing.T) (ports.SessionStore, Stores)

// RunSessions runs the contract of ports.SessionStore, and of the log-in limit and log-out of
// social.Access over it.
func RunSessions(t *testing.T, newSessions SessionsFactory) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s ports.SessionStore, st Stores)
	}{
		{"AttemptsSinceOldestFirst", testAttemptsSince},
		{"AttemptsOfOneMicrosecondBothKept", testAttemptsSameMicrosecond},
		{"DropAndClearAttempts", testDropClearAttempts},
		{"ConcurrentAttemptsAllCounted", testConcurrentAttempts},
		{"EndedSessions", testEndedSessions},
		{"LoginLimitPerUserAndAddress", testLoginLimit},
		{"LoginLimitHoldsAcrossServersUnderARush", testLoginLimitRush},
		{"ManyLogInsAtOnceFromOneAddress", testLogInsBehindOneAddress},
		{"LoginLimitPerDevice", testLoginLimitPerDevice},
		{"SprayFromOneAddressOverServers", testSprayFromOneAddress},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, st := newSessions(t)
			tc.fn(t, s, st)
		})
	}
}

// attemptAt is an attempt id made at t.
func attemptAt(t time.Time) uuid.UUID { return domain.NewTimeUUID(t.UnixMicro()) }

func testAttemptsSince(t *testing.T, s ports.SessionStore, _ Stores) {
	c := ctx(t)
	key, other := "user:"+name("since"), "addr:"+name("since")
	t0 := time.Now().Truncate(time.Microsecond)
	// Written out of order: the store orders them.
	for _, d := range []time.Duration{2 * time.Second, 0, 3 * time.Second, time.Second} {
		if err := s.AddLoginAttempt(c, key, attemptAt(t0.Add(d)), time.Hour); err != nil {
			t.Fatalf("AddLoginAttempt: %v", err)
		}
	}
	if err := s.AddLoginAttempt(c, other, attemptAt(t0), time.Hour); err != nil {
		t.Fatal(err)
	}
	got, err := s.LoginAttempts(c, key, t0.Add(500*time.Millisecond), 10)
	if err != nil {
		t.Fatalf("LoginAttempts: %v", err)
	}
	want := []time.Time{t0.Add(time.Second), t0.Add(2 * time.Second), t0.Add(3 * time.Second)}
	if !sameTimes(got, want) {
		t.Fatalf("LoginAttempts(since t0+0.5s) = %v, want %v", got, want)
	}
	if got, _ := s.LoginAttempts(c, key, t0, 2); !sameTimes(got, []time.Time{t0, t0.Add(time.Second)}) {
		t.Fatalf("LoginAttempts(since t0, limit 2) = %v, want the two oldest", got)
	}
	if got, _ := s.LoginAttempts(c, key, t0, 10); len(got) != 4 {
		t.Fatalf("since is inclusive: got %d attempts from t0, want 4", len(got))
	}
	if got, _ := s.LoginAttempts(c, "user:"+name("nobody"), t0, 10); len(got) != 0 {
		t.Fatalf("a key never tried has attempts %v", got)
	}
}

func sameTimes(a, b []time.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func testAttemptsSameMicrosecond(t *testing.T, s ports.SessionStore, _ Stores) {
	c := ctx(t)
	key := "user:" + name("same")
	at := time.Now().Truncate(time.Microsecond)
	for range 3 {
		if err := s.AddLoginAttempt(c, key, attemptAt(at), time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := s.LoginAttempts(c, key, at, 10); len(got) != 3 {
		t.Fatalf("three attempts of one microsecond: the store kept %d", len(got))
	}
}

func testDropClearAttempts(t *testing.T, s ports.SessionStore, _ Stores) {
	c := ctx(t)
	key, other := "user:"+name("drop"), "addr:"+name("drop")
	t0 := time.Now().Truncate(time.Microsecond)
	ids := []uuid.UUID{attemptAt(t0), attemptAt(t0.Add(time.Second)), attemptAt(t0.Add(2 * time.Second))}
	for _, id := range ids {
		if err := s.AddLoginAttempt(c, key, id, time.Hour); err != nil {
			t.Fatal(err)
		}
		if err := s.AddLoginAttempt(c, other, id, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DropLoginAttempt(c, key, ids[1]); err != nil {
		t.Fatalf("DropLoginAttempt: %v", err)
	}
	if err := s.DropLoginAttempt(c, key, attemptAt(t0)); err != nil {
		t.Fatalf("dropping an attempt never made: %v", err)
	}
	if got, _ := s.LoginAttempts(c, key, t0, 10); !sameTimes(got, []time.Time{t0, t0.Add(2 * time.Second)}) {
		t.Fatalf("after dropping the middle attempt: %v", got)
	}
	if err := s.ClearLoginAttempts(c, key); err != nil {
		t.Fatalf("ClearLoginAttempts: %v", err)
	}
	if got, _ := s.LoginAttempts(c, key, t0, 10); len(got) != 0 {
		t.Fatalf("after clearing: %v", got)
	}
	if got, _ := s.LoginAttempts(c, other, t0, 10); len(got) != 3 {
		t.Fatalf("clearing one key took another's attempts: %d left of 3", len(got))
	}
	// A cleared key counts again from nothing.
	if err := s.AddLoginAttempt(c, key, attemptAt(t0.Add(3*time.Second)), time.Hour); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.LoginAttempts(c, key, t0, 10); len(got) != 1 {
		t.Fatalf("an attempt after clearing: %d counted, want 1", len(got))
	}
}

func testConcurrentAttempts(t *testing.T, s ports.SessionStore, _ Stores) {
	c := ctx(t)
	key := "addr:" + name("rush")
	const n = 40
	since := time.Now().Add(-time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() { errs <- s.AddLoginAttempt(c, key, attemptAt(time.Now()), time.Hour) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := s.LoginAttempts(c, key, since, 2*n); len(got) != n {
		t.Fatalf("%d concurrent attempts: %d counted", n, len(got))
	}
}

func testEndedSessions(t *testing.T, s ports.SessionStore, _ Stores) {
	c := ctx(t)
	id, other := uuid.NewString(), uuid.NewString()
	exp := time.Now().Add(time.Hour)
	if ended, err := s.SessionEnded(c, id, exp); err != nil || ended {
		t.Fatalf("a session never ended: ended=%v err=%v", ended, err)
	}
	if err := s.EndSession(c, id, exp); err != nil {
		t.Fatalf("EndSession: %v", err)
	}
	if err := s.EndSession(c, id, exp); err != nil {
		t.Fatalf("ending a session twice: %v", err)
	}
	if ended, err := s.SessionEnded(c, id, exp); err != nil || !ended {
		t.Fatalf("an ended session: ended=%v err=%v", ended, err)
	}
	if ended, _ := s.SessionEnded(c, other, exp); ended {
		t.Fatal("ending one session ended another")
	}
}

// access is a server's social.Access over the backend's stores.
func access(s ports.SessionStore, st Stores) (*social.Access, *social.Service) {
	svc := service(st, domain.SystemClock{})
	return social.NewAccess(svc, s, nil), svc
}

// from is a client at addr without a device; onDevice one with device d.
func from(addr string) social.Client        { return social.Client{Addr: addr} }
func onDevice(addr, d string) social.Client { return social.Client{Addr: addr, Device: d} }
func wantRefused(t *testing.T, what string, err error) {
	t.Helper()
	var retry *domain.RetryError
	if !errors.As(err, &retry) || !errors.Is(err, domain.ErrTooManyAttempts) {
		t.Fatalf("%s: %v, want a RetryError", what, err)
	}
	if retry.After <= 0 || retry.After > social.LoginWindow+time.Second {
		t.Fatalf("%s: retry after %v, want within the window of %v", what, retry.After, social.LoginWindow)
	}
}

func testLoginLimit(t *testing.T, s ports.SessionStore, st Stores) {
	c := ctx(t)
	a, svc := access(s, st)
	alice, bob := name("alice"), name("bob")
	for _, u := range []string{alice, bob} {
		if _, err := svc.SignUp(c, u, "right password"); err != nil {
			t.Fatal(err)
		}
	}
	// A right password clears the user's count.
	for range social.LoginLimit - 1 {
		if _, err := a.LogIn(c, alice, "wrong", from("192.0.2.1")); !errors.Is(err, domain.ErrUnauthenticated) {
			t.Fatalf("a wrong password: %v", err)
		}
	}
	if _, err := a.LogIn(c, alice, "right password", from("192.0.2.1")); err != nil {
		t.Fatalf("the right password under the limit: %v", err)
	}
	// Five wrong ones, and the sixth try is refused, even with the right password, from another
	// address as well.
	for range social.LoginLimit {
		if _, err := a.LogIn(c, alice, "wrong", from("192.0.2.2")); !errors.Is(err, domain.ErrUnauthenticated) {
			t.Fatalf("a wrong password: %v", err)
		}
	}
	for _, addr := range []string{"192.0.2.2", "198.51.100.7"} {
		_, err := a.LogIn(c, alice, "right password", from(addr))
		wantRefused(t, "the sixth attempt from "+addr, err)
	}
	// An address without a device may fail AddressLoginLimit times in all, over any names; then
	// it is refused for bob too, while another address is not.
	for range social.AddressLoginLimit - social.LoginLimit {
		if _, err := a.LogIn(c, name("ghost"), "wrong", from("192.0.2.2")); !errors.Is(err, domain.ErrUnauthenticated) {
			t.Fatalf("a wrong password: %v", err)
		}
	}
	_, err := a.LogIn(c, bob, "right password", from("192.0.2.2"))
	wantRefused(t, "another user from the address that failed", err)
	if _, err := a.LogIn(c, bob, "right password", from("198.51.100.7")); err != nil {
		t.Fatalf("another user from another address: %v", err)
	}
	// An IPv6 client is counted by its /64: its neighbour in the block is refused as well.
	for i := range social.AddressLoginLimit {
		if _, err := a.LogIn(c, name("ghost"), "wrong", from("2001:db8:1:2::"+strconv.Itoa(i+1))); !errors.Is(err, domain.ErrUnauthenticated) {
			t.Fatalf("a wrong password over IPv6: %v", err)
		}
	}
	_, err = a.LogIn(c, bob, "right password", from("2001:db8:1:2:ffff::1"))
	wantRefused(t, "the same /64 after its failures", err)
	// Refused attempts are not counted: they do not lengthen the wait.
	got, err := s.LoginAttempts(c, "user:"+alice, time.Now().Add(-social.LoginWindow), 100)
	if err != nil || len(got) != social.LoginLimit {
		t.Fatalf("alice's attempts in the window: %d (%v), want the %d failures only", len(got), err, social.LoginLimit)
	}
}

// A browser that logged in before is counted by its device: its failures lock out that browser,
// not its address (a classroom behind one address), and the devices of one address share a
// larger total.
func testLoginLimitPerDevice(t *testing.T, s ports.SessionStore, st Stores) {
	c := ctx(t)
	a, svc := access(s, st)
	typist, other := name("typist"), name("other")
	for _, u := range []string{typist, other} {
		if _, err := svc.SignUp(c, u, "right password"); err != nil {
			t.Fatal(err)
		}
	}
	const room = "192.0.2.50"
	dev, dev2 := name("dev"), name("dev")
	for i := range social.LoginLimit {
		// over several names, so the device's count, not a name's, is what stops it
		if _, err := a.LogIn(c, name("ghost"+strconv.Itoa(i)), "wrong", onDevice(room, dev)); !errors.Is(err, domain.ErrUnauthenticated) {
			t.Fatalf("a typo on a device: %v", err)
		}
	}
	_, err := a.LogIn(c, typist, "right password", onDevice(room, dev))
	wantRefused(t, "the device after its failures", err)
	// The room is not locked out: another device, and a browser without one, log in.
	if _, err := a.LogIn(c, other, "right password", onDevice(room, dev2)); err != nil {
		t.Fatalf("another device behind the same address: %v", err)
	}
	if _, err := a.LogIn(c, typist, "right password", from(room)); err != nil {
		t.Fatalf("a browser without a device behind the same address: %v", err)
	}
}

// Spraying from one address: many names at once, wrong passwords, over three servers. At most
// the address's limit reach a password check, with devices or without.
func testSprayFromOneAddress(t *testing.T, s ports.SessionStore, st Stores) {
	c := ctx(t)
	servers := make([]*social.Access, 3)
	for i := range servers {
		servers[i], _ = access(s, st)
	}
	for _, tc := range []struct {
		what   string
		client func(i int) social.Client
		limit  int
	}{
		{"without devices", func(int) social.Client { return from("203.0.113.200") }, social.AddressLoginLimit},
		{"each with a device of its own", func(i int) social.Client {
			return onDevice("203.0.113.201", "spray-"+strconv.Itoa(i))
		}, social.DevicesPerAddressLimit},
	} {
		n := 3 * tc.limit
		checked, refused := guessAtOnce(t, n, func(i int) error {
			_, err := servers[i%len(servers)].LogIn(c, name("sprayed"), "wrong", tc.client(i))
			return err
		})
		if checked > tc.limit || checked+refused != n {
			t.Fatalf("%s: of %d guesses at once from one address over %d servers, %d were checked, %d refused: want at most %d checked",
				tc.what, n, len(servers), checked, refused, tc.limit)
		}
		t.Logf("%s: %d guesses at once over %d servers: %d checked, %d refused", tc.what, n, len(servers), checked, refused)
	}
}

// Three servers share the store; forty wrong guesses at one password arrive at once, spread over
// them, from forty addresses: at most LoginLimit reach the password check.
func testLoginLimitRush(t *testing.T, s ports.SessionStore, st Stores) {
	c := ctx(t)
	servers := make([]*social.Access, 3)
	for i := range servers {
		servers[i], _ = access(s, st)
	}
	_, svc := access(s, st)
	victim := name("victim")
	if _, err := svc.SignUp(c, victim, "right password"); err != nil {
		t.Fatal(err)
	}
	const n = 40
	checked, refused := guessAtOnce(t, n, func(i int) error {
		_, err := servers[i%len(servers)].LogIn(c, victim, "wrong", from("203.0.113."+strconv.Itoa(i+1)))
		return err
	})
	if checked > social.LoginLimit || checked+refused != n {
		t.Fatalf("of %d guesses at once over %d servers, %d had their password checked, %d refused: want at most %d checked",
			n, len(servers), checked, refused, social.LoginLimit)
	}
	// The refused guesses were dropped: only the checked ones count against the victim.
	if got, err := s.LoginAttempts(c, "user:"+victim, time.Now().Add(-social.LoginWindow), 2*n); err != nil || len(got) != checked {
		t.Fatalf("after the rush the victim has %d attempts in the window (%v), want the %d checked", len(got), err, checked)
	}
	t.Logf("%d guesses at once over %d servers: %d checked, %d refused", n, len(servers), checked, refused)
}

// Users behind one address (an office, a classroom) log in at the same moment: none is refused,
// since an address counts what fails: as many as its limit without devices, and any number with
// the devices their browsers were given before.
func testLogInsBehindOneAddress(t *testing.T, s ports.SessionStore, st Stores) {
	c := ctx(t)
	a, svc := access(s, st)
	for _, tc := range []struct {
		what   string
		n      int
		client func(i int) social.Client
	}{
		{"without devices", social.AddressLoginLimit, func(int) social.Client { return from("192.0.2.99") }},
		{"with devices", 4 * social.AddressLoginLimit, func(i int) social.Client { return onDevice("192.0.2.98", "office-"+strconv.Itoa(i)) }},
	} {
		names := make([]string, tc.n)
		for i := range names {
			names[i] = name("office")
			if _, err := svc.SignUp(c, names[i], "right password"); err != nil {
				t.Fatal(err)
			}
		}
		errs := make([]error, tc.n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range tc.n {
			wg.Go(func() {
				<-start
				_, errs[i] = a.LogIn(c, names[i], "right password", tc.client(i))
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("%s: log-in %d of %d at once from one address: %v", tc.what, i, tc.n, err)
			}
		}
	}
}

// guessAtOnce makes n wrong guesses at once (guess(i) the i-th), and counts those whose password
// was checked (ErrUnauthenticated) and those refused for a limit; any other answer fails the test.
func guessAtOnce(t *testing.T, n int, guess func(i int) error) (checked, refused int) {
	t.Helper()
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = guess(i)
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		switch {
		case errors.Is(err, domain.ErrUnauthenticated):
			checked++
		case errors.Is(err, domain.ErrTooManyAttempts):
			refused++
		default:
			t.Fatalf("a guess: %v", err)
		}
	}
	return checked, refused
}
