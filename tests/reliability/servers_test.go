package reliability

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"twissandra/internal/testkit/cqltest"
)

// Three servers on one Cassandra keyspace, sharing a token secret, behind a "load balancer": a
// client that sends each request to the next server in turn and says who the visitor is in
// X-Forwarded-For, as a proxy does (the servers trust it). Sessions, the log-in limit, posts,
// "what your post cost" and the uniqueness of names hold across them, and nothing acknowledged
// is lost when one is killed.

// recheck is the servers' --session-recheck: a logout reaches the other servers within it.
const recheck = time.Second

// roundRobin is the load balancer: each request to the next server, a cookie jar of its own (one
// browser), and the visitor's address in X-Forwarded-For.
type roundRobin struct {
	t     *testing.T
	bases []string
	next  atomic.Int64
	addr  string
	http  *http.Client
}

func newRoundRobin(t *testing.T, bases []string, addr string) *roundRobin {
	jar, _ := cookiejar.New(nil)
	return &roundRobin{t: t, bases: bases, addr: addr, http: &http.Client{Jar: jar, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// base is the next server's URL.
func (r *roundRobin) base() string { return r.bases[int(r.next.Add(1)-1)%len(r.bases)] }

type reply struct {
	status int
	header http.Header
	body   string
}

// to sends one request to base (a server chosen by the caller, or r.base()).
func (r *roundRobin) to(base, method, path, contentType, body, token string) reply {
	r.t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		r.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("X-Forwarded-For", r.addr)
	resp, err := r.http.Do(req)
	if err != nil {
		r.t.Fatalf("%s %s%s: %v", method, base, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b)}
}

func (r *roundRobin) api(method, path, body, token string) reply {
	r.t.Helper()
	ct := ""
	if body != "" {
		ct = "application/json"
	}
	return r.to(r.base(), method, "/api/v1"+path, ct, body, token)
}

func (r *roundRobin) page(base, path string) reply {
	r.t.Helper()
	return r.to(base, http.MethodGet, path, "", "", "")
}

var csrfField = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// form posts a page's form to base with the session's CSRF token, read from a page of another
// server (the balancer's next).
func (r *roundRobin) form(base, path string, form url.Values) reply {
	r.t.Helper()
	m := csrfField.FindStringSubmatch(r.page(r.base(), "/login").body)
	if m == nil {
		m = csrfField.FindStringSubmatch(r.page(r.base(), "/").body)
	}
	if m == nil {
		r.t.Fatal("no CSRF token in the pages")
	}
	form.Set("csrf_token", m[1])
	return r.to(base, http.MethodPost, path, "application/x-www-form-urlencoded", form.Encode(), "")
}

func (r *roundRobin) token(name, password string) string {
	r.t.Helper()
	res := r.api(http.MethodPost, "/sessions", fmt.Sprintf(`{"username":%q,"password":%q}`, name, password), "")
	var s struct{ Token string }
	if res.status != http.StatusOK || json.Unmarshal([]byte(res.body), &s) != nil || s.Token == "" {
		r.t.Fatalf("log in %s: %d %s", name, res.status, res.body)
	}
	return s.Token
}

// within polls check until it holds, for at most bound (the bound docs/cluster.md states, plus a
// second for a loaded machine); it fails the test if check never holds.
func within(t *testing.T, bound time.Duration, what string, check func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		if check() {
			return time.Since(start)
		}
		if time.Since(start) > bound+time.Second {
			t.Fatalf("%s: not within %v", what, bound)
		}
		time.Sleep(20 * time.Millisecond) // polling against a stated bound, not synchronisation
	}
}

func TestThreeServersOneCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts three servers: not in -short")
	}
	ks, hosts, port := cqltest.KeyspaceName(t, "twissandra_test_servers_")
	bin := buildServer(t)
	args := []string{"--backend", "cql3", "--cql-hosts", strings.Join(hosts, ","), "--cql-port", strconv.Itoa(port),
		"--cql-keyspace", ks, "--trusted-proxies", "127.0.0.1", "--session-recheck", recheck.String()}
	var procs []*serverProc
	var bases []string
	for range 3 {
		cmd, base := startServeArgs(t, bin, args...)
		procs = append(procs, &serverProc{cmd: cmd, base: base})
		bases = append(bases, base)
	}
	lb := newRoundRobin(t, bases, "198.51.100.1")

	t.Run("TokenWorksEverywhereAndLogoutEndsItEverywhere", func(t *testing.T) {
		lb := newRoundRobin(t, bases, "198.51.100.2")
		if r := lb.api(http.MethodPost, "/users", `{"username":"alice","password":"correct horse"}`, ""); r.status != http.StatusCreated {
			t.Fatalf("sign up: %d %s", r.status, r.body)
		}
		token := lb.token("alice", "correct horse")
		for _, base := range bases {
			if r := lb.to(base, http.MethodGet, "/api/v1/timeline", "", "", token); r.status != http.StatusOK {
				t.Fatalf("the token on %s: %d", base, r.status)
			}
		}
		if r := lb.to(bases[0], http.MethodDelete, "/api/v1/sessions/current", "", "", token); r.status != http.StatusNoContent {
			t.Fatalf("log out on server 1: %d", r.status)
		}
		if r := lb.to(bases[0], http.MethodGet, "/api/v1/timeline", "", "", token); r.status != http.StatusUnauthorized {
			t.Fatalf("on the server that logged out: %d, want 401 at once", r.status)
		}
		for _, base := range bases[1:] {
			took := within(t, recheck, "the logout reaching "+base, func() bool {
				return lb.to(base, http.MethodGet, "/api/v1/timeline", "", "", token).status == http.StatusUnauthorized
			})
			t.Logf("the logout reached %s in %v", base, took.Round(time.Millisecond))
		}
	})

	t.Run("PageSessionWorksEverywhereAndLogoutEndsItEverywhere", func(t *testing.T) {
		lb := newRoundRobin(t, bases, "198.51.100.3")
		if r := lb.form(bases[0], "/signup", url.Values{"username": {"bob"}, "password": {"password1"}, "password2": {"password1"}}); r.status != http.StatusSeeOther {
			t.Fatalf("sign up on server 1: %d", r.status)
		}
		for _, base := range bases {
			if !strings.Contains(lb.page(base, "/").body, "Your timeline") {
				t.Fatalf("bob's session on %s: signed out", base)
			}
		}
		u, _ := url.Parse(bases[0])
		copied := lb.http.Jar.Cookies(u)
		thief := newRoundRobin(t, bases, "203.0.113.66")
		thief.http.Jar.SetCookies(u, copied)
		if !strings.Contains(thief.page(bases[2], "/").body, "Your timeline") {
			t.Fatal("a copy of the cookie did not work before the logout")
		}
		if r := lb.form(bases[1], "/logout", url.Values{}); r.status != http.StatusSeeOther {
			t.Fatalf("log out on server 2: %d", r.status)
		}
		for _, base := range bases {
			within(t, recheck, "the page logout reaching "+base, func() bool {
				thief.http.Jar.SetCookies(u, copied) // the copy, as it was before the logout
				return !strings.Contains(thief.page(base, "/").body, "Your timeline")
			})
		}
	})

	t.Run("LoginLimitHoldsAcrossServers", func(t *testing.T) {
		lb := newRoundRobin(t, bases, "198.51.100.4")
		if r := lb.api(http.MethodPost, "/users", `{"username":"carol","password":"correct horse"}`, ""); r.status != http.StatusCreated {
			t.Fatalf("sign up: %d", r.status)
		}
		// Each guess from another address, each to the next server: only the username's count
		// can stop them, and it is the cluster's.
		for i := range 5 {
			g := newRoundRobin(t, bases, "192.0.2."+strconv.Itoa(10+i))
			if r := g.to(bases[i%3], http.MethodPost, "/api/v1/sessions", "application/json", `{"username":"carol","password":"guess"}`, ""); r.status != http.StatusUnauthorized {
				t.Fatalf("guess %d on server %d: %d", i+1, i%3+1, r.status)
			}
		}
		for i, base := range bases {
			g := newRoundRobin(t, bases, "192.0.2."+strconv.Itoa(20+i))
			r := g.to(base, http.MethodPost, "/api/v1/sessions", "application/json", `{"username":"carol","password":"correct horse"}`, "")
			if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
				t.Fatalf("a sixth try on server %d: %d, want 429 with Retry-After", i+1, r.status)
			}
		}
	})

	t.Run("PostsShowOnEveryServer", func(t *testing.T) {
		lb := newRoundRobin(t, bases, "198.51.100.5")
		for _, name := range []string{"dave", "erin"} {
			if r := lb.api(http.MethodPost, "/users", `{"username":"`+name+`","password":"correct horse"}`, ""); r.status != http.StatusCreated {
				t.Fatalf("sign up %s: %d", name, r.status)
			}
		}
		dave, erin := lb.token("dave", "correct horse"), lb.token("erin", "correct horse")
		if r := lb.api(http.MethodPut, "/users/erin/friends/dave", "", erin); r.status != http.StatusNoContent {
			t.Fatalf("follow: %d", r.status)
		}
		seen := func(base, body string) bool {
			return strings.Contains(html.UnescapeString(lb.page(base, "/public").body), body) &&
				strings.Contains(lb.to(base, http.MethodGet, "/api/v1/timeline", "", "", erin).body, body)
		}
		// The first post of a day another server has not seen: its public line finds the new day
		// within a second (publicDaysRefresh), erin's timeline at once.
		post := func(base, body string) {
			if r := lb.to(base, http.MethodPost, "/api/v1/tweets", "application/json", `{"body":"`+body+`"}`, dave); r.status != http.StatusCreated {
				t.Fatalf("post on %s: %d", base, r.status)
			}
		}
		post(bases[0], "first of the day")
		for _, base := range bases {
			within(t, time.Second, "the first post on "+base, func() bool { return seen(base, "first of the day") })
		}
		post(bases[1], "second of the day")
		for _, base := range bases {
			if !seen(base, "second of the day") {
				t.Fatalf("a post on server 2 is not at once on %s's public page and erin's timeline", base)
			}
		}
	})

	t.Run("WhatYourPostCostOnTheServerThatAnswersTheRedirect", func(t *testing.T) {
		lb := newRoundRobin(t, bases, "198.51.100.6")
		if r := lb.form(bases[0], "/signup", url.Values{"username": {"frank"}, "password": {"password1"}, "password2": {"password1"}}); r.status != http.StatusSeeOther {
			t.Fatalf("sign up: %d", r.status)
		}
		lb.page(bases[1], "/") // the page after the sign-up takes its record
		r := lb.form(bases[0], "/tweets", url.Values{"body": {"the cost of this post"}})
		if r.status != http.StatusSeeOther {
			t.Fatalf("post on server 1: %d", r.status)
		}
		next := html.UnescapeString(lb.page(bases[2], r.header.Get("Location")).body)
		if !strings.Contains(next, `id="action-ops"`) || !strings.Contains(next, "What your post cost") || !strings.Contains(next, "INSERT INTO userline") {
			t.Fatalf("the page after the post, on server 3, does not show what the post cost:\n%s", next)
		}
	})

	t.Run("UniquenessRaceOneWinner", func(t *testing.T) {
		const n = 30
		statuses := make([]int, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-start
				statuses[i] = lb.to(bases[i%3], http.MethodPost, "/api/v1/users", "application/json",
					`{"username":"contested","password":"password `+strconv.Itoa(i)+`"}`, "").status
			})
		}
		close(start)
		wg.Wait()
		created, taken := 0, 0
		for _, s := range statuses {
			switch s {
			case http.StatusCreated:
				created++
			case http.StatusConflict:
				taken++
			}
		}
		if created != 1 || taken != n-1 {
			t.Fatalf("%d sign-ups of one name over 3 servers: %d created, %d taken; want 1 and %d", n, created, taken, n-1)
		}
	})

	t.Run("KillingOneServerLosesNothingAcknowledged", func(t *testing.T) {
		killServerMidLoad(t, procs, bases)
	})
}

type serverProc struct {
	cmd  *exec.Cmd
	base string
}

// killServerMidLoad has six writers post through the balancer, each post to the next live
// server, kills the second server with SIGKILL after 150 acknowledged posts, and goes on to 300:
// a post whose server died unanswered goes to the next one. Every acknowledged post is then on
// the surviving servers, by ID and in its author's userline.
func killServerMidLoad(t *testing.T, procs []*serverProc, bases []string) {
	const writers, killAt, total = 6, 150, 300
	lb := newRoundRobin(t, bases, "198.51.100.7")
	tokens := make([]string, writers)
	for w := range writers {
		name := "writer" + strconv.Itoa(w)
		if r := lb.api(http.MethodPost, "/users", `{"username":"`+name+`","password":"correct horse"}`, ""); r.status != http.StatusCreated {
			t.Fatalf("sign up %s: %d", name, r.status)
		}
		tokens[w] = lb.token(name, "correct horse")
	}
	var (
		dead    atomic.Bool // the second server was killed
		acked   atomic.Int64
		mu      sync.Mutex
		ids     = map[string]int{} // acknowledged tweet -> writer
		killed  = make(chan struct{})
		once    sync.Once
		wg      sync.WaitGroup
		failure atomic.Value
	)
	client := &http.Client{Timeout: 20 * time.Second}
	send := func(base, token, body string) (string, bool) {
		req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/tweets", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return "", false // the server died under it: unacknowledged
		}
		defer resp.Body.Close()
		var tw struct{ ID string }
		if resp.StatusCode != http.StatusCreated || json.NewDecoder(resp.Body).Decode(&tw) != nil || tw.ID == "" {
			failure.Store(fmt.Sprintf("post on %s: %d", base, resp.StatusCode))
			return "", false
		}
		return tw.ID, true
	}
	for w := range writers {
		wg.Go(func() {
			for i := 0; acked.Load() < total && failure.Load() == nil; i++ {
				base := bases[(w+i)%len(bases)]
				if base == procs[1].base && dead.Load() {
					continue
				}
				id, ok := send(base, tokens[w], `{"body":"writer `+strconv.Itoa(w)+` post `+strconv.Itoa(i)+`"}`)
				if !ok {
					continue
				}
				mu.Lock()
				ids[id] = w
				mu.Unlock()
				if acked.Add(1) == killAt {
					once.Do(func() {
						if err := procs[1].cmd.Process.Kill(); err != nil { // SIGKILL
							failure.Store(err.Error())
						}
						dead.Store(true)
						close(killed)
					})
				}
			}
		})
	}
	wg.Wait()
	if f := failure.Load(); f != nil {
		t.Fatal(f)
	}
	<-killed
	_ = procs[1].cmd.Wait()
	survivors := []string{bases[0], bases[2]}
	for w := range writers {
		var line struct{ Tweets []struct{ ID string } }
		r := lb.to(survivors[w%2], http.MethodGet, "/api/v1/users/writer"+strconv.Itoa(w)+"/tweets?limit=200", "", "", "")
		if r.status != http.StatusOK || json.Unmarshal([]byte(r.body), &line) != nil {
			t.Fatalf("userline of writer%d: %d", w, r.status)
		}
		inLine := map[string]bool{}
		for _, tw := range line.Tweets {
			inLine[tw.ID] = true
		}
		for id, author := range ids {
			if author == w && !inLine[id] {
				t.Errorf("acknowledged post %s of writer%d is not in its userline", id, w)
			}
		}
	}
	lost := 0
	for id := range ids {
		if r := lb.to(survivors[lost%2], http.MethodGet, "/api/v1/tweets/"+id, "", "", ""); r.status != http.StatusOK {
			lost++
			t.Errorf("acknowledged post %s: %d", id, r.status)
		}
	}
	t.Logf("%d posts acknowledged by three servers, the second killed with SIGKILL after %d: %d lost", len(ids), killAt, lost)
}
