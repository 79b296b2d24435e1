package site

import (
	"net/http"
	"sync"
	"time"

	"github.com/gin-contrib/sessions"
	gsessions "github.com/gorilla/sessions"
)

// sessionStore is gorilla's cookie store, remembering for a short while what each cookie it
// read held. A signed-in reader's browser sends the same cookie with every page, and decoding
// it (an HMAC, AES, and a gob decoder compiled afresh for each cookie) was a third of a home
// page's time. A cookie is remembered only after the codec verified it, for at most
// sessionMemory, and each request gets a copy of its values: what one request changes, no other
// sees. Writing a cookie is left to the codec, as before.
type sessionStore struct {
	*gsessions.CookieStore
	mu    sync.Mutex
	known map[string]knownSession
}

type knownSession struct {
	values map[any]any
	at     time.Time
}

const (
	// sessionMemory is how long a decoded cookie is trusted without decoding it again.
	sessionMemory = time.Minute
	// maxKnownSessions bounds the cookies remembered.
	maxKnownSessions = 10_000
)

func newCookieStore(keyPairs ...[]byte) *sessionStore {
	return &sessionStore{CookieStore: gsessions.NewCookieStore(keyPairs...), known: map[string]knownSession{}}
}

// Options sets the options of the cookies written (gin-contrib's sessions.Store).
func (s *sessionStore) Options(o sessions.Options) { s.CookieStore.Options = o.ToGorillaOptions() }

// Get returns the request's session, decoded once per request (gorilla's registry).
func (s *sessionStore) Get(r *http.Request, name string) (*gsessions.Session, error) {
	return gsessions.GetRegistry(r).Get(s, name)
}

// New reads the session of the request's cookie: from memory when the same cookie was verified
// less than sessionMemory ago, else through the codec.
func (s *sessionStore) New(r *http.Request, name string) (*gsessions.Session, error) {
	c, err := r.Cookie(name)
	if err == nil {
		if values, ok := s.lookup(c.Value); ok {
			session := gsessions.NewSession(s, name)
			opts := *s.CookieStore.Options
			session.Options = &opts
			session.Values = values
			return session, nil
		}
	}
	session, err := s.CookieStore.New(r, name)
	if err == nil && !session.IsNew {
		s.remember(c.Value, session.Values)
	}
	return session, err
}

func (s *sessionStore) lookup(cookie string) (map[any]any, bool) {
	s.mu.Lock()
	k, ok := s.known[cookie]
	s.mu.Unlock()
	if !ok || time.Since(k.at) > sessionMemory {
		return nil, false
	}
	return copyValues(k.values), true
}

func (s *sessionStore) remember(cookie string, values map[any]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.known) >= maxKnownSessions {
		for c := range s.known { // an arbitrary one: map iteration starts at a random place
			delete(s.known, c)
			break
		}
	}
	s.known[cookie] = knownSession{values: copyValues(values), at: time.Now()}
}

// copyValues copies a session's values, and the flash lists among them (AddFlash appends to a
// list in place).
func copyValues(v map[any]any) map[any]any {
	out := make(map[any]any, len(v))
	for k, x := range v {
		if list, ok := x.([]any); ok {
			x = append([]any(nil), list...)
		}
		out[k] = x
	}
	return out
}
