package main

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/fx"

	"twissandra/adapters/memory"
	"twissandra/ports"
)

// portsOnly are stores that implement the domain's ports and nothing else: the memory stores,
// each behind a struct that shows its port's methods only, so that no optional interface of the
// adapter (its scanners, its teaching) shows through.
type portsOnly struct {
	fx.Out
	Users    ports.UserStore
	Tweets   ports.TweetStore
	Lines    ports.LineStore
	Authors  ports.AuthorStore
	Entries  ports.EntryStore
	Tags     ports.TagIndex
	Comments ports.CommentStore
	Sessions ports.SessionStore
}

func newPortsOnly() portsOnly {
	m, b := memory.New(), memory.NewBlog()
	return portsOnly{
		Users: struct{ ports.UserStore }{m}, Tweets: struct{ ports.TweetStore }{m}, Lines: struct{ ports.LineStore }{m},
		Authors: struct{ ports.AuthorStore }{b}, Entries: struct{ ports.EntryStore }{b}, Tags: struct{ ports.TagIndex }{b},
		Comments: struct{ ports.CommentStore }{b}, Sessions: struct{ ports.SessionStore }{memory.NewSessions()},
	}
}

// portsOnlyServer assembles serve as cmd does (coreOptions, the server's options), on a backend
// module that provides the domain's ports only and no teaching module.
func portsOnlyServer(t *testing.T) *gin.Engine {
	t.Helper()
	cfg := testConfig(t, "memory")
	var h *gin.Engine
	opts := append(coreOptionsOn(cfg, newLogger(cfg, io.Discard), fx.Provide(newPortsOnly)), productServerOptions()...)
	app := fx.New(append(opts, fx.Populate(&h))...)
	if err := app.Err(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := app.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := app.Stop(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return h
}

// TestPortsOnlyBackendServesTheProduct: on a backend that implements the domain's ports and
// nothing else, wired with no teaching module, the server starts, the product works through the
// pages and the API (sign-up, a post, a follow, the timeline), no route answers 5xx, and each
// teaching view without its collaborator says what this backend does not provide.
func TestPortsOnlyBackendServesTheProduct(t *testing.T) {
	h := portsOnlyServer(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	// The pages: two sign-ups, a post, a follow, and the post on the follower's timeline.
	bob, ann := newFormClient(t, srv.URL), newFormClient(t, srv.URL)
	bob.signUp("bob")
	if r := bob.post("/tweets", url.Values{"body": {"hello from a store of ports"}}); r.status != http.StatusSeeOther {
		t.Fatalf("post: %d\n%s", r.status, r.body)
	}
	ann.signUp("ann")
	if r := ann.post("/users/bob/follow", nil); r.status != http.StatusSeeOther {
		t.Fatalf("follow: %d\n%s", r.status, r.body)
	}
	if r := ann.get("/"); r.status != http.StatusOK || !strings.Contains(r.body, "hello from a store of ports") {
		t.Fatalf("ann's timeline: %d, without bob's post\n%s", r.status, r.body)
	}

	// The API: a sign-up, a token, a post, a follow, the timeline, a blog entry and a comment.
	api := func(method, path, token, body string, want int) string {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d, want %d\n%s", method, path, resp.StatusCode, want, b)
		}
		return string(b)
	}
	api("POST", "/api/v1/users", "", `{"username":"cat","password":"password1"}`, http.StatusCreated)
	var sess struct{ Token string }
	if err := json.Unmarshal([]byte(api("POST", "/api/v1/sessions", "", `{"username":"cat","password":"password1"}`, http.StatusOK)), &sess); err != nil || sess.Token == "" {
		t.Fatalf("session: %+v, %v", sess, err)
	}
	api("PUT", "/api/v1/users/cat/friends/bob", sess.Token, "", http.StatusNoContent)
	tweet := api("POST", "/api/v1/tweets", sess.Token, `{"body":"cat posts through the API"}`, http.StatusCreated)
	var tw struct{ ID string }
	if err := json.Unmarshal([]byte(tweet), &tw); err != nil || tw.ID == "" {
		t.Fatalf("tweet: %s, %v", tweet, err)
	}
	if tl := api("GET", "/api/v1/timeline", sess.Token, "", http.StatusOK); !strings.Contains(tl, "hello from a store of ports") || !strings.Contains(tl, "cat posts through the API") {
		t.Fatalf("cat's timeline lacks bob's post or its own: %s", tl)
	}
	api("POST", "/api/v1/blog/entries", sess.Token, `{"slug":"ports","title":"Ports","body":"A store of ports serves the blog.","tags":["go"]}`, http.StatusCreated)
	api("POST", "/api/v1/blog/entries/ports/comments", "", `{"name":"dan","text":"it does"}`, http.StatusCreated)

	// Every route: the product's pages and API, the lessons and the teaching views, each
	// parameter filled with a record that exists.
	params := strings.NewReplacer(":username", "bob", ":friend", "ann", ":name", "cat", ":slug", "ports", ":tag", "go", ":id", tw.ID, ":action", "slice")
	var gets []string
	for _, r := range h.Routes() {
		if r.Method == http.MethodGet {
			gets = append(gets, params.Replace(r.Path))
		}
	}
	learn := ann.get("/learn").body
	for _, m := range regexp.MustCompile(`href="(/learn/[a-z0-9-]+)"`).FindAllStringSubmatch(learn, -1) {
		gets = append(gets, m[1])
	}
	lessons := 0
	for _, p := range gets {
		if r := ann.get(p); r.status >= 500 {
			t.Errorf("GET %s: %d\n%s", p, r.status, r.body)
		} else if strings.HasPrefix(p, "/learn/") && r.status == http.StatusOK {
			lessons++
		}
	}
	if lessons < 14 {
		t.Errorf("%d lessons served, want the course's 14 at least", lessons)
	}
	// Every form of the teaching room, sent with what a browser sends: refused or answered,
	// never a 5xx.
	for _, r := range h.Routes() {
		if r.Method != http.MethodPost || !strings.HasPrefix(r.Path, "/models/") && !strings.HasPrefix(r.Path, "/learn/") {
			continue
		}
		form := url.Values{"names": {"3 123"}, "value": {"v"}, "comparator": {"LongType"}, "name": {"rita"}, "racers": {"4"}, "key": {"bob"}, "body": {"a post"}}
		if r := ann.post(params.Replace(r.Path), form); r.status >= 500 {
			t.Errorf("POST %s: %d\n%s", r.path, r.status, r.body)
		}
	}

	// Each teaching view without its collaborator says what it needs.
	for _, v := range []struct{ path, id, says string }{
		{"/models/inspect", "", "there is no storage below the ports to inspect"},
		{"/models/where?user=bob", "", "This server's stores cannot say where their records live."},
		{"/models/lab", `id="lab-unavailable"`, "The lab is unavailable: it is not wired into this server."},
		{"/models/partitions", "", "This server's store cannot measure its rows: the partition lessons are unavailable."},
		{"/models/race", "", "This server's store offers no sandbox for the race."},
		{"/learn/primer", `id="primer-unavailable"`, "The lab's scratch keyspace is not wired into this server: the live part of this lesson is unavailable."},
		{"/learn/slices", `id="lab-unavailable"`, "The lab's scratch keyspace is not wired into this server"},
		{"/learn/time", `id="lww-unavailable"`, "The lab's scratch keyspace is not wired into this server: the live parts of this lesson are unavailable."},
		{"/learn/time", `id="replicas-unavailable"`, "this simulation is unavailable"},
		{"/learn/twissandra", `id="where-unavailable"`, "This server's stores cannot say where their records live."},
		{"/learn/blog", `id="blog-unavailable"`, "cannot say where its records live"},
		{"/learn/unique", `id="race-unavailable"`, "This server's store offers no sandbox for the race."},
		{"/learn/query-first", `id="qf-unavailable"`, "This server has no query lab."},
		{"/learn/partitions", `id="pl-unavailable"`, "This server's store cannot measure its rows"},
		{"/learn/tokens", `id="ring-unavailable"`, "This server's stores cannot place keys on a ring."},
		{"/learn/consistency", `id="consistency-unavailable"`, "the consistency lab is unavailable"},
		{"/learn/consistency", `id="cluster-none"`, "This server runs on the memory backend."},
		{"/learn/collections", `id="coll-unavailable"`, "This server has neither a CQL node nor the engine's lab."},
		{"/learn/counters", `id="counters-unavailable"`, "which has no counters to show"},
		{"/learn/console", `class="console-none"`, "has no console"},
		{"/learn/slices", `class="console-none"`, "has no cassandra-cli (0.6) console"},
	} {
		r := ann.get(v.path)
		if r.status != http.StatusOK || !strings.Contains(r.body, v.id) || !strings.Contains(html.UnescapeString(r.body), v.says) {
			t.Errorf("%s: %d, does not say %q (%s)", v.path, r.status, v.says, v.id)
		}
	}
}

// formClient is a browser: a cookie jar, the CSRF token of the session's forms, no redirects
// followed.
type formClient struct {
	t    *testing.T
	base string
	c    *http.Client
}

type formResponse struct {
	path   string
	status int
	body   string
}

func newFormClient(t *testing.T, base string) *formClient {
	jar, _ := cookiejar.New(nil)
	return &formClient{t: t, base: base, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (f *formClient) do(req *http.Request) formResponse {
	f.t.Helper()
	req.Header.Set("Accept", "text/html")
	resp, err := f.c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return formResponse{path: req.URL.Path, status: resp.StatusCode, body: string(b)}
}

func (f *formClient) get(path string) formResponse {
	req, _ := http.NewRequest(http.MethodGet, f.base+path, nil)
	return f.do(req)
}

var csrfInput = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// post sends form with the session's CSRF token, read from the sign-in page (the home page once
// signed in).
func (f *formClient) post(path string, form url.Values) formResponse {
	f.t.Helper()
	m := csrfInput.FindStringSubmatch(f.get("/login").body)
	if m == nil {
		m = csrfInput.FindStringSubmatch(f.get("/").body)
	}
	if m == nil {
		f.t.Fatal("no CSRF token on /login or /")
	}
	if form == nil {
		form = url.Values{}
	}
	form.Set("csrf_token", m[1])
	req, _ := http.NewRequest(http.MethodPost, f.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return f.do(req)
}

func (f *formClient) signUp(name string) {
	f.t.Helper()
	if r := f.post("/signup", url.Values{"username": {name}, "password": {"password1"}, "password2": {"password1"}}); r.status != http.StatusSeeOther {
		f.t.Fatalf("sign up %s: %d\n%s", name, r.status, r.body)
	}
}
