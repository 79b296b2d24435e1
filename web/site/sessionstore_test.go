package site

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A cookie the store read is remembered: the next request with it gets the same values without
// decoding, each request a copy of its own; a cookie it cannot verify is never remembered.
func TestSessionStoreRemembersVerifiedCookies(t *testing.T) {
	store := newCookieStore([]byte(strings.Repeat("h", 64)), []byte(strings.Repeat("b", 32)))
	// A session written by the codec, as a response sets it.
	first := httptest.NewRequest(http.MethodGet, "/", nil)
	s, err := store.Get(first, SessionCookie)
	if err != nil || !s.IsNew {
		t.Fatalf("a new session: %v, new %v", err, s.IsNew)
	}
	s.Values[keyUser] = "rita"
	s.AddFlash("welcome", FlashOK)
	rec := httptest.NewRecorder()
	if err := store.Save(first, rec, s); err != nil {
		t.Fatal(err)
	}
	cookie := rec.Result().Cookies()[0]
	read := func() map[any]any {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.AddCookie(cookie)
		s, err := store.Get(r, SessionCookie)
		if err != nil || s.IsNew {
			t.Fatalf("reading the cookie back: %v, new %v", err, s.IsNew)
		}
		return s.Values
	}
	v := read()
	if v[keyUser] != "rita" || len(store.known) != 1 {
		t.Fatalf("first read: %v, %d remembered", v, len(store.known))
	}
	// What one request does to its session, the next does not see.
	v[keyUser] = "mallory"
	v[FlashOK] = append(v[FlashOK].([]any), "more")
	if again := read(); again[keyUser] != "rita" || len(again[FlashOK].([]any)) != 1 {
		t.Fatalf("a request's change leaked into the next: %v", again)
	}
	// A forged cookie is refused and not remembered.
	forged := httptest.NewRequest(http.MethodGet, "/", nil)
	forged.AddCookie(&http.Cookie{Name: SessionCookie, Value: cookie.Value[:len(cookie.Value)-4] + "AAAA"})
	if s, err := store.Get(forged, SessionCookie); err == nil && !s.IsNew {
		t.Fatal("a forged cookie was read")
	}
	if len(store.known) != 1 {
		t.Fatalf("%d cookies remembered, want 1", len(store.known))
	}
}
