package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports"
)

// TestWalkthrough mirrors the seed articles: jericevans and ericflo sign up, each follows the
// other, and each thanks the other in a tweet that reaches the follower's timeline.
func TestWalkthrough(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	jeric := e.user("jericevans")
	eric := e.user("ericflo")

	if rec := e.do(http.MethodPut, "/api/v1/users/ericflo/friends/jericevans", "", eric); rec.Code != http.StatusNoContent {
		t.Fatalf("ericflo follows jericevans: %d %s", rec.Code, rec.Body)
	}
	thanks := e.post(jeric, "@ericflo thanks for Twissandra, it helps!")
	if thanks.Username != "jericevans" || thanks.Body != "@ericflo thanks for Twissandra, it helps!" {
		t.Fatalf("posted %+v", thanks)
	}
	if _, err := time.Parse(time.RFC3339Nano, thanks.CreatedAt); err != nil || len(thanks.CreatedAt) != len("2010-03-01T12:00:00.000000Z") || !strings.HasSuffix(thanks.CreatedAt, "Z") {
		t.Fatalf("created_at %q is not RFC 3339 UTC with microseconds", thanks.CreatedAt)
	}
	for _, target := range []struct{ path, token string }{
		{"/api/v1/timeline", eric},
		{"/api/v1/timeline", jeric},
		{"/api/v1/users/jericevans/tweets", ""},
		{"/api/v1/public", ""},
	} {
		p := e.page(target.path, target.token)
		if len(p.Tweets) != 1 || p.Tweets[0] != thanks || p.Next != nil {
			t.Errorf("%s: %+v, want just the thanks", target.path, p)
		}
	}
	if p := e.page("/api/v1/users/ericflo/tweets", ""); len(p.Tweets) != 0 {
		t.Errorf("ericflo's userline: %+v", p)
	}

	// And the other way round (seed 000): jericevans follows ericflo, ericflo thanks him.
	if rec := e.do(http.MethodPut, "/api/v1/users/jericevans/friends/ericflo", "", jeric); rec.Code != http.StatusNoContent {
		t.Fatalf("jericevans follows ericflo: %d %s", rec.Code, rec.Body)
	}
	reply := e.post(eric, "@jericevans thanks for helping me learn Cassandra!")
	if p := e.page("/api/v1/timeline", jeric); len(p.Tweets) != 2 || p.Tweets[0] != reply || p.Tweets[1] != thanks {
		t.Errorf("jericevans's timeline: %+v", p)
	}
	var got tweetJSON
	decode(t, e.do(http.MethodGet, "/api/v1/tweets/"+reply.ID, "", ""), &got)
	if got != reply {
		t.Errorf("GET tweet: %+v, want %+v", got, reply)
	}

	var friends struct {
		Usernames []string `json:"usernames"`
		Follows   []struct{ Username, Since string }
		Next      *string `json:"next"`
	}
	decode(t, e.do(http.MethodGet, "/api/v1/users/ericflo/followers", "", ""), &friends)
	if !slices.Equal(friends.Usernames, []string{"jericevans"}) || friends.Next != nil || len(friends.Follows) != 1 || friends.Follows[0].Since == "" {
		t.Errorf("ericflo's followers: %+v", friends)
	}

	// Unfollow removes ericflo's tweets from jericevans's timeline.
	if rec := e.do(http.MethodDelete, "/api/v1/users/jericevans/friends/ericflo", "", jeric); rec.Code != http.StatusNoContent {
		t.Fatalf("unfollow: %d %s", rec.Code, rec.Body)
	}
	if p := e.page("/api/v1/timeline", jeric); len(p.Tweets) != 1 || p.Tweets[0] != thanks {
		t.Errorf("timeline after unfollow: %+v", p)
	}

	// Logging out revokes the token.
	if rec := e.do(http.MethodDelete, "/api/v1/sessions/current", "", eric); rec.Code != http.StatusNoContent {
		t.Fatalf("log out: %d %s", rec.Code, rec.Body)
	}
	body := wantError(t, e.do(http.MethodGet, "/api/v1/timeline", "", eric), http.StatusUnauthorized, SlugUnauthenticated)
	if !strings.Contains(body.Message, "revoked") {
		t.Errorf("message %q does not say revoked", body.Message)
	}
}

// TestEndpoints covers every route of the table with its success and error statuses. Each case
// runs on a fresh server where alice and bob exist and alice has posted one tweet.
func TestEndpoints(t *testing.T) {
	t.Parallel()
	unknownID := domain.NewTimeUUID(time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()).String()
	tests := []struct {
		name, method, path, body string
		as                       string // "", "alice" or "bob": whose token to send
		status                   int
		slug                     string // for errors
		check                    func(t *testing.T, body string)
	}{
		{name: "sign up", method: "POST", path: "/api/v1/users", body: `{"username":"carol","password":"12345678"}`, status: 201,
			check: func(t *testing.T, body string) {
				var u map[string]any
				_ = json.Unmarshal([]byte(body), &u)
				if u["username"] != "carol" || u["created_at"] == nil || strings.Contains(body, "$2a$") || strings.Contains(strings.ToLower(body), "password") {
					t.Errorf("body %s", body)
				}
			}},
		{name: "sign up taken", method: "POST", path: "/api/v1/users", body: `{"username":"alice","password":"12345678"}`, status: 409, slug: SlugAlreadyExists},
		{name: "sign up invalid name", method: "POST", path: "/api/v1/users", body: `{"username":"a b","password":"12345678"}`, status: 400, slug: SlugInvalid},
		{name: "sign up short password", method: "POST", path: "/api/v1/users", body: `{"username":"carol","password":"1234567"}`, status: 400, slug: SlugInvalid},
		{name: "log in", method: "POST", path: "/api/v1/sessions", body: `{"username":"alice","password":"` + testPassword + `"}`, status: 200,
			check: func(t *testing.T, body string) {
				var s sessionJSON
				_ = json.Unmarshal([]byte(body), &s)
				if s.Token == "" || s.Username != "alice" || s.ExpiresAt == "" {
					t.Errorf("body %s", body)
				}
			}},
		{name: "log in wrong password", method: "POST", path: "/api/v1/sessions", body: `{"username":"alice","password":"wrong password"}`, status: 401, slug: SlugUnauthenticated},
		{name: "log in unknown user", method: "POST", path: "/api/v1/sessions", body: `{"username":"nobody","password":"` + testPassword + `"}`, status: 401, slug: SlugUnauthenticated},
		{name: "log in invalid name", method: "POST", path: "/api/v1/sessions", body: `{"username":"!PUBLIC!","password":"` + testPassword + `"}`, status: 401, slug: SlugUnauthenticated},
		{name: "log out", method: "DELETE", path: "/api/v1/sessions/current", as: "alice", status: 204},
		{name: "log out without token", method: "DELETE", path: "/api/v1/sessions/current", status: 401, slug: SlugUnauthenticated},
		{name: "get user", method: "GET", path: "/api/v1/users/alice", status: 200,
			check: func(t *testing.T, body string) {
				var u userJSON
				_ = json.Unmarshal([]byte(body), &u)
				if u.Username != "alice" || u.CreatedAt == "" || strings.Contains(body, "$2a$") {
					t.Errorf("body %s", body)
				}
			}},
		{name: "get unknown user", method: "GET", path: "/api/v1/users/nobody", status: 404, slug: SlugNotFound},
		{name: "get users", method: "GET", path: "/api/v1/users?names=bob,nobody,alice", status: 200,
			check: func(t *testing.T, body string) {
				var r struct{ Users []userJSON }
				_ = json.Unmarshal([]byte(body), &r)
				if len(r.Users) != 2 || r.Users[0].Username != "bob" || r.Users[1].Username != "alice" {
					t.Errorf("body %s", body)
				}
			}},
		{name: "get users none found", method: "GET", path: "/api/v1/users?names=nobody", status: 200,
			check: func(t *testing.T, body string) {
				if body != `{"users":[]}` {
					t.Errorf("body %s", body)
				}
			}},
		{name: "get users no names", method: "GET", path: "/api/v1/users", status: 400, slug: SlugInvalid},
		{name: "get users empty names", method: "GET", path: "/api/v1/users?names=", status: 400, slug: SlugInvalid},
		{name: "get users empty name", method: "GET", path: "/api/v1/users?names=alice,,bob", status: 400, slug: SlugInvalid},
		{name: "get users invalid name", method: "GET", path: "/api/v1/users?names=alice,b%20b", status: 400, slug: SlugInvalid},
		{name: "get users too many", method: "GET", path: "/api/v1/users?names=" + strings.Repeat("a,", 200) + "a", status: 400, slug: SlugInvalid},
		{name: "friends", method: "GET", path: "/api/v1/users/alice/friends", status: 200,
			check: func(t *testing.T, body string) {
				if !strings.HasPrefix(body, `{"usernames":[],`) || !strings.HasSuffix(body, `"next":null}`) {
					t.Errorf("body %s", body)
				}
			}},
		{name: "friends of unknown", method: "GET", path: "/api/v1/users/nobody/friends", status: 404, slug: SlugNotFound},
		{name: "friends bad limit", method: "GET", path: "/api/v1/users/alice/friends?limit=0", status: 400, slug: SlugInvalid},
		{name: "followers", method: "GET", path: "/api/v1/users/alice/followers?limit=200", status: 200},
		{name: "followers of unknown", method: "GET", path: "/api/v1/users/nobody/followers", status: 404, slug: SlugNotFound},
		{name: "follow", method: "PUT", path: "/api/v1/users/alice/friends/bob", as: "alice", status: 204},
		{name: "follow without token", method: "PUT", path: "/api/v1/users/alice/friends/bob", status: 401, slug: SlugUnauthenticated},
		{name: "follow as someone else", method: "PUT", path: "/api/v1/users/alice/friends/bob", as: "bob", status: 403, slug: SlugForbidden},
		{name: "follow yourself", method: "PUT", path: "/api/v1/users/alice/friends/alice", as: "alice", status: 400, slug: SlugInvalid},
		{name: "follow unknown", method: "PUT", path: "/api/v1/users/alice/friends/nobody", as: "alice", status: 404, slug: SlugNotFound},
		{name: "follow invalid name", method: "PUT", path: "/api/v1/users/alice/friends/b%20b", as: "alice", status: 400, slug: SlugInvalid},
		{name: "unfollow not followed", method: "DELETE", path: "/api/v1/users/alice/friends/bob", as: "alice", status: 204},
		{name: "unfollow without token", method: "DELETE", path: "/api/v1/users/alice/friends/bob", status: 401, slug: SlugUnauthenticated},
		{name: "unfollow as someone else", method: "DELETE", path: "/api/v1/users/alice/friends/bob", as: "bob", status: 403, slug: SlugForbidden},
		{name: "unfollow unknown", method: "DELETE", path: "/api/v1/users/alice/friends/nobody", as: "alice", status: 404, slug: SlugNotFound},
		{name: "post", method: "POST", path: "/api/v1/tweets", body: `{"body":"  hello <world> & \"you\"  "}`, as: "bob", status: 201,
			check: func(t *testing.T, body string) {
				var tw tweetJSON
				_ = json.Unmarshal([]byte(body), &tw)
				if tw.Username != "bob" || tw.Body != `hello <world> & "you"` || tw.ID == "" {
					t.Errorf("body %s", body)
				}
			}},
		{name: "post without token", method: "POST", path: "/api/v1/tweets", body: `{"body":"hi"}`, status: 401, slug: SlugUnauthenticated},
		{name: "post empty", method: "POST", path: "/api/v1/tweets", body: `{"body":" "}`, as: "bob", status: 400, slug: SlugInvalid},
		{name: "get tweet", method: "GET", path: "/api/v1/tweets/{alice}", status: 200},
		{name: "get unknown tweet", method: "GET", path: "/api/v1/tweets/" + unknownID, status: 404, slug: SlugNotFound},
		{name: "get tweet bad id", method: "GET", path: "/api/v1/tweets/zzz", status: 400, slug: SlugInvalid},
		{name: "userline", method: "GET", path: "/api/v1/users/alice/tweets", status: 200,
			check: func(t *testing.T, body string) {
				var p pageJSON
				_ = json.Unmarshal([]byte(body), &p)
				if len(p.Tweets) != 1 || p.Next != nil || !strings.HasSuffix(body, `"next":null}`) {
					t.Errorf("body %s", body)
				}
			}},
		{name: "userline of unknown", method: "GET", path: "/api/v1/users/nobody/tweets", status: 404, slug: SlugNotFound},
		{name: "userline bad limit", method: "GET", path: "/api/v1/users/alice/tweets?limit=abc", status: 400, slug: SlugInvalid},
		{name: "timeline", method: "GET", path: "/api/v1/timeline", as: "alice", status: 200},
		{name: "timeline empty", method: "GET", path: "/api/v1/timeline", as: "bob", status: 200,
			check: func(t *testing.T, body string) {
				if body != `{"tweets":[],"next":null}` {
					t.Errorf("body %s", body)
				}
			}},
		{name: "timeline without token", method: "GET", path: "/api/v1/timeline", status: 401, slug: SlugUnauthenticated},
		{name: "timeline bad limit", method: "GET", path: "/api/v1/timeline?limit=201", as: "alice", status: 400, slug: SlugInvalid},
		{name: "public", method: "GET", path: "/api/v1/public", status: 200},
		{name: "public bad limit", method: "GET", path: "/api/v1/public?limit=-1", status: 400, slug: SlugInvalid},
		{name: "unknown route", method: "GET", path: "/api/v1/nothing", status: 404, slug: SlugNotFound},
		{name: "unknown top route", method: "GET", path: "/favicon.ico", status: 404, slug: SlugNotFound},
		{name: "wrong method", method: "DELETE", path: "/api/v1/public", status: 405, slug: SlugMethodNotAllow},
		{name: "wrong method on users", method: "PATCH", path: "/api/v1/users/alice", status: 405, slug: SlugMethodNotAllow},
		{name: "healthz", method: "GET", path: "/healthz", status: 200},
		{name: "readyz without pingers", method: "GET", path: "/readyz", status: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			tokens := map[string]string{"alice": e.user("alice"), "bob": e.user("bob")}
			tw := e.post(tokens["alice"], "first")
			path := strings.ReplaceAll(tt.path, "{alice}", tw.ID)
			rec := e.do(tt.method, path, tt.body, tokens[tt.as])
			if tt.slug != "" {
				body := wantError(t, rec, tt.status, tt.slug)
				if tt.status == 401 && rec.Header().Get("WWW-Authenticate") == "" {
					t.Error("401 without WWW-Authenticate")
				}
				if tt.status == 405 && rec.Header().Get("Allow") == "" {
					t.Error("405 without Allow")
				}
				if strings.Contains(body.Message, "memory") {
					t.Errorf("message %q leaks the adapter", body.Message)
				}
				return
			}
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tt.status, rec.Body)
			}
			if tt.status != http.StatusNoContent {
				if ct := rec.Header().Get("Content-Type"); ct != jsonContentType {
					t.Errorf("Content-Type %q", ct)
				}
			} else if rec.Body.Len() != 0 {
				t.Errorf("204 with body %q", rec.Body)
			}
			if tt.check != nil {
				tt.check(t, rec.Body.String())
			}
		})
	}
}

func TestLinePaging(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.user("alice")
	var posted []tweetJSON
	for i := range 45 {
		posted = append(posted, e.post(tok, "tweet "+strconv.Itoa(i)))
	}
	slices.Reverse(posted)
	for _, base := range []string{"/api/v1/public", "/api/v1/users/alice/tweets", "/api/v1/timeline"} {
		// Default page size 40, then the last 5 with next null.
		p := e.page(base, tok)
		if len(p.Tweets) != 40 || p.Next == nil {
			t.Fatalf("%s first page: %d tweets, next %v", base, len(p.Tweets), p.Next)
		}
		p2 := e.page(base+"?start="+*p.Next, tok)
		if len(p2.Tweets) != 5 || p2.Next != nil {
			t.Fatalf("%s second page: %d tweets, next %v", base, len(p2.Tweets), p2.Next)
		}
		if got := append(p.Tweets, p2.Tweets...); !slices.Equal(got, posted) {
			t.Fatalf("%s: pages are not the 45 tweets newest first", base)
		}
		// Pages of 9 end exactly: five full pages, no empty sixth.
		var all []tweetJSON
		next := ""
		for pages := 1; ; pages++ {
			q := base + "?limit=9"
			if next != "" {
				q += "&start=" + next
			}
			p := e.page(q, tok)
			all = append(all, p.Tweets...)
			if p.Next == nil {
				if pages != 5 {
					t.Fatalf("%s: %d pages of 9, want 5", base, pages)
				}
				break
			}
			next = *p.Next
		}
		if !slices.Equal(all, posted) {
			t.Fatalf("%s: pages of 9 are not the 45 tweets", base)
		}
	}
	if p := e.page("/api/v1/public?limit=200", ""); len(p.Tweets) != 45 || p.Next != nil {
		t.Fatalf("limit=200: %d, %v", len(p.Tweets), p.Next)
	}
}

func TestFollowPaging(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.user("alice")
	for _, n := range []string{"carol", "bob", "dave"} {
		e.signUp(n)
		if rec := e.do(http.MethodPut, "/api/v1/users/alice/friends/"+n, "", tok); rec.Code != http.StatusNoContent {
			t.Fatalf("follow %s: %d %s", n, rec.Code, rec.Body)
		}
	}
	type page struct {
		Usernames []string
		Next      *string
	}
	var p1, p2 page
	decode(t, e.do(http.MethodGet, "/api/v1/users/alice/friends?limit=2", "", ""), &p1)
	if len(p1.Usernames) != 2 || p1.Next == nil {
		t.Fatalf("first page %+v", p1)
	}
	decode(t, e.do(http.MethodGet, "/api/v1/users/alice/friends?limit=2&start="+*p1.Next, "", ""), &p2)
	if len(p2.Usernames) != 1 || p2.Next != nil {
		t.Fatalf("second page %+v", p2)
	}
	all := append(p1.Usernames, p2.Usernames...)
	slices.Sort(all)
	if !slices.Equal(all, []string{"bob", "carol", "dave"}) {
		t.Fatalf("friends %v", all)
	}
	var f page
	decode(t, e.do(http.MethodGet, "/api/v1/users/bob/followers", "", ""), &f)
	if !slices.Equal(f.Usernames, []string{"alice"}) || f.Next != nil {
		t.Fatalf("bob's followers %+v", f)
	}
}

// pinger answers with err, or waits for the context when block is set.
type pinger struct {
	err   error
	block bool
}

func (p pinger) Ping(ctx context.Context) error {
	if p.block {
		<-ctx.Done()
		return ctx.Err()
	}
	return p.err
}

func TestReadyz(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pingers []ports.Pinger
		status  int
		message string
	}{
		{"all fine", []ports.Pinger{pinger{}, pinger{}}, 200, ""},
		{"one down", []ports.Pinger{pinger{}, pinger{err: errors.New("node 10.0.0.7 is down")}}, 503, "node 10.0.0.7 is down"},
		{"one hangs", []ports.Pinger{pinger{block: true}}, 503, "deadline exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnvWith(t, Config{TokenSecret: testSecret}, func(d *Deps) { d.Ready = tt.pingers })
			start := time.Now()
			rec := e.do(http.MethodGet, "/readyz", "", "")
			if tt.status == 200 {
				if rec.Code != 200 {
					t.Fatalf("status %d %s", rec.Code, rec.Body)
				}
				return
			}
			body := wantError(t, rec, tt.status, SlugUnavailable)
			if !strings.Contains(body.Message, tt.message) {
				t.Errorf("message %q does not contain %q", body.Message, tt.message)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("readyz took %s", d)
			}
			// /healthz does not depend on the stores.
			if rec := e.do(http.MethodGet, "/healthz", "", ""); rec.Code != 200 {
				t.Errorf("healthz %d while not ready", rec.Code)
			}
		})
	}
}

// TestAddedRoutes shows how later route files extend the server, and checks recovery and the
// generic 500 on the way.
func TestAddedRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	blog := e.srv.API.Group("/blog")
	blog.GET("/panic", func(*gin.Context) { panic("kaboom") })
	blog.GET("/fail", func(c *gin.Context) { e.srv.WriteError(c, errors.New("cql: host 10.1.2.3 secret detail")) })
	blog.GET("/mine", e.srv.RequireAuth, func(c *gin.Context) {
		claims, ok := ClaimsFrom(c)
		c.JSON(http.StatusOK, gin.H{"username": claims.Username, "ok": ok})
	})
	tok := e.user("alice")

	wantError(t, e.do(http.MethodGet, "/api/v1/blog/panic", "", ""), 500, SlugInternal)
	if !strings.Contains(e.logs.String(), "kaboom") {
		t.Error("the panic is not logged")
	}
	rec := e.do(http.MethodGet, "/api/v1/blog/fail", "", "")
	body := wantError(t, rec, 500, SlugInternal)
	if strings.Contains(rec.Body.String(), "secret") || body.Message != "internal error" {
		t.Errorf("500 body leaks details: %s", rec.Body)
	}
	if !strings.Contains(e.logs.String(), "secret detail") {
		t.Error("the 500's details are not logged")
	}
	if rec := e.do(http.MethodGet, "/api/v1/blog/mine", "", tok); rec.Code != 200 || rec.Body.String() != `{"ok":true,"username":"alice"}` {
		t.Errorf("authenticated blog route: %d %s", rec.Code, rec.Body)
	}
	wantError(t, e.do(http.MethodGet, "/api/v1/blog/mine", "", ""), 401, SlugUnauthenticated)
	// The server still serves after the panic.
	if rec := e.do(http.MethodGet, "/healthz", "", ""); rec.Code != 200 {
		t.Errorf("healthz after panic: %d", rec.Code)
	}
	if !strings.Contains(e.logs.String(), `"msg":"http request"`) {
		t.Error("requests are not logged")
	}
}

func TestTrustedProxies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		proxies []string
		want    string
	}{
		{"none by default", nil, "10.0.0.1"},
		{"trusted proxy", []string{"10.0.0.0/8"}, "203.0.113.9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnvWith(t, Config{TokenSecret: testSecret, TrustedProxies: tt.proxies}, nil)
			e.srv.Engine.GET("/ip", func(c *gin.Context) { c.String(200, c.ClientIP()) })
			req := httptestRequest(http.MethodGet, "/ip")
			req.RemoteAddr = "10.0.0.1:1234"
			req.Header.Set("X-Forwarded-For", "203.0.113.9")
			rec := serve(e, req)
			if rec.Body.String() != tt.want {
				t.Fatalf("client IP %q, want %q", rec.Body, tt.want)
			}
		})
	}
	env := newEnv(t)
	if _, err := NewServer(Config{TokenSecret: testSecret, TrustedProxies: []string{"not an address"}}, Deps{Social: env.svc, Access: env.srv.Access()}); err == nil {
		t.Error("a bad proxy address was accepted")
	}
}

func TestNewServerChecksConfig(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	svc, access := env.svc, env.srv.Access()
	tests := []struct {
		name string
		cfg  Config
		deps Deps
		ok   bool
	}{
		{"defaults", Config{}, Deps{Social: svc, Access: access}, true},
		{"no service", Config{}, Deps{Access: access}, false},
		{"no access", Config{}, Deps{Social: svc}, false},
		{"short secret", Config{TokenSecret: []byte("short")}, Deps{Social: svc, Access: access}, false},
		{"negative body limit", Config{MaxBodyBytes: -1}, Deps{Social: svc, Access: access}, false},
		{"negative TTL", Config{TokenTTL: -time.Hour}, Deps{Social: svc, Access: access}, false},
	}
	for _, tt := range tests {
		eng, err := NewEngine(tt.cfg, tt.deps)
		if (err == nil) != tt.ok || (eng != nil) != tt.ok {
			t.Errorf("%s: engine %v, error %v", tt.name, eng != nil, err)
		}
	}
	if gin.Mode() != gin.ReleaseMode {
		t.Errorf("gin mode %q", gin.Mode())
	}
}

// TestConcurrentPostsAndReads runs posts and page reads at once (for -race, and for the tweet
// cache): every page read is well formed and newest first.
func TestConcurrentPostsAndReads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.user("alice")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 60 {
			b, _ := json.Marshal(map[string]string{"body": "tweet " + strconv.Itoa(i)})
			if rec := e.do(http.MethodPost, "/api/v1/tweets", string(b), tok); rec.Code != http.StatusCreated {
				t.Errorf("post: %d %s", rec.Code, rec.Body)
				return
			}
		}
	}()
	reads := 0
	for finished := false; !finished || reads < 10; reads++ {
		select {
		case <-done:
			finished = true
		default:
		}
		p := e.page("/api/v1/public?limit=20", "")
		for i := 1; i < len(p.Tweets); i++ {
			if p.Tweets[i-1].CreatedAt < p.Tweets[i].CreatedAt {
				t.Fatalf("page not newest first: %+v", p.Tweets)
			}
		}
	}
	if p := e.page("/api/v1/public?limit=200", ""); len(p.Tweets) != 60 {
		t.Fatalf("%d tweets after 60 posts", len(p.Tweets))
	}
}
