package pages

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/web"
	"twissandra/web/site"
)

func TestSignUpLogInLogOut(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	c.signUp("alice")
	home := c.get("/")
	mustContain(t, home.body, "Welcome, alice", "Your timeline", `id="post-form"`, "@alice")
	r := c.post("/logout", nil)
	if r.status != http.StatusSeeOther {
		t.Fatalf("log out: %d", r.status)
	}
	home = c.get("/")
	mustContain(t, home.body, "You are signed out", "Public timeline")
	mustNotContain(t, home.body, `id="post-form"`)

	r = c.post("/login", url.Values{"username": {"alice"}, "password": {"password1"}, "next": {"/public"}})
	if r.status != http.StatusSeeOther || r.header.Get("Location") != "/public" {
		t.Fatalf("log in: %d %q", r.status, r.header.Get("Location"))
	}
	// An off-site "next" is not followed.
	c.post("/logout", nil)
	r = c.post("/login", url.Values{"username": {"alice"}, "password": {"password1"}, "next": {"//evil.example/"}})
	if r.header.Get("Location") != "/" {
		t.Fatalf("next=//evil: redirected to %q", r.header.Get("Location"))
	}
}

func TestSessionCookieAttributes(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	r := c.get("/login")
	var found bool
	for _, sc := range r.header.Values("Set-Cookie") {
		if !strings.HasPrefix(sc, site.SessionCookie+"=") {
			continue
		}
		found = true
		for _, want := range []string{"HttpOnly", "SameSite=Lax", "Path=/"} {
			if !strings.Contains(sc, want) {
				t.Errorf("cookie %q lacks %s", sc, want)
			}
		}
		if strings.Contains(sc, "Secure") {
			t.Errorf("cookie over plain HTTP is Secure: %q", sc)
		}
	}
	if !found {
		t.Fatalf("no session cookie set: %v", r.header.Values("Set-Cookie"))
	}
	c.signUp("bob")
	u, _ := url.Parse(app.srv.URL)
	for _, ck := range c.http.Jar.Cookies(u) {
		if strings.Contains(ck.Value, "bob") {
			t.Fatalf("the session cookie shows its content: %q", ck.Value)
		}
		// A tampered cookie is no session at all.
		ck.Value = "x" + ck.Value[1:]
		c.http.Jar.SetCookies(u, []*http.Cookie{ck})
	}
	mustNotContain(t, c.get("/").body, "@bob")
}

// Behind a trusted proxy that says the client came over HTTPS, the session cookie is Secure;
// the same header from anyone else changes nothing.
func TestSessionCookieSecureBehindTrustedProxy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		trusted []string
		secure  bool
	}{{[]string{"127.0.0.1"}, true}, {[]string{"10.0.0.0/8"}, false}, {nil, false}} {
		app := newAppWith(t, memoryStores(), web.Config{TrustedProxies: tc.trusted})
		req, _ := http.NewRequest(http.MethodGet, app.srv.URL+"/login", nil)
		req.Header.Set("X-Forwarded-Proto", "https")
		r := app.client(t).do(req)
		var cookie string
		for _, sc := range r.header.Values("Set-Cookie") {
			if strings.HasPrefix(sc, site.SessionCookie+"=") {
				cookie = sc
			}
		}
		if cookie == "" || strings.Contains(cookie, "; Secure") != tc.secure {
			t.Errorf("trusted %v: cookie %q, want Secure %v", tc.trusted, cookie, tc.secure)
		}
	}
}

// After a log-in, a next that a browser would read as another host (a tab or a line break the
// browser drops, a backslash it reads as a slash) sends the reader home instead.
func TestLogInNextRefusesOtherHosts(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	c.signUp("bob")
	c.post("/logout", nil)
	for _, next := range []string{"/\t/evil.example", "/\n/evil.example", "//evil.example", "/\\evil.example"} {
		r := c.post("/login", url.Values{"username": {"bob"}, "password": {"password1"}, "next": {next}})
		if r.status != http.StatusSeeOther || r.header.Get("Location") != "/" {
			t.Errorf("next %q: %d to %q", next, r.status, r.header.Get("Location"))
		}
		c.post("/logout", nil)
	}
}

func TestSignUpBadInput(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	taken := app.client(t)
	taken.signUp("taken")
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name       string
		form       url.Values
		status     int
		message    string
		kept       string
		notCreated string
	}{
		{"missing username", url.Values{"password": {"password1"}, "password2": {"password1"}}, 400, "Choose a username and a password", "", ""},
		{"missing password", url.Values{"username": {"carol"}}, 400, "Choose a username and a password", `value="carol"`, "carol"},
		{"bad username", url.Values{"username": {"bad name!"}, "password": {"password1"}, "password2": {"password1"}}, 400, "must be 1 to 30", `value="bad name!"`, ""},
		{"username too long", url.Values{"username": {strings.Repeat("a", 31)}, "password": {"password1"}, "password2": {"password1"}}, 400, "must be 1 to 30", strings.Repeat("a", 31), ""},
		{"huge username", url.Values{"username": {long}, "password": {"password1"}, "password2": {"password1"}}, 400, "must be 1 to 30", "", ""},
		{"short password", url.Values{"username": {"dave"}, "password": {"short"}, "password2": {"short"}}, 400, "Password: must be 8 to 72", `value="dave"`, "dave"},
		{"long password", url.Values{"username": {"erin"}, "password": {strings.Repeat("p", 73)}, "password2": {strings.Repeat("p", 73)}}, 400, "Password: must be 8 to 72", `value="erin"`, "erin"},
		{"passwords differ", url.Values{"username": {"frank"}, "password": {"password1"}, "password2": {"password2"}}, 400, "The two passwords differ", `value="frank"`, "frank"},
		{"taken", url.Values{"username": {"taken"}, "password": {"password9"}, "password2": {"password9"}}, 409, "is taken", `value="taken"`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := app.client(t)
			r := c.post("/signup", tc.form)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d\n%s", r.status, tc.status, r.body)
			}
			mustContain(t, r.body, tc.message, `id="signup-error"`)
			if tc.kept != "" {
				mustContain(t, r.body, tc.kept)
			}
			if pw := tc.form.Get("password"); pw != "" {
				mustNotContain(t, r.body, pw)
			}
			if tc.notCreated != "" {
				if _, err := app.social.GetUser(bg(), tc.notCreated); !errors.Is(err, domain.ErrNotFound) {
					t.Fatalf("user %s exists after a refused sign-up (err %v)", tc.notCreated, err)
				}
			}
			mustNotContain(t, c.get("/").body, "Your timeline")
		})
	}
}

func TestLogInBadInputAndThrottle(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	app.client(t).signUp("gina")
	c := app.client(t)
	r := c.post("/login", url.Values{"username": {"gina"}})
	if r.status != http.StatusBadRequest {
		t.Fatalf("missing password: %d", r.status)
	}
	mustContain(t, r.body, "Enter your username and your password", `value="gina"`)
	for i := range social.LoginLimit {
		r = c.post("/login", url.Values{"username": {"gina"}, "password": {"wrong-password"}})
		if r.status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: status %d", i, r.status)
		}
		mustContain(t, r.body, "Wrong username or password", `value="gina"`)
		mustNotContain(t, r.body, "wrong-password")
	}
	r = c.post("/login", url.Values{"username": {"gina"}, "password": {"password1"}})
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("after %d failures: status %d, want 429", social.LoginLimit, r.status)
	}
	mustContain(t, r.body, "Too many sign-in attempts")
	if r.header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	mustNotContain(t, c.get("/").body, "Your timeline")
}

func TestPostBadInput(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	anon := app.client(t)
	r := anon.post("/tweets", url.Values{"body": {"hello"}})
	if r.status != http.StatusSeeOther || r.header.Get("Location") != "/login" {
		t.Fatalf("anonymous post: %d %q", r.status, r.header.Get("Location"))
	}
	c := app.client(t)
	c.signUp("hank")
	tooLong := strings.Repeat("é", domain.MaxTweetLen+1)
	for _, tc := range []struct{ name, body, msg string }{
		{"empty", "   ", "Body: must not be empty"},
		{"too long", tooLong, "Body: must be at most 140 characters (got 141)"},
	} {
		r := c.post("/tweets", url.Values{"body": {tc.body}})
		if r.status != http.StatusBadRequest {
			t.Fatalf("%s: status %d", tc.name, r.status)
		}
		mustContain(t, r.body, tc.msg, `id="post-error"`)
		if strings.TrimSpace(tc.body) != "" {
			mustContain(t, r.body, tc.body)
		}
	}
	page, _ := app.social.PublicLine(bg(), "", 0)
	if len(page.Tweets) != 0 {
		t.Fatalf("refused posts were stored: %v", page.Tweets)
	}
	// A body over the server's limit is refused before it is read.
	r = c.postRaw("/tweets", url.Values{"body": {strings.Repeat("x", 70<<10)}})
	if r.status != http.StatusRequestEntityTooLarge {
		t.Fatalf("huge body: %d", r.status)
	}
	r = c.post("/tweets", url.Values{"body": {"  <b>hi</b> & bye  "}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("post: %d\n%s", r.status, r.body)
	}
	home := c.get("/")
	mustContain(t, home.body, "Posted.", "&lt;b&gt;hi&lt;/b&gt; &amp; bye")
}

func TestCSRF(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	c.signUp("ivan")
	for _, tc := range []struct {
		name string
		tok  string
	}{{"missing", ""}, {"wrong", "AAAA"}} {
		form := url.Values{"body": {"forged"}}
		if tc.tok != "" {
			form.Set(site.CSRFField, tc.tok)
		}
		r := c.postRaw("/tweets", form)
		if r.status != http.StatusForbidden {
			t.Fatalf("%s token: status %d", tc.name, r.status)
		}
		mustContain(t, r.body, "Form expired or forged", "nothing was done")
	}
	// A token from another session is no good either.
	other := app.client(t)
	r := c.postRaw("/tweets", url.Values{"body": {"forged"}, site.CSRFField: {other.csrf()}})
	if r.status != http.StatusForbidden {
		t.Fatalf("other session's token: %d", r.status)
	}
	page, _ := app.social.PublicLine(bg(), "", 0)
	if len(page.Tweets) != 0 {
		t.Fatal("a forged post was stored")
	}
	// The token changes at log-in: one seen before is refused after.
	anon := app.client(t)
	before := anon.csrf()
	anon.signUp("judy")
	r = anon.postRaw("/tweets", url.Values{"body": {"x"}, site.CSRFField: {before}})
	if r.status != http.StatusForbidden {
		t.Fatalf("pre-login token after login: %d", r.status)
	}
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	for _, path := range []string{"/nope", "/users/ghost", "/users/bad%20name", "/users/ghost/friends", "/blog/entries/nope", "/blog/entries/Bad_Slug", "/blog/authors/Nobody", "/blog/tags/UPPER_"} {
		r := c.get(path)
		if r.status != http.StatusNotFound {
			t.Fatalf("%s: status %d", path, r.status)
		}
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("%s: content type %q", path, ct)
		}
		mustContain(t, r.body, "<h1>", "Go to the home page")
	}
	r := c.get("/api/v1/nope")
	var body struct{ Error string }
	if r.status != http.StatusNotFound || json.Unmarshal([]byte(r.body), &body) != nil || body.Error != "not_found" {
		t.Fatalf("API 404: %d %s", r.status, r.body)
	}
	req, _ := http.NewRequest(http.MethodDelete, app.srv.URL+"/login", nil)
	r = c.do(req)
	if r.status != http.StatusMethodNotAllowed || !strings.Contains(r.body, "Not allowed") {
		t.Fatalf("HTML 405: %d %s", r.status, r.body)
	}
}

// A user's page reads the user once (social.Profile), then the userline and both follow lists;
// a cursor it cannot read is a 400, as on the other lines.
func TestUserPageReadsTheUserOnce(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	c.signUp("bob")
	r := c.get("/users/bob")
	if ops := opCounts(t, r.header.Get(web.StorageOpsHeader)); r.status != http.StatusOK || ops["get"] != 1 || ops["slice"] != 3 {
		t.Fatalf("user page: %d, Storage-Ops %q: want get=1 (the user) and slice=3 (the userline, both follow lists)",
			r.status, r.header.Get(web.StorageOpsHeader))
	}
	if r := c.get("/users/bob?start=not-a-cursor"); r.status != http.StatusBadRequest {
		t.Fatalf("bad cursor: %d", r.status)
	}
}

// opCounts reads a Storage-Ops summary ("4 ops: get=1 slice=3", or "0 ops") into the count of
// each kind of operation, so that a test says which operations it means and a kind it is not
// about (a new note) breaks it not. The summary must be well formed: its total the sum of its
// counts.
func opCounts(t testing.TB, summary string) map[string]int {
	t.Helper()
	head, kinds, _ := strings.Cut(summary, ":")
	total, ok := strings.CutSuffix(head, " ops")
	n, err := strconv.Atoi(total)
	if !ok || err != nil {
		t.Fatalf("Storage-Ops %q: not a summary", summary)
	}
	counts, sum := map[string]int{}, 0
	for _, kv := range strings.Fields(kinds) {
		k, v, _ := strings.Cut(kv, "=")
		c, err := strconv.Atoi(v)
		if err != nil || c < 1 || k == "" || counts[k] != 0 {
			t.Fatalf("Storage-Ops %q: %q is not kind=count", summary, kv)
		}
		counts[k], sum = c, sum+c
	}
	if sum != n {
		t.Fatalf("Storage-Ops %q: %d ops, counted %d", summary, n, sum)
	}
	return counts
}

func TestPagingExact(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	c.signUp("kate")
	for i := range linePageSize {
		if _, err := app.social.Post(bg(), "kate", fmt.Sprintf("tweet number %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	// Exactly one page: no "Older" link.
	mustNotContain(t, c.get("/").body, `id="older"`)
	for i := linePageSize; i < linePageSize+5; i++ {
		if _, err := app.social.Post(bg(), "kate", fmt.Sprintf("tweet number %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for _, base := range []string{"/", "/public", "/users/kate"} {
		first := c.get(base)
		mustContain(t, first.body, "tweet number 44<", "tweet number 5<", `id="older"`)
		mustNotContain(t, first.body, "tweet number 4<")
		m := olderLink.FindStringSubmatch(first.body)
		if m == nil {
			t.Fatalf("%s: no older link", base)
		}
		second := c.get(strings.ReplaceAll(m[1], "&amp;", "&"))
		if second.status != http.StatusOK {
			t.Fatalf("%s older: %d", base, second.status)
		}
		mustContain(t, second.body, "tweet number 4<", "tweet number 0<")
		mustNotContain(t, second.body, "tweet number 5<", `id="older"`)
		if n := strings.Count(second.body, `class="tweet"`); n != 5 {
			t.Fatalf("%s older page holds %d tweets, want 5", base, n)
		}
	}
	r := c.get("/?start=garbage")
	if r.status != http.StatusBadRequest {
		t.Fatalf("bad cursor: %d", r.status)
	}
}

func TestFollowUnfollowPages(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	a, b := app.client(t), app.client(t)
	a.signUp("leo")
	b.signUp("mia")
	b.post("/tweets", url.Values{"body": {"mia was here"}})
	page := a.get("/users/mia")
	mustContain(t, page.body, `id="follow"`, "mia was here")
	r := a.post("/users/mia/follow", url.Values{"next": {"/users/mia"}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("follow: %d", r.status)
	}
	page = a.get("/users/mia")
	mustContain(t, page.body, "You now follow mia", `id="unfollow"`, `href="/users/leo">@leo`)
	mustContain(t, a.get("/").body, "mia was here")
	a.post("/users/mia/unfollow", url.Values{"next": {"/"}})
	home := a.get("/")
	mustContain(t, home.body, "You no longer follow mia")
	mustNotContain(t, home.body, "mia was here")
	// Following oneself or a ghost is a readable refusal.
	r = a.post("/users/leo/follow", nil)
	if r.status != http.StatusSeeOther {
		t.Fatalf("self follow: %d", r.status)
	}
	mustContain(t, a.get("/users/leo").body, "you cannot follow yourself")
	if r = a.post("/users/ghost/follow", nil); r.status != http.StatusNotFound {
		t.Fatalf("follow ghost: %d", r.status)
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	c.signUp("nina")
	for _, tc := range []struct {
		q      string
		status int
		want   string
	}{
		{"nina", 200, `href="/users/nina"`},
		{"Nina", 404, "No user is named “Nina”"},
		{"no such!", 400, "must be 1 to 30"},
		{"", 400, "is required"},
	} {
		r := c.get("/find?username=" + url.QueryEscape(tc.q))
		if r.status != tc.status {
			t.Fatalf("find %q: %d", tc.q, r.status)
		}
		mustContain(t, r.body, tc.want)
	}
}

func TestBlogPages(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	r := c.get("/blog/new")
	if r.status != http.StatusSeeOther {
		t.Fatalf("anonymous write form: %d", r.status)
	}
	c.signUp("paul")
	good := url.Values{"title": {"My new guitar"}, "slug": {"my-new-guitar"}, "tags": {"guitar, Music"}, "body": {"It is red.\nIt is loud."}}
	for _, tc := range []struct {
		name   string
		change func(url.Values)
		status int
		msg    string
	}{
		{"bad slug", func(v url.Values) { v.Set("slug", "Not A Slug") }, 400, "Slug: must be lowercase"},
		{"no title", func(v url.Values) { v.Del("title") }, 400, "Title: must not be empty"},
		{"bad tag", func(v url.Values) { v.Set("tags", "ok, __notag__") }, 400, "is reserved"},
		{"huge title", func(v url.Values) { v.Set("title", strings.Repeat("t", 201)) }, 400, "Title: must be at most 200"},
	} {
		form := url.Values{}
		for k, v := range good {
			form[k] = v
		}
		tc.change(form)
		r := c.post("/blog/new", form)
		if r.status != tc.status {
			t.Fatalf("%s: %d\n%s", tc.name, r.status, r.body)
		}
		mustContain(t, r.body, tc.msg, `id="publish-error"`, "It is red.")
	}
	if _, err := app.blog.GetEntry(bg(), "my-new-guitar"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a refused entry was stored: %v", err)
	}
	r = c.post("/blog/new", good)
	if r.status != http.StatusSeeOther || r.header.Get("Location") != "/blog/entries/my-new-guitar" {
		t.Fatalf("publish: %d %q\n%s", r.status, r.header.Get("Location"), r.body)
	}
	r = c.post("/blog/new", good)
	if r.status != http.StatusConflict {
		t.Fatalf("publish again: %d", r.status)
	}
	mustContain(t, r.body, "exists already")
	mustContain(t, c.get("/blog").body, "My new guitar", `href="/blog/tags/music"`, `href="/blog/authors/paul"`)
	mustContain(t, c.get("/blog/tags/music").body, "My new guitar")
	mustNotContain(t, c.get("/blog/tags/drums").body, "My new guitar")
	mustContain(t, c.get("/blog/authors/paul").body, "1 entry published")

	for _, tc := range []struct {
		name string
		form url.Values
		msg  string
		kept string
	}{
		{"no text", url.Values{"name": {"Quinn"}, "text": {" "}}, "Text: must not be empty", `value="Quinn"`},
		{"no name", url.Values{"text": {"nice guitar"}}, "Name: must not be empty", "nice guitar"},
		{"bad email", url.Values{"name": {"Quinn"}, "email": {"not-an-email"}, "text": {"nice guitar"}}, "Email: must look like", "not-an-email"},
		{"huge text", url.Values{"name": {"Quinn"}, "text": {strings.Repeat("w", 2001)}}, "Text: must be at most 2000", `value="Quinn"`},
	} {
		r := c.post("/blog/entries/my-new-guitar/comments", tc.form)
		if r.status != http.StatusBadRequest {
			t.Fatalf("comment %s: %d", tc.name, r.status)
		}
		mustContain(t, r.body, tc.msg, tc.kept, `id="comment-error"`)
	}
	cs, _ := app.blog.Comments(bg(), "my-new-guitar", "", 0)
	if len(cs.Comments) != 0 {
		t.Fatal("a refused comment was stored")
	}
	r = c.post("/blog/entries/my-new-guitar/comments", url.Values{"name": {"Quinn"}, "text": {"nice <guitar>"}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("comment: %d", r.status)
	}
	mustContain(t, c.get("/blog/entries/my-new-guitar").body, "nice &lt;guitar&gt;", "Quinn", "<p>It is loud.</p>")
	if r = c.post("/blog/entries/no-such-entry/comments", url.Values{"name": {"Q"}, "text": {"x"}}); r.status != http.StatusNotFound {
		t.Fatalf("comment on a missing entry: %d", r.status)
	}
}

func TestBlogOlderLink(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	if _, err := app.blog.PutAuthor(bg(), "Arin", nil); err != nil {
		t.Fatal(err)
	}
	for i := range blogPageSize + 1 {
		if _, err := app.blog.Publish(bg(), blog.Draft{Slug: fmt.Sprintf("entry-%d", i), Title: fmt.Sprintf("Entry %d", i), Body: "b", Author: "Arin"}); err != nil {
			t.Fatal(err)
		}
	}
	c := app.client(t)
	first := c.get("/blog")
	m := olderLink.FindStringSubmatch(first.body)
	if m == nil {
		t.Fatal("no older link on a blog of 11 entries")
	}
	second := c.get(m[1])
	mustContain(t, second.body, "Entry 0<")
	mustNotContain(t, second.body, "Entry 1<", `rel="next"`)
}

// The sign-in page has one heading of the first level and a second-level heading for each of
// its two forms, which name the forms' sections.
func TestLoginPageHeadings(t *testing.T) {
	t.Parallel()
	r := newApp(t, memoryStores()).client(t).get("/login")
	if n := strings.Count(r.body, "<h1"); n != 1 {
		t.Errorf("/login has %d h1", n)
	}
	mustContain(t, r.body, `<h1>Sign in or sign up</h1>`,
		`<section class="card" aria-labelledby="login-heading"><h2 id="login-heading">Sign in</h2>`,
		`<section class="card" aria-labelledby="signup-heading"><h2 id="signup-heading">Sign up</h2>`)
}
