package site

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/web"
)

// teacher records what the site tells it and answers a banner and a footer of its own.
type teacher struct {
	mu       sync.Mutex
	banner   string // written as it is; "" for none
	footer   string // written as it is
	fail     bool
	acted    []string
	measured []Measured
}

func (t *teacher) Banner(*gin.Context) templ.Component {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.banner == "" {
		return nil
	}
	banner := t.banner
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, banner)
		return err
	})
}

func (t *teacher) Footer(*gin.Context) templ.Component {
	t.mu.Lock()
	defer t.mu.Unlock()
	fail, footer := t.fail, t.footer
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		if fail {
			return errors.New("no footer")
		}
		_, err := io.WriteString(w, footer)
		return err
	})
}

func (t *teacher) Acted(_ *gin.Context, action string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.acted = append(t.acted, action)
}

func (t *teacher) Measured(_ *gin.Context, kind Measured) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.measured = append(t.measured, kind)
}

// told is what the teacher was told so far.
func (t *teacher) told() (acted []string, measured []Measured) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.acted), slices.Clone(t.measured)
}

// newSite serves pages of its own on a site: hello, and broken, whose content fails to render.
func newSite(t *testing.T) (*Site, *httptest.Server) {
	t.Helper()
	m := memory.New()
	svc := social.New(m, m, m, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	s, err := web.NewServer(web.Config{TokenSecret: []byte(strings.Repeat("k", 32))}, web.Deps{Social: svc, Access: social.NewAccess(svc, memory.NewSessions(), nil)})
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(s, Config{})
	if err != nil {
		t.Fatal(err)
	}
	text := func(html string) templ.Component {
		return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
			_, err := io.WriteString(w, html)
			return err
		})
	}
	broken := templ.ComponentFunc(func(context.Context, io.Writer) error { return errors.New("no such field") })
	g := st.Routes()
	g.GET("hello", func(c *gin.Context) {
		st.Render(c, http.StatusOK, Page{Title: "Hello", Content: text("<h1>hi there</h1>")})
	})
	g.GET("broken", func(c *gin.Context) { st.Render(c, http.StatusOK, Page{Title: "Broken", Content: broken}) })
	g.GET("component", func(c *gin.Context) {
		st.Render(c, http.StatusOK, Page{Title: "Component", Content: templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
			_, err := io.WriteString(w, "<h1>a component</h1>")
			return err
		})})
	})
	g.GET("measured", func(c *gin.Context) {
		Measure(c, HomeTimelinePage)
		st.Render(c, http.StatusOK, Page{Title: "Hello", Content: text("<h1>measured</h1>")})
	})
	g.GET("acted", func(c *gin.Context) {
		Measure(c, Post)
		st.Redirect(c, "/hello", "your thing")
	})
	g.GET("moved", func(c *gin.Context) { st.Redirect(c, "/hello", "") })
	g.GET("panic", func(*gin.Context) { panic("kaboom") })
	srv := httptest.NewServer(s.Engine)
	t.Cleanup(srv.Close)
	return st, srv
}

func get(t *testing.T, srv *httptest.Server, path string) (*http.Response, string) {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

func TestRenderWithoutTeacher(t *testing.T) {
	t.Parallel()
	_, srv := newSite(t)
	res, body := get(t, srv, "/hello")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "<h1>hi there</h1>") || !strings.Contains(body, "<title>Hello · Twissandra</title>") {
		t.Fatalf("hello: %d\n%s", res.StatusCode, body)
	}
	if !strings.Contains(body, "<footer><p class=\"muted\">Twissandra in Go:") {
		t.Errorf("the footer without a teacher:\n%s", body)
	}
	// The first thing in the body, and so the first a keyboard reaches, is the link to the
	// content: the main element, which the link's target names.
	if _, after, _ := strings.Cut(body, "<body>"); !strings.HasPrefix(after, `<a class="skip-link" href="#content">Skip to content</a><header`) ||
		!strings.Contains(body, `<main id="content" tabindex="-1"><h1>hi there</h1></main>`) {
		t.Errorf("the skip link and its target:\n%s", body)
	}
	for h, want := range map[string]string{
		"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
		"Cache-Control":           "no-store",
		"X-Frame-Options":         "DENY",
		"Content-Type":            "text/html; charset=utf-8",
		web.StorageOpsHeader:      "0 ops",
	} {
		if got := res.Header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
	res, body = get(t, srv, "/broken")
	if res.StatusCode != http.StatusInternalServerError || strings.Contains(body, "<footer>") || !strings.Contains(body, "Something went wrong") {
		t.Fatalf("a failing template: %d\n%s", res.StatusCode, body)
	}
	res, body = get(t, srv, "/panic")
	if res.StatusCode != http.StatusInternalServerError || !strings.Contains(body, "The page could not be built") || !strings.Contains(body, "<footer>") {
		t.Fatalf("a panic: %d\n%s", res.StatusCode, body)
	}
	res, body = get(t, srv, "/nowhere")
	if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "There is no page at /nowhere.") {
		t.Fatalf("404: %d\n%s", res.StatusCode, body)
	}
	if res, _ = get(t, srv, "/hello/"); res.StatusCode != http.StatusMovedPermanently || res.Header.Get("Location") != "/hello" {
		t.Fatalf("trailing slash: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ = get(t, srv, "/acted"); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/hello" {
		t.Fatalf("redirect: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
}

// The teacher's footer heads the layout's footer; the site tells it what the handlers said, and
// nothing more.
func TestTeacherHooks(t *testing.T) {
	t.Parallel()
	st, srv := newSite(t)
	tt := &teacher{footer: `<p id="lesson">what it cost</p>`}
	st.Teach(tt)
	_, body := get(t, srv, "/hello")
	if !strings.Contains(body, `<footer><p id="lesson">what it cost</p><p class="muted">Twissandra in Go:`) {
		t.Fatalf("the teacher's footer:\n%s", body)
	}
	if _, body := get(t, srv, "/component"); !strings.Contains(body, `<footer><p id="lesson">what it cost</p><p class="muted">Twissandra in Go:`) {
		t.Fatalf("the teacher's footer on a templ page:\n%s", body)
	}
	if acted, measured := tt.told(); len(acted) != 0 || len(measured) != 0 {
		t.Fatalf("a plain page told the teacher %v %v", acted, measured)
	}
	// A banner opens the main content, before the page's own.
	tt.mu.Lock()
	tt.banner = `<div id="banner">the models disagree</div>`
	tt.mu.Unlock()
	if _, body := get(t, srv, "/hello"); !strings.Contains(body, `<main id="content" tabindex="-1"><div id="banner">the models disagree</div><h1>hi there</h1>`) {
		t.Fatalf("the teacher's banner:\n%s", body)
	}
	tt.mu.Lock()
	tt.banner = ""
	tt.mu.Unlock()
	get(t, srv, "/measured")
	if acted, measured := tt.told(); len(measured) != 1 || measured[0] != HomeTimelinePage || len(acted) != 0 {
		t.Fatalf("a measured page: %v %v", acted, measured)
	}
	get(t, srv, "/acted")
	if acted, measured := tt.told(); len(measured) != 2 || measured[1] != Post || len(acted) != 1 || acted[0] != "your thing" {
		t.Fatalf("an action: %v %v", acted, measured)
	}
	get(t, srv, "/moved")
	if acted, measured := tt.told(); len(acted) != 1 || len(measured) != 2 {
		t.Fatalf("a plain redirect: %v %v", acted, measured)
	}
	tt.mu.Lock()
	tt.fail = true
	tt.mu.Unlock()
	for path, content := range map[string]string{"/hello": "hi there", "/component": "a component"} {
		res, body := get(t, srv, path)
		if res.StatusCode != http.StatusInternalServerError || strings.Contains(body, content) {
			t.Fatalf("%s with a failing footer: %d\n%s", path, res.StatusCode, body)
		}
	}
}

func TestSafeNextAndSentence(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "/", "/public": "/public", "//evil.example/": "/", "/\\evil": "/", "https://evil.example/": "/",
		// A browser drops tabs and line breaks and reads "\\" as "/": each of these is another host.
		"/\t/evil.example": "/", "/\n/evil.example": "/", "/\r//evil.example": "/", "/x\\/evil": "/", "/\x7f/": "/",
		"/users/bob?start=x&back=y": "/users/bob?start=x&back=y"} {
		if got := SafeNext(in); got != want {
			t.Errorf("SafeNext(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"": "", "body: must not be empty": "Body: must not be empty.", "Done.": "Done."} {
		if got := Sentence(in); got != want {
			t.Errorf("Sentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOversizedFormGetsAPage posts a form body over the server's limit to a page: the answer is
// the pages' 413, an HTML page with the pages' headers, and the API's path still answers JSON.
func TestOversizedFormGetsAPage(t *testing.T) {
	_, srv := newSite(t)
	body := "x=" + strings.Repeat("a", 100<<10)
	for _, tc := range []struct{ path, ctype string }{
		{"/hello", "text/html; charset=utf-8"},
		{"/api/v1/tweets", "application/json; charset=utf-8"},
	} {
		res, err := http.Post(srv.URL+tc.path, "application/x-www-form-urlencoded", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("POST %s of %d bytes: %d, want 413", tc.path, len(body), res.StatusCode)
		}
		if got := res.Header.Get("Content-Type"); got != tc.ctype {
			t.Errorf("POST %s of %d bytes: Content-Type %q, want %q", tc.path, len(body), got, tc.ctype)
		}
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("POST %s: X-Content-Type-Options %q", tc.path, got)
		}
		if strings.HasPrefix(tc.ctype, "text/html") {
			if res.Header.Get("Content-Security-Policy") == "" {
				t.Errorf("POST %s: the 413 page has no Content-Security-Policy", tc.path)
			}
			if !strings.Contains(string(b), "<html") || !strings.Contains(strings.ToLower(string(b)), "too large") {
				t.Errorf("POST %s: the 413 is not a readable page: %.300s", tc.path, b)
			}
		}
	}
}

// TestEveryResponseSaysNoSniff asks for an API answer, a static file, the metrics and a page.
func TestEveryResponseSaysNoSniff(t *testing.T) {
	_, srv := newSite(t)
	for _, path := range []string{"/api/v1/public", "/static/style.css", "/metrics", "/hello", "/no-such-page", "/api/v1/nothing"} {
		res, _ := get(t, srv, path)
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s (%d): X-Content-Type-Options %q, want nosniff", path, res.StatusCode, got)
		}
	}
}
