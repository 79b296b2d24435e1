package pages

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/internal/testkit/webkit"
	"twissandra/web"
	"twissandra/web/site"
)

func TestSignUpLogInLogOut(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	c := app.Client(t)
	c.SignUp("alice")
	home := c.Get("/")
	webkit.MustContain(t, home.Body, "Welcome, alice", "Your timeline", `id="post-form"`, "@alice")
	r := c.Post("/logout", nil)
	if r.Status != http.StatusSeeOther {
		t.Fatalf("log out: %d", r.Status)
	}
	home = c.Get("/")
	webkit.MustContain(t, home.Body, "You are signed out", "Public timeline")
	webkit.MustNotContain(t, home.Body, `id="post-form"`)

	r = c.Post("/login", url.Values{"username": {"alice"}, "password": {"password1"}, "next": {"/public"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/public" {
		t.Fatalf("log in: %d %q", r.Status, r.Header.Get("Location"))
	}
	// An off-site "next" is not followed.
	c.Post("/logout", nil)
	r = c.Post("/login", url.Values{"username": {"alice"}, "password": {"password1"}, "next": {"//evil.example/"}})
	if r.Header.Get("Location") != "/" {
		t.Fatalf("next=//evil: redirected to %q", r.Header.Get("Location"))
	}
}

func TestSessionCookieAttributes(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	c := app.Client(t)
	r := c.Get("/login")
	var found bool
	for _, sc := range r.Header.Values("Set-Cookie") {
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
		t.Fatalf("no session cookie set: %v", r.Header.Values("Set-Cookie"))
	}
	c.SignUp("bob")
	u, _ := url.Parse(app.Srv.URL)
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		if strings.Contains(ck.Value, "bob") {
			t.Fatalf("the session cookie shows its content: %q", ck.Value)
		}
		// A tampered cookie is no session at all.
		ck.Value = "x" + ck.Value[1:]
		c.HTTP.Jar.SetCookies(u, []*http.Cookie{ck})
	}
	webkit.MustNotContain(t, c.Get("/").Body, "@bob")
}

// Behind a trusted proxy that says the client came over HTTPS, the session cookie is Secure;
// the same header from anyone else changes nothing.
func TestSessionCookieSecureBehindTrustedProxy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		trusted []string
		secure  bool
	}{{[]string{"127.0.0.1"}, true}, {[]string{"10.0.0.0/8"}, false}, {nil, false}} {
		app := newAppWith(t, webkit.MemoryStores(), web.Config{TrustedProxies: tc.trusted})
		req, _ := http.NewRequest(http.MethodGet, app.Srv.URL+"/login", nil)
		req.Header.Set("X-Forwarded-Proto", "https")
		r := app.Client(t).Do(req)
		var cookie string
		for _, sc := range r.Header.Values("Set-Cookie") {
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
	app := newApp(t, webkit.MemoryStores())
	c := app.Client(t)
	c.SignUp("bob")
	c.Post("/logout", nil)
	for _, next := range []string{"/\t/evil.example", "/\n/evil.example", "//evil.example", "/\\evil.example"} {
		r := c.Post("/login", url.Values{"username": {"bob"}, "password": {"password1"}, "next": {next}})
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/" {
			t.Errorf("next %q: %d to %q", next, r.Status, r.Header.Get("Location"))
		}
		c.Post("/logout", nil)
	}
}

func TestSignUpBadInput(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	taken := app.Client(t)
	taken.SignUp("taken")
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
			c := app.Client(t)
			r := c.Post("/signup", tc.form)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d\n%s", r.Status, tc.status, r.Body)
			}
			webkit.MustContain(t, r.Body, tc.message, `id="signup-error"`)
			if tc.kept != "" {
				webkit.MustContain(t, r.Body, tc.kept)
			}
			if pw := tc.form.Get("password"); pw != "" {
				webkit.MustNotContain(t, r.Body, pw)
			}
			if tc.notCreated != "" {
				if _, err := app.Social.GetUser(webkit.BG(), tc.notCreated); !errors.Is(err, domain.ErrNotFound) {
					t.Fatalf("user %s exists after a refused sign-up (err %v)", tc.notCreated, err)
				}
			}
			webkit.MustNotContain(t, c.Get("/").Body, "Your timeline")
		})
	}
}

func TestLogInBadInputAndThrottle(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	app.Client(t).SignUp("gina")
	c := app.Client(t)
	r := c.Post("/login", url.Values{"username": {"gina"}})
	if r.Status != http.StatusBadRequest {
		t.Fatalf("missing password: %d", r.Status)
	}
	webkit.MustContain(t, r.Body, "Enter your username and your password", `value="gina"`)
	for i := range social.LoginLimit {
		r = c.Post("/login", url.Values{"username": {"gina"}, "password": {"wrong-password"}})
		if r.Status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: status %d", i, r.Status)
		}
		webkit.MustContain(t, r.Body, "Wrong username or password", `value="gina"`)
		webkit.MustNotContain(t, r.Body, "wrong-password")
	}
	r = c.Post("/login", url.Values{"username": {"gina"}, "password": {"password1"}})
	if r.Status != http.StatusTooManyRequests {
		t.Fatalf("after %d failures: status %d, want 429", social.LoginLimit, r.Status)
	}
	webkit.MustContain(t, r.Body, "Too many sign-in attempts")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	webkit.MustNotContain(t, c.Get("/").Body, "Your timeline")
}

func TestPostBadInput(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	anon := app.Client(t)
	r := anon.Post("/tweets", url.Values{"body": {"hello"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/login" {
		t.Fatalf("anonymous post: %d %q", r.Status, r.Header.Get("Location"))
	}
	c := app.Client(t)
	c.SignUp("hank")
	tooLong := strings.Repeat("é", domain.MaxTweetLen+1)
	for _, tc := range []struct{ name, body, msg string }{
		{"empty", "   ", "Body: must not be empty"},
		{"too long", tooLong, "Body: must be at most 140 characters (got 141)"},
	} {
		r := c.Post("/tweets", url.Values{"body": {tc.body}})
		if r.Status != http.StatusBadRequest {
			t.Fatalf("%s: status %d", tc.name, r.Status)
		}
		webkit.MustContain(t, r.Body, tc.msg, `id="post-error"`)
		if strings.TrimSpace(tc.body) != "" {
			webkit.MustContain(t, r.Body, tc.body)
		}
	}
	page, _ := app.Social.PublicLine(webkit.BG(), "", 0)
	if len(page.Tweets) != 0 {
		t.Fatalf("refused posts were stored: %v", page.Tweets)
	}
	// A body over the server's limit is refused before it is read.
	r = c.PostRaw("/tweets", url.Values{"body": {strings.Repeat("x", 70<<10)}})
	if r.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("huge body: %d", r.Status)
	}
	r = c.Post("/tweets", url.Values{"body": {"  <b>hi</b> & bye  "}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("post: %d\n%s", r.Status, r.Body)
	}
	home := c.Get("/")
	webkit.MustContain(t, home.Body, "Posted.", "&lt;b&gt;hi&lt;/b&gt; &amp; bye")
}

func TestCSRF(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	c := app.Client(t)
	c.SignUp("ivan")
	for _, tc := range []struct {
		name string
		tok  string
	}{{"missing", ""}, {"wrong", "AAAA"}} {
		form := url.Values{"body": {"forged"}}
		if tc.tok != "" {
			form.Set(site.CSRFField, tc.tok)
		}
		r := c.PostRaw("/tweets", form)
		if r.Status != http.StatusForbidden {
			t.Fatalf("%s token: status %d", tc.name, r.Status)
		}
		webkit.MustContain(t, r.Body, "Form expired or forged", "nothing was done")
	}
	// A token from another session is no good either.
	other := app.Client(t)
	r := c.PostRaw("/tweets", url.Values{"body": {"forged"}, site.CSRFField: {other.CSRF()}})
	if r.Status != http.StatusForbidden {
		t.Fatalf("other session's token: %d", r.Status)
	}
	page, _ := app.Social.PublicLine(webkit.BG(), "", 0)
	if len(page.Tweets) != 0 {
		t.Fatal("a forged post was stored")
	}
	// The token changes at log-in: one seen before is refused after.
	anon := app.Client(t)
	before := anon.CSRF()
	anon.SignUp("judy")
	r = anon.PostRaw("/tweets", url.Values{"body": {"x"}, site.CSRFField: {before}})
	if r.Status != http.StatusForbidden {
		t.Fatalf("pre-login token after login: %d", r.Status)
	}
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	c := app.Client(t)
	for _, path := range []string{"/nope", "/users/ghost", "/users/bad%20name", "/users/ghost/friends", "/blog/entries/nope", "/blog/entries/Bad_Slug", "/blog/authors/Nobody", "/blog/tags/UPPER_"} {
		r := c.Get(path)
		if r.Status != http.StatusNotFound {
			t.Fatalf("%s: status %d", path, r.Status)
		}
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("%s: content type %q", path, ct)
		}
		webkit.MustContain(t, r.Body, "<h1>", "Go to the home page")
	}
	r := c.Get("/api/v1/nope")
	var body struct{ Error string }
	if r.Status != http.StatusNotFound || json.Unmarshal([]byte(r.Body), &body) != nil || body.Error != "not_found" {
		t.Fatalf("API 404: %d %s", r.Status, r.Body)
	}
	req, _ := http.NewRequest(http.MethodDelete, app.Srv.URL+"/login", nil)
	r = c.Do(req)
	if r.Status != http.StatusMethodNotAllowed || !strings.Contains(r.Body, "Not allowed") {
		t.Fatalf("HTML 405: %d %s", r.Status, r.Body)
	}
}

// A user's page reads the user once (social.Profile), then the userline and both follow lists;
// a cursor it cannot read is a 400, as on the other lines.
func TestUserPageReadsTheUserOnce(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	c := app.Client(t)
	c.SignUp("bob")
	r := c.Get("/users/bob")
	if ops := webkit.OpCounts(t, r.Header.Get(web.StorageOpsHeader)); r.Status != http.StatusOK || ops["get"] != 1 || ops["slice"] != 3 {
		t.Fatalf("user page: %d, Storage-Ops %q: want get=1 (the user) and slice=3 (the userline, both follow lists)",
			r.Status, r.Header.Get(web.StorageOpsHeader))
	}
	if r := c.Get("/users/bob?start=not-a-cursor"); r.Status != http.StatusBadRequest {
		t.Fatalf("bad cursor: %d", r.Status)
	}
}

func TestPagingExact(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	c := app.Client(t)
	c.SignUp("kate")
	for i := range linePageSize {
		if _, err := app.Social.Post(webkit.BG(), "kate", fmt.Sprintf("tweet number %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	// Exactly one page: no "Older" link.
	webkit.MustNotContain(t, c.Get("/").Body, `id="older"`)
	for i := linePageSize; i < linePageSize+5; i++ {
		if _, err := app.Social.Post(webkit.BG(), "kate", fmt.Sprintf("tweet number %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for _, base := range []string{"/", "/public", "/users/kate"} {
		first := c.Get(base)
		webkit.MustContain(t, first.Body, "tweet number 44<", "tweet number 5<", `id="older"`)
		webkit.MustNotContain(t, first.Body, "tweet number 4<")
		m := olderLink.FindStringSubmatch(first.Body)
		if m == nil {
			t.Fatalf("%s: no older link", base)
		}
		second := c.Get(strings.ReplaceAll(m[1], "&amp;", "&"))
		if second.Status != http.StatusOK {
			t.Fatalf("%s older: %d", base, second.Status)
		}
		webkit.MustContain(t, second.Body, "tweet number 4<", "tweet number 0<")
		webkit.MustNotContain(t, second.Body, "tweet number 5<", `id="older"`)
		if n := strings.Count(second.Body, `class="tweet"`); n != 5 {
			t.Fatalf("%s older page holds %d tweets, want 5", base, n)
		}
	}
	r := c.Get("/?start=garbage")
	if r.Status != http.StatusBadRequest {
		t.Fatalf("bad cursor: %d", r.Status)
	}
}

func TestFollowUnfollowPages(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	a, b := app.Client(t), app.Client(t)
	a.SignUp("leo")
	b.SignUp("mia")
	b.Post("/tweets", url.Values{"body": {"mia was here"}})
	page := a.Get("/users/mia")
	webkit.MustContain(t, page.Body, `id="follow"`, "mia was here")
	r := a.Post("/users/mia/follow", url.Values{"next": {"/users/mia"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("follow: %d", r.Status)
	}
	page = a.Get("/users/mia")
	webkit.MustContain(t, page.Body, "You now follow mia", `id="unfollow"`, `href="/users/leo">@leo`)
	webkit.MustContain(t, a.Get("/").Body, "mia was here")
	a.Post("/users/mia/unfollow", url.Values{"next": {"/"}})
	home := a.Get("/")
	webkit.MustContain(t, home.Body, "You no longer follow mia")
	webkit.MustNotContain(t, home.Body, "mia was here")
	// Following oneself or a ghost is a readable refusal.
	r = a.Post("/users/leo/follow", nil)
	if r.Status != http.StatusSeeOther {
		t.Fatalf("self follow: %d", r.Status)
	}
	webkit.MustContain(t, a.Get("/users/leo").Body, "you cannot follow yourself")
	if r = a.Post("/users/ghost/follow", nil); r.Status != http.StatusNotFound {
		t.Fatalf("follow ghost: %d", r.Status)
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	c := app.Client(t)
	c.SignUp("nina")
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
		r := c.Get("/find?username=" + url.QueryEscape(tc.q))
		if r.Status != tc.status {
			t.Fatalf("find %q: %d", tc.q, r.Status)
		}
		webkit.MustContain(t, r.Body, tc.want)
	}
}

func TestBlogPages(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	c := app.Client(t)
	r := c.Get("/blog/new")
	if r.Status != http.StatusSeeOther {
		t.Fatalf("anonymous write form: %d", r.Status)
	}
	c.SignUp("paul")
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
		r := c.Post("/blog/new", form)
		if r.Status != tc.status {
			t.Fatalf("%s: %d\n%s", tc.name, r.Status, r.Body)
		}
		webkit.MustContain(t, r.Body, tc.msg, `id="publish-error"`, "It is red.")
	}
	if _, err := app.Blog.GetEntry(webkit.BG(), "my-new-guitar"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a refused entry was stored: %v", err)
	}
	r = c.Post("/blog/new", good)
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/blog/entries/my-new-guitar" {
		t.Fatalf("publish: %d %q\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	r = c.Post("/blog/new", good)
	if r.Status != http.StatusConflict {
		t.Fatalf("publish again: %d", r.Status)
	}
	webkit.MustContain(t, r.Body, "exists already")
	webkit.MustContain(t, c.Get("/blog").Body, "My new guitar", `href="/blog/tags/music"`, `href="/blog/authors/paul"`)
	webkit.MustContain(t, c.Get("/blog/tags/music").Body, "My new guitar")
	webkit.MustNotContain(t, c.Get("/blog/tags/drums").Body, "My new guitar")
	webkit.MustContain(t, c.Get("/blog/authors/paul").Body, "1 entry published")

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
		r := c.Post("/blog/entries/my-new-guitar/comments", tc.form)
		if r.Status != http.StatusBadRequest {
			t.Fatalf("comment %s: %d", tc.name, r.Status)
		}
		webkit.MustContain(t, r.Body, tc.msg, tc.kept, `id="comment-error"`)
	}
	cs, _ := app.Blog.Comments(webkit.BG(), "my-new-guitar", "", 0)
	if len(cs.Comments) != 0 {
		t.Fatal("a refused comment was stored")
	}
	r = c.Post("/blog/entries/my-new-guitar/comments", url.Values{"name": {"Quinn"}, "text": {"nice <guitar>"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("comment: %d", r.Status)
	}
	webkit.MustContain(t, c.Get("/blog/entries/my-new-guitar").Body, "nice &lt;guitar&gt;", "Quinn", "<p>It is loud.</p>")
	if r = c.Post("/blog/entries/no-such-entry/comments", url.Values{"name": {"Q"}, "text": {"x"}}); r.Status != http.StatusNotFound {
		t.Fatalf("comment on a missing entry: %d", r.Status)
	}
}

func TestBlogOlderLink(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	if _, err := app.Blog.PutAuthor(webkit.BG(), "Arin", nil); err != nil {
		t.Fatal(err)
	}
	for i := range blogPageSize + 1 {
		if _, err := app.Blog.Publish(webkit.BG(), blog.Draft{Slug: fmt.Sprintf("entry-%d", i), Title: fmt.Sprintf("Entry %d", i), Body: "b", Author: "Arin"}); err != nil {
			t.Fatal(err)
		}
	}
	c := app.Client(t)
	first := c.Get("/blog")
	m := olderLink.FindStringSubmatch(first.Body)
	if m == nil {
		t.Fatal("no older link on a blog of 11 entries")
	}
	second := c.Get(m[1])
	webkit.MustContain(t, second.Body, "Entry 0<")
	webkit.MustNotContain(t, second.Body, "Entry 1<", `rel="next"`)
}

// The sign-in page has one heading of the first level and a second-level heading for each of
// its two forms, which name the forms' sections.
func TestLoginPageHeadings(t *testing.T) {
	t.Parallel()
	r := newApp(t, webkit.MemoryStores()).Client(t).Get("/login")
	if n := strings.Count(r.Body, "<h1"); n != 1 {
		t.Errorf("/login has %d h1", n)
	}
	webkit.MustContain(t, r.Body, `<h1>Sign in or sign up</h1>`,
		`<section class="card" aria-labelledby="login-heading"><h2 id="login-heading">Sign in</h2>`,
		`<section class="card" aria-labelledby="signup-heading"><h2 id="signup-heading">Sign up</h2>`)
}
