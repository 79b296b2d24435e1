package webkit

import (
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"twissandra/web/site"
)

// Client is a browser-like HTTP client: a cookie jar, no redirect following unless asked.
type Client struct {
	t testing.TB
	// App is the server it browses; HTTP, its client with the cookie jar.
	App  *App
	HTTP *http.Client
}

// Client is a new browser of a's pages, with cookies of its own.
func (a *App) Client(t testing.TB) *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{t: t, App: a, HTTP: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

// Response is what a request answered.
type Response struct {
	Status int
	Header http.Header
	Body   string
}

// Do sends req, failing the test if it cannot.
func (c *Client) Do(req *http.Request) Response {
	c.t.Helper()
	res, err := c.HTTP.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return Response{res.StatusCode, res.Header, string(b)}
}

// Get asks for a page.
func (c *Client) Get(path string) Response {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.App.Srv.URL+path, nil)
	req.Header.Set("Accept", "text/html")
	return c.Do(req)
}

// PostRaw sends a form as is (no CSRF token added).
func (c *Client) PostRaw(path string, form url.Values) Response {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.App.Srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.Do(req)
}

var csrfPattern = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// CSRF loads a page and returns the form token in it.
func (c *Client) CSRF() string {
	c.t.Helper()
	r := c.Get("/login")
	m := csrfPattern.FindStringSubmatch(r.Body)
	if m == nil {
		r = c.Get("/")
		m = csrfPattern.FindStringSubmatch(r.Body)
	}
	if m == nil {
		c.t.Fatalf("no CSRF token in page:\n%s", r.Body)
	}
	return m[1]
}

// Post sends a form with the session's CSRF token.
func (c *Client) Post(path string, form url.Values) Response {
	c.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	form.Set(site.CSRFField, c.CSRF())
	return c.PostRaw(path, form)
}

// SignUp signs up name (password "password1"), who is signed in from then on.
func (c *Client) SignUp(name string) {
	c.t.Helper()
	r := c.Post("/signup", url.Values{"username": {name}, "password": {"password1"}, "password2": {"password1"}})
	if r.Status != http.StatusSeeOther {
		c.t.Fatalf("sign up %s: status %d\n%s", name, r.Status, r.Body)
	}
}

// MustContain fails the test unless body holds every one of wants.
func MustContain(t testing.TB, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Fatalf("page lacks %q:\n%s", w, body)
		}
	}
}

// MustNotContain fails the test if body holds any of nots.
func MustNotContain(t testing.TB, body string, nots ...string) {
	t.Helper()
	for _, n := range nots {
		if strings.Contains(body, n) {
			t.Fatalf("page holds %q:\n%s", n, body)
		}
	}
}

// Submit posts a form as a browser does: it expects the redirect of post-redirect-get back to
// want (the page, then its anchor), and follows it.
func (c *Client) Submit(path string, form url.Values, want string) Response {
	c.t.Helper()
	r := c.Post(path, form)
	loc := r.Header.Get("Location")
	if r.Status != http.StatusSeeOther || !strings.HasPrefix(loc, want) {
		c.t.Fatalf("POST %s: %d to %q, want 303 to %s\n%s", path, r.Status, loc, want, r.Body)
	}
	page, _, _ := strings.Cut(loc, "#")
	return c.Get(page)
}

// LessonPage gets a page (a lesson) and fails unless it answers 200; it returns the page with
// its HTML entities unescaped.
func (c *Client) LessonPage(path string) string {
	c.t.Helper()
	r := c.Get(path)
	if r.Status != http.StatusOK {
		c.t.Fatalf("GET %s: %d\n%s", path, r.Status, r.Body)
	}
	return html.UnescapeString(r.Body)
}

// OpCount is how many calls of verb a Storage-Ops header ("3 ops: pulled=1 slice=1 multiget=1")
// counts: 0 for a verb it does not name. A test says what it means with it (the slices a page
// reads), and does not break on another verb or a new note.
func OpCount(header, verb string) int {
	_, counts, _ := strings.Cut(header, ": ")
	for _, f := range strings.Fields(counts) {
		if v, n, ok := strings.Cut(f, "="); ok && v == verb {
			c, err := strconv.Atoi(n)
			if err != nil {
				return -1
			}
			return c
		}
	}
	return 0
}

// OpCounts reads a Storage-Ops summary ("4 ops: get=1 slice=3", or "0 ops") into the count of
// each kind of operation, so that a test says which operations it means and a kind it is not
// about (a new note) breaks it not. The summary must be well formed: its total the sum of its
// counts (OpCount reads one kind, leniently). web's own tests keep a copy: they cannot import
// this kit, which imports web.
func OpCounts(t testing.TB, summary string) map[string]int {
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
