package teach

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/cql3"
	"twissandra/adapters/memory"
	memteach "twissandra/adapters/memory/teach"
	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	wideteach "twissandra/adapters/widerow/teach"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/ports"
	"twissandra/ports/teaching"
	"twissandra/web"
	"twissandra/web/pages"
	"twissandra/web/site"
)

// testApp is a server with the pages and the teaching views on one backend, and the services
// behind it.
type testApp struct {
	srv    *httptest.Server
	social *social.Service
	blog   *blog.Service
}

type stores struct {
	users    ports.UserStore
	tweets   ports.TweetStore
	lines    ports.LineStore
	authors  ports.AuthorStore
	entries  ports.EntryStore
	tags     ports.TagIndex
	comments ports.CommentStore
	sessions ports.SessionStore
	node     *engine.Node // nil off widerow
	wide     teaching.WideRowInspector
	cql      teaching.CQLInspector
	locator  teaching.Locator
	claims   teaching.NameClaims
	sizes    teaching.RowSizer
	queryLab teaching.QueryLab
	ring     teaching.Ring
	// compareRing places keys on compare mode's second backend's ring.
	compareRing teaching.Ring
	// levels tries the consistency levels on the cql3 backend's cluster (cql3 only)
	levels teaching.ClusterLevels
	// compareSizes measures compare mode's second backend, compareBackend.
	compareSizes   teaching.RowSizer
	compareBackend string
	noLab          bool // serve without the comparator lab
	backend        string
	// clock is the use cases' clock (nil: the wall clock).
	clock domain.Clock
}

func memoryStores() stores {
	m, b := memory.New(), memory.NewBlog()
	return stores{users: m, tweets: m, lines: m, authors: b, entries: b, tags: b, comments: b, sessions: memory.NewSessions(),
		locator: memteach.Locator{Store: m, Blog: b}, sizes: memteach.Locator{Store: m, Blog: b}, claims: memteach.NewNameClaims(), backend: "memory",
		queryLab: memteach.Locator{Store: m, Blog: b}, ring: memteach.Locator{Store: m, Blog: b}}
}

func widerowStores(t testing.TB) stores {
	t.Helper()
	node, err := widerow.OpenNode(widerow.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node.Close() })
	s, b := widerow.NewStore(node), widerow.NewBlogStore(node)
	in := wideteach.NewInspector(node)
	return stores{users: s, tweets: s, lines: s, authors: b, entries: b, tags: b, comments: b, sessions: widerow.NewSessions(node),
		node: node, wide: in, locator: in, sizes: in, claims: wideteach.NewNameClaims(node), backend: "widerow", queryLab: in, ring: in}
}

// ports are the stores as one ports.Stores.
func (st stores) ports() ports.Stores {
	return ports.Stores{Users: st.users, Tweets: st.tweets, Lines: st.lines,
		Authors: st.authors, Entries: st.entries, Tags: st.tags, Comments: st.comments, Sessions: st.sessions}
}

// newApp serves the pages, the teaching views (and the JSON API) on st. Every store records its
// own operations (package oplog), as the server's do.
func newApp(t testing.TB, st stores) *testApp {
	t.Helper()
	hasher := domain.NewPasswordHasher(bcrypt.MinCost)
	svc := social.New(st.users, st.tweets, st.lines, st.clock, hasher)
	bl := blog.New(st.authors, st.entries, st.tags, st.comments, st.clock)
	access := social.NewAccess(svc, st.sessions, nil)
	cfg := web.Config{TokenSecret: []byte(strings.Repeat("k", 32))}
	if st.backend != "cql3" && st.compareBackend == "" {
		cfg.SessionRecheck = -1 // this process alone writes st, as serve on an embedded backend
	} else {
		// On a node a session is asked of the store again once a recheck has passed: an hour,
		// not serve's second, so that the operations a page costs (which tests count and compare
		// between runs) do not depend on how long a run took on a loaded machine. web's tests
		// hold the recheck itself.
		cfg.SessionRecheck = time.Hour
	}
	s, err := web.NewServer(cfg, web.Deps{Social: svc, Access: access})
	if err != nil {
		t.Fatal(err)
	}
	var lab *wideteach.Lab
	if !st.noLab {
		lab = testLab(t)
	}
	frame, err := site.New(s, site.Config{Blog: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := pages.Register(frame, pages.Deps{Social: svc, Blog: bl, Access: access}); err != nil {
		t.Fatal(err)
	}
	if err := Register(frame, Deps{Social: svc, Blog: bl, Backend: st.backend, Wide: st.wide, CQL: st.cql, Locator: st.locator,
		StorageConf: engine.DefaultSchemaXML, Lab: lab, Consistency: lab, ClusterLevels: st.levels, Claims: st.claims, Sizes: st.sizes,
		CompareSizes: st.compareSizes, CompareBackend: st.compareBackend, QueryFirstDDL: cql3.SchemaText(), QueryLab: st.queryLab, Ring: st.ring, CompareRing: st.compareRing}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Engine)
	t.Cleanup(srv.Close)
	return &testApp{srv: srv, social: svc, blog: bl}
}

// testLab is a comparator lab of its own, closed with the test.
func testLab(t testing.TB) *wideteach.Lab {
	t.Helper()
	l, err := wideteach.NewLab()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// client is a browser-like HTTP client: a cookie jar, no redirect following unless asked.
type client struct {
	t    testing.TB
	app  *testApp
	http *http.Client
}

func (a *testApp) client(t testing.TB) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, app: a, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

type response struct {
	status int
	header http.Header
	body   string
}

func (c *client) do(req *http.Request) response {
	c.t.Helper()
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{res.StatusCode, res.Header, string(b)}
}

func (c *client) get(path string) response {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.app.srv.URL+path, nil)
	req.Header.Set("Accept", "text/html")
	return c.do(req)
}

// post sends a form as is (no CSRF token added).
func (c *client) postRaw(path string, form url.Values) response {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.app.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req)
}

var csrfPattern = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// csrf loads a page and returns the form token in it.
func (c *client) csrf() string {
	c.t.Helper()
	r := c.get("/login")
	m := csrfPattern.FindStringSubmatch(r.body)
	if m == nil {
		r = c.get("/")
		m = csrfPattern.FindStringSubmatch(r.body)
	}
	if m == nil {
		c.t.Fatalf("no CSRF token in page:\n%s", r.body)
	}
	return m[1]
}

// post sends a form with the session's CSRF token.
func (c *client) post(path string, form url.Values) response {
	c.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	form.Set(site.CSRFField, c.csrf())
	return c.postRaw(path, form)
}

func (c *client) signUp(name string) {
	c.t.Helper()
	r := c.post("/signup", url.Values{"username": {name}, "password": {"password1"}, "password2": {"password1"}})
	if r.status != http.StatusSeeOther {
		c.t.Fatalf("sign up %s: status %d\n%s", name, r.status, r.body)
	}
}

func mustContain(t testing.TB, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Fatalf("page lacks %q:\n%s", w, body)
		}
	}
}

func mustNotContain(t testing.TB, body string, nots ...string) {
	t.Helper()
	for _, n := range nots {
		if strings.Contains(body, n) {
			t.Fatalf("page holds %q:\n%s", n, body)
		}
	}
}

func bg() context.Context { return context.Background() }
