package web

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
)

const testPassword = "correct horse"

var testSecret = []byte("0123456789abcdef0123456789abcdef")

// fakeClock is a settable clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2010, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// testEnv is one server over a fresh memory store.
type testEnv struct {
	t     testing.TB
	srv   *Server
	store *memory.Store
	svc   *social.Service
	clock *fakeClock
	logs  *syncBuffer
	// sessions is the store of log-in attempts and ended sessions.
	sessions *memory.Sessions
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newEnv is a server on the memory store configured as serve configures it for that store
// (the public line's first pages cached).
func newEnv(t testing.TB) *testEnv {
	return newEnvWith(t, Config{TokenSecret: testSecret, CachePublicPages: true}, nil)
}

func newEnvWith(t testing.TB, cfg Config, edit func(*Deps)) *testEnv {
	t.Helper()
	store := memory.New()
	clock := newFakeClock()
	svc := social.New(store, store, store, clock, domain.NewPasswordHasher(bcrypt.MinCost))
	logs := &syncBuffer{}
	sessions := memory.NewSessions()
	deps := Deps{Social: svc, Access: social.NewAccess(svc, sessions, clock), Logger: slog.New(slog.NewJSONHandler(logs, nil)), Clock: clock}
	if edit != nil {
		edit(&deps)
	}
	srv, err := NewServer(cfg, deps)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	return &testEnv{t: t, srv: srv, store: store, svc: svc, clock: clock, logs: logs, sessions: sessions}
}

// do sends one request through the engine. A non-empty token is sent as a bearer token.
func (e *testEnv) do(method, target, body, token string) *httptest.ResponseRecorder {
	e.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	e.srv.Engine.ServeHTTP(rec, req)
	return rec
}

func (e *testEnv) signUp(name string) {
	e.t.Helper()
	rec := e.do(http.MethodPost, "/api/v1/users", `{"username":"`+name+`","password":"`+testPassword+`"}`, "")
	if rec.Code != http.StatusCreated {
		e.t.Fatalf("sign up %s: %d %s", name, rec.Code, rec.Body)
	}
}

func (e *testEnv) logIn(name string) string {
	e.t.Helper()
	rec := e.do(http.MethodPost, "/api/v1/sessions", `{"username":"`+name+`","password":"`+testPassword+`"}`, "")
	if rec.Code != http.StatusOK {
		e.t.Fatalf("log in %s: %d %s", name, rec.Code, rec.Body)
	}
	var s struct{ Token, Username string }
	decode(e.t, rec, &s)
	if s.Token == "" || s.Username != name {
		e.t.Fatalf("log in %s: %s", name, rec.Body)
	}
	return s.Token
}

// user signs name up and logs in.
func (e *testEnv) user(name string) string {
	e.t.Helper()
	e.signUp(name)
	return e.logIn(name)
}

func (e *testEnv) post(token, body string) tweetJSON {
	e.t.Helper()
	b, _ := json.Marshal(map[string]string{"body": body})
	rec := e.do(http.MethodPost, "/api/v1/tweets", string(b), token)
	if rec.Code != http.StatusCreated {
		e.t.Fatalf("post %q: %d %s", body, rec.Code, rec.Body)
	}
	var tw tweetJSON
	decode(e.t, rec, &tw)
	return tw
}

type pageJSON struct {
	Tweets []tweetJSON `json:"tweets"`
	Next   *string     `json:"next"`
}

func (e *testEnv) page(target, token string) pageJSON {
	e.t.Helper()
	rec := e.do(http.MethodGet, target, "", token)
	if rec.Code != http.StatusOK {
		e.t.Fatalf("GET %s: %d %s", target, rec.Code, rec.Body)
	}
	var p pageJSON
	decode(e.t, rec, &p)
	return p
}

// rawBody returns the body of a successful GET, for before/after comparisons.
func (e *testEnv) rawBody(target, token string) string {
	e.t.Helper()
	rec := e.do(http.MethodGet, target, "", token)
	if rec.Code != http.StatusOK {
		e.t.Fatalf("GET %s: %d %s", target, rec.Code, rec.Body)
	}
	return rec.Body.String()
}

func decode(t testing.TB, rec *httptest.ResponseRecorder, v any) {
	t.Helper()
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q, body %s", ct, rec.Body)
	}
	dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		// Unknown fields are allowed in the shape; retry leniently for the value.
		if err2 := json.Unmarshal(rec.Body.Bytes(), v); err2 != nil {
			t.Fatalf("decode %s: %v", rec.Body, err2)
		}
	}
}

// wantError checks a JSON error response.
func wantError(t testing.TB, rec *httptest.ResponseRecorder, status int, slug string) ErrorBody {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status %d, want %d; body %s", rec.Code, status, rec.Body)
	}
	var body ErrorBody
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q, body %s", ct, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("error body %q: %v", rec.Body, err)
	}
	if body.Error != slug || body.Message == "" {
		t.Fatalf("error body %+v, want slug %q and a message", body, slug)
	}
	return body
}

func httptestRequest(method, target string) *http.Request {
	return httptest.NewRequest(method, target, nil)
}

func serve(e *testEnv, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	e.srv.Engine.ServeHTTP(rec, req)
	return rec
}
