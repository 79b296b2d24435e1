package web

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// badEnv is a server where alice and bob exist, alice follows bob, and each has posted once.
type badEnv struct {
	*testEnv
	tokens map[string]string
}

func newBadEnv(t *testing.T) badEnv {
	e := newEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	if rec := e.do(http.MethodPut, "/api/v1/users/alice/friends/bob", "", alice); rec.Code != http.StatusNoContent {
		t.Fatalf("follow: %d %s", rec.Code, rec.Body)
	}
	e.post(bob, "hello from bob")
	e.post(alice, "hello from alice")

	now := e.clock.Now()
	expired := Claims{Username: "alice", IssuedAt: now.Add(-2 * time.Hour), ExpiresAt: now.Add(-time.Hour)}
	_, _ = rand.Read(expired.ID[:])
	revoked := e.logIn("alice")
	rc, err := e.srv.Tokens.Parse(revoked)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.srv.EndSession(context.Background(), SessionID(rc.ID), rc.ExpiresAt); err != nil {
		t.Fatal(err)
	}
	other, err := NewTokens([]byte("a different secret of enough length"), time.Hour, e.clock)
	if err != nil {
		t.Fatal(err)
	}
	forged, _, _ := other.Issue("alice")
	return badEnv{testEnv: e, tokens: map[string]string{
		"alice":    alice,
		"bob":      bob,
		"expired":  e.srv.Tokens.encode(expired),
		"revoked":  revoked,
		"forged":   forged,
		"tampered": tamper(alice),
		"garbage":  "not-a-token",
	}}
}

// candidateNames are every username a bad sign-up below tries to create.
var candidateNames = []string{"carol", "jeric evans", strings.Repeat("a", 31), "jéric", "用户", "!PUBLIC!", "alice\n", "", "5"}

// snapshot is everything a bad request could have changed.
func (e badEnv) snapshot(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, path := range []string{
		"/api/v1/public?limit=200",
		"/api/v1/users/alice/tweets?limit=200",
		"/api/v1/users/bob/tweets?limit=200",
		"/api/v1/users/alice/friends?limit=200",
		"/api/v1/users/alice/followers?limit=200",
		"/api/v1/users/bob/friends?limit=200",
		"/api/v1/users/bob/followers?limit=200",
	} {
		b.WriteString(e.rawBody(path, ""))
	}
	ctx := context.Background()
	for _, u := range []string{"alice", "bob"} {
		p, err := e.svc.Timeline(ctx, u, "", 200)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(string(appendTweetPage(nil, p, nil)))
	}
	for _, n := range candidateNames {
		if _, err := e.store.GetUser(ctx, n); err == nil {
			b.WriteString("user " + n + " exists\n")
		}
	}
	return b.String()
}

func cursor(version byte, micros int64) string {
	var b [9]byte
	b[0] = version
	binary.BigEndian.PutUint64(b[1:], uint64(micros))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// TestBadInput sends each bad request and checks the documented 4xx, a JSON error body and that
// nothing changed.
func TestBadInput(t *testing.T) {
	t.Parallel()
	const twoMB = 2 << 20
	big := strings.Repeat("x", twoMB)
	type tc struct {
		name, method, path, body string
		as                       string
		chunked                  bool
		status                   int
		slug                     string
	}
	signUp := func(name, body string, status int) tc {
		return tc{name: "sign up " + name, method: "POST", path: "/api/v1/users", body: body, status: status, slug: slugFor(status)}
	}
	post := func(name, body string, status int) tc {
		return tc{name: "post " + name, method: "POST", path: "/api/v1/tweets", body: body, as: "alice", status: status, slug: slugFor(status)}
	}
	tests := []tc{
		signUp("malformed JSON", `{"username":"carol","password":`, 400),
		signUp("form encoded", `username=carol&password=12345678`, 400),
		signUp("empty body", ``, 400),
		signUp("null", `null`, 400),
		signUp("array", `[{"username":"carol","password":"12345678"}]`, 400),
		signUp("string", `"carol"`, 400),
		signUp("missing password", `{"username":"carol"}`, 400),
		signUp("missing username", `{"password":"12345678"}`, 400),
		signUp("null username", `{"username":null,"password":"12345678"}`, 400),
		signUp("number username", `{"username":5,"password":"12345678"}`, 400),
		signUp("array username", `{"username":["carol"],"password":"12345678"}`, 400),
		signUp("number password", `{"username":"carol","password":12345678}`, 400),
		signUp("object password", `{"username":"carol","password":{"a":1}}`, 400),
		signUp("2 MB body", `{"username":"carol","password":"`+big+`"}`, 413),
		{name: "sign up 2 MB chunked body", method: "POST", path: "/api/v1/users", body: `{"username":"carol","password":"` + big + `"}`, chunked: true, status: 413, slug: SlugBodyTooLarge},
		signUp("name with space", `{"username":"jeric evans","password":"12345678"}`, 400),
		signUp("name of 31", `{"username":"`+strings.Repeat("a", 31)+`","password":"12345678"}`, 400),
		signUp("accented name", `{"username":"jéric","password":"12345678"}`, 400),
		signUp("CJK name", `{"username":"用户","password":"12345678"}`, 400),
		signUp("public row key", `{"username":"!PUBLIC!","password":"12345678"}`, 400),
		signUp("newline in name", `{"username":"alice\n","password":"12345678"}`, 400),
		signUp("empty name", `{"username":"","password":"12345678"}`, 400),
		signUp("password of 73", `{"username":"carol","password":"`+strings.Repeat("p", 73)+`"}`, 400),
		signUp("taken", `{"username":"alice","password":"12345678"}`, 409),

		post("empty", `{"body":""}`, 400),
		post("white space", `{"body":" \n\t "}`, 400),
		post("141 characters", `{"body":"`+strings.Repeat("a", 141)+`"}`, 400),
		post("141 emoji", `{"body":"`+strings.Repeat("😀", 141)+`"}`, 400),
		post("NUL", `{"body":"a\u0000b"}`, 400),
		post("right-to-left override", `{"body":"txt.\u202Eexe"}`, 400),
		post("zero width space", `{"body":"spo\u200Bof"}`, 400),
		post("malformed JSON", `{"body":"hi"`, 400),
		post("missing body", `{"text":"hi"}`, 400),
		post("number body", `{"body":5}`, 400),
		post("array body", `{"body":["hi"]}`, 400),
		post("2 MB", `{"body":"`+big+`"}`, 413),
		{name: "post 2 MB chunked", method: "POST", path: "/api/v1/tweets", body: `{"body":"` + big + `"}`, as: "alice", chunked: true, status: 413, slug: SlugBodyTooLarge},
	}
	for _, who := range []string{"", "expired", "revoked", "forged", "tampered", "garbage"} {
		tests = append(tests,
			tc{name: "post with token " + who, method: "POST", path: "/api/v1/tweets", body: `{"body":"hi"}`, as: who, status: 401, slug: SlugUnauthenticated},
			tc{name: "timeline with token " + who, method: "GET", path: "/api/v1/timeline", as: who, status: 401, slug: SlugUnauthenticated},
			tc{name: "follow with token " + who, method: "PUT", path: "/api/v1/users/alice/friends/bob", as: who, status: 401, slug: SlugUnauthenticated},
			tc{name: "unfollow with token " + who, method: "DELETE", path: "/api/v1/users/alice/friends/bob", as: who, status: 401, slug: SlugUnauthenticated},
		)
	}
	lines := []struct{ path, as string }{
		{"/api/v1/public", ""},
		{"/api/v1/users/alice/tweets", ""},
		{"/api/v1/timeline", "alice"},
		{"/api/v1/users/alice/friends", ""},
		{"/api/v1/users/alice/followers", ""},
	}
	for _, l := range lines {
		for _, limit := range []string{"0", "-1", "201", "abc", "", "1.5", "99999999999999999999", "0x10"} {
			tests = append(tests, tc{name: "limit " + limit + " " + l.path, method: "GET", path: l.path + "?limit=" + limit, as: l.as, status: 400, slug: SlugInvalid})
		}
		// Follow cursors wrap whatever the adapter uses, so only undecodable ones are refused
		// by every backend; the line cursors below are checked more strictly.
		for _, start := range []string{"!!!", "%20", "A", "a.b"} {
			tests = append(tests, tc{name: "cursor " + start + " " + l.path, method: "GET", path: l.path + "?start=" + start, as: l.as, status: 400, slug: SlugInvalid})
		}
	}
	for _, l := range lines[:3] {
		for _, start := range []string{cursor(2, 1), cursor(1, 0), cursor(1, -5), cursor(1, 1) + "A", "eyJ0aW1lIjoxfQ", "AAAA"} {
			tests = append(tests, tc{name: "cursor " + start + " " + l.path, method: "GET", path: l.path + "?start=" + start, as: l.as, status: 400, slug: SlugInvalid})
		}
	}
	v1 := "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
	for _, id := range []string{"abc", uuid.NewString(), strings.ReplaceAll(v1, "-", ""), "{" + v1 + "}", "urn:uuid:" + v1, v1 + "0", strings.ToUpper(v1)[:35], "00000000-0000-0000-0000-000000000000"} {
		tests = append(tests, tc{name: "tweet id " + id, method: "GET", path: "/api/v1/tweets/" + id, status: 400, slug: SlugInvalid})
	}
	tests = append(tests,
		tc{name: "follow as another user", method: "PUT", path: "/api/v1/users/bob/friends/alice", as: "alice", status: 403, slug: SlugForbidden},
		tc{name: "unfollow as another user", method: "DELETE", path: "/api/v1/users/alice/friends/bob", as: "bob", status: 403, slug: SlugForbidden},
		tc{name: "follow for a public row key", method: "PUT", path: "/api/v1/users/!PUBLIC!/friends/bob", as: "alice", status: 403, slug: SlugForbidden},
		tc{name: "follow yourself", method: "PUT", path: "/api/v1/users/alice/friends/alice", as: "alice", status: 400, slug: SlugInvalid},
		tc{name: "follow unknown", method: "PUT", path: "/api/v1/users/alice/friends/nobody", as: "alice", status: 404, slug: SlugNotFound},
		tc{name: "follow invalid name", method: "PUT", path: "/api/v1/users/alice/friends/j%C3%A9ric", as: "alice", status: 400, slug: SlugInvalid},
		tc{name: "users with invalid name", method: "GET", path: "/api/v1/users?names=alice,!PUBLIC!", status: 400, slug: SlugInvalid},
		tc{name: "user with invalid name", method: "GET", path: "/api/v1/users/" + strings.Repeat("a", 31), status: 400, slug: SlugInvalid},
		tc{name: "userline of unknown", method: "GET", path: "/api/v1/users/nobody/tweets", status: 404, slug: SlugNotFound},
	)

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newBadEnv(t)
			before := e.snapshot(t)
			var body *strings.Reader
			if tt.body != "" {
				body = strings.NewReader(tt.body)
			}
			var req *http.Request
			if body != nil {
				req = httptest.NewRequest(tt.method, tt.path, body)
			} else {
				req = httptest.NewRequest(tt.method, tt.path, nil)
			}
			if tt.chunked {
				req.ContentLength = -1
			}
			req.Header.Set("Content-Type", "application/json")
			if tok := e.tokens[tt.as]; tok != "" {
				req.Header.Set("Authorization", "Bearer "+tok)
			}
			rec := serve(e.testEnv, req)
			wantError(t, rec, tt.status, tt.slug)
			if after := e.snapshot(t); after != before {
				t.Fatalf("state changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

func slugFor(status int) string {
	return MapError(errorForStatus(status)).Slug
}

// TestGoodInputEdges are the valid neighbours of the bad input above.
func TestGoodInputEdges(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, body, want string }{
		{"140 emoji", strings.Repeat("😀", 140), strings.Repeat("😀", 140)},
		{"140 characters", strings.Repeat("a", 140), strings.Repeat("a", 140)},
		{"140 after trimming", "  " + strings.Repeat("é", 140) + "\n", strings.Repeat("é", 140)},
		{"one character", "x", "x"},
		{"escapes", "line\nbreak \"quoted\" <b>&amp; \u2028 \ttab", "line\nbreak \"quoted\" <b>&amp; \u2028 \ttab"},
		{"emoji joined and bidirectional marks", "👨\u200D👩\u200D👧 \u200Fעברית\u200E", "👨\u200D👩\u200D👧 \u200Fעברית\u200E"},
	}
	e := newEnv(t)
	tok := e.user("alice")
	for _, tt := range tests {
		tw := e.post(tok, tt.body)
		if tw.Body != tt.want {
			t.Errorf("%s: body %q, want %q", tt.name, tw.Body, tt.want)
		}
	}
	for _, name := range []string{"a", strings.Repeat("Z", 30), "Under_score_9"} {
		e.signUp(name)
	}
	if p := e.page("/api/v1/public?limit=1", ""); len(p.Tweets) != 1 || p.Next == nil {
		t.Errorf("limit=1: %+v", p)
	}
}
