package web

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports"
)

// countingSessions counts the SessionEnded calls that reach the store.
type countingSessions struct {
	ports.SessionStore
	asked atomic.Int64
}

func (c *countingSessions) SessionEnded(ctx context.Context, id string, expires time.Time) (bool, error) {
	c.asked.Add(1)
	return c.SessionStore.SessionEnded(ctx, id, expires)
}

// serversOnOneStore starts n servers sharing one store, one session store and one clock, as n
// processes on one cluster do, each believing a session open for recheck.
func serversOnOneStore(t *testing.T, n int, recheck time.Duration) ([]*testEnv, *countingSessions) {
	t.Helper()
	store := memory.New()
	clock := newFakeClock()
	svc := social.New(store, store, store, clock, domain.NewPasswordHasher(bcrypt.MinCost))
	sessions := &countingSessions{SessionStore: memory.NewSessions()}
	envs := make([]*testEnv, n)
	for i := range envs {
		logs := &syncBuffer{}
		srv, err := NewServer(Config{TokenSecret: testSecret, SessionRecheck: recheck},
			Deps{Social: svc, Access: social.NewAccess(svc, sessions, clock), Logger: slog.New(slog.NewJSONHandler(logs, nil)), Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		envs[i] = &testEnv{t: t, srv: srv, store: store, svc: svc, clock: clock, logs: logs}
	}
	return envs, sessions
}

func timelineStatus(e *testEnv, token string) int {
	return e.do(http.MethodGet, "/api/v1/timeline", "", token).Code
}

// A token logged out on one server is refused there at once, and on the other within the
// recheck: the ended session lives in the store they share, not in the process that took the
// logout. The user's other tokens are not touched.
func TestLogoutEndsTheTokenOnEveryServer(t *testing.T) {
	t.Parallel()
	envs, _ := serversOnOneStore(t, 2, time.Second)
	a, b := envs[0], envs[1]
	token := a.user("alice")
	other := b.logIn("alice")
	for _, e := range envs {
		if code := timelineStatus(e, token); code != http.StatusOK {
			t.Fatalf("before logout: %d", code)
		}
	}
	if rec := a.do(http.MethodDelete, "/api/v1/sessions/current", "", token); rec.Code != http.StatusNoContent {
		t.Fatalf("logout: %d %s", rec.Code, rec.Body)
	}
	if code := timelineStatus(a, token); code != http.StatusUnauthorized {
		t.Fatalf("on the server that logged out: %d, want 401 at once", code)
	}
	// b believed the session open a moment ago; it asks again once the recheck has passed.
	a.clock.Advance(time.Second)
	rec := b.do(http.MethodGet, "/api/v1/timeline", "", token)
	if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), "revoked") {
		t.Fatalf("on the other server after the recheck: %d %s, want 401", rec.Code, rec.Body)
	}
	for _, e := range envs {
		if code := timelineStatus(e, other); code != http.StatusOK {
			t.Fatalf("alice's other token after the logout: %d", code)
		}
	}
}

// A server asks the store whether a session was ended at most once per recheck, whatever the
// number of requests; a session it saw begin, not at all until then.
func TestSessionCheckAsksOncePerRecheck(t *testing.T) {
	t.Parallel()
	envs, sessions := serversOnOneStore(t, 2, time.Second)
	a, b := envs[0], envs[1]
	token := a.user("alice")
	for range 20 {
		if code := timelineStatus(a, token); code != http.StatusOK {
			t.Fatal(code)
		}
	}
	if n := sessions.asked.Load(); n != 0 {
		t.Fatalf("the server that issued the token asked the store %d times within the recheck", n)
	}
	for range 20 {
		timelineStatus(b, token)
	}
	if n := sessions.asked.Load(); n != 1 {
		t.Fatalf("another server asked the store %d times for 20 requests within the recheck, want 1", n)
	}
	a.clock.Advance(time.Second)
	for range 20 {
		timelineStatus(b, token)
	}
	if n := sessions.asked.Load(); n != 2 {
		t.Fatalf("after the recheck: %d asks, want 2", n)
	}
}

// The API's log-in is limited as the page's is: five wrong passwords for one user, and the next
// try gets 429 with a Retry-After, even with the right password; the limit is counted in the
// store, so a second server refuses too.
func TestAPILogInLimit(t *testing.T) {
	t.Parallel()
	envs, _ := serversOnOneStore(t, 2, time.Second)
	a, b := envs[0], envs[1]
	a.signUp("alice")
	wrong := `{"username":"alice","password":"wrong password"}`
	for i := range social.LoginLimit {
		if rec := envs[i%2].do(http.MethodPost, "/api/v1/sessions", wrong, ""); rec.Code != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: %d %s", i, rec.Code, rec.Body)
		}
	}
	right := `{"username":"alice","password":"` + testPassword + `"}`
	for _, e := range []*testEnv{a, b} {
		rec := e.do(http.MethodPost, "/api/v1/sessions", right, "")
		if rec.Code != http.StatusTooManyRequests || !strings.Contains(rec.Body.String(), `"too_many_requests"`) {
			t.Fatalf("after %d failures: %d %s, want 429", social.LoginLimit, rec.Code, rec.Body)
		}
		secs, err := strconv.Atoi(rec.Header().Get("Retry-After"))
		if err != nil || secs < 1 || secs > int(social.LoginWindow/time.Second)+1 {
			t.Fatalf("Retry-After %q", rec.Header().Get("Retry-After"))
		}
	}
	a.clock.Advance(social.LoginWindow + time.Second)
	if rec := b.do(http.MethodPost, "/api/v1/sessions", right, ""); rec.Code != http.StatusOK {
		t.Fatalf("after the window: %d %s", rec.Code, rec.Body)
	}
}
