package reliability

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/adapters/widerow"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/ports"
	"twissandra/web"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

// backends builds the stores of each adapter: memory, and widerow on disk in batch mode.
var backends = []backend{
	{"memory", func(t testing.TB) ports.Stores {
		s := memory.New()
		b := memory.NewBlog()
		return ports.Stores{Users: s, Tweets: s, Lines: s, Authors: b, Entries: b, Tags: b, Comments: b, Sessions: memory.NewSessions()}
	}},
	{"widerow", func(t testing.TB) ports.Stores {
		node, err := widerow.OpenNode(widerow.Config{DataDir: t.TempDir(), CommitLogSync: "batch"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { node.Close() })
		s := widerow.NewStore(node)
		b := widerow.NewBlogStore(node)
		return ports.Stores{Users: s, Tweets: s, Lines: s, Authors: b, Entries: b, Tags: b, Comments: b, Sessions: widerow.NewSessions(node)}
	}},
}

type backend struct {
	name   string
	stores func(t testing.TB) ports.Stores
}

// new is the HTTP API over a fresh set of the backend's stores.
func (b backend) new(t testing.TB) *web.Server { return serverOver(t, b.stores(t)) }

// services are the use cases over st, as serve wires them.
func services(st ports.Stores) (*social.Service, *blog.Service) {
	return social.New(st.Users, st.Tweets, st.Lines, nil, domain.NewPasswordHasher(bcrypt.MinCost)),
		blog.New(st.Authors, st.Entries, st.Tags, st.Comments, nil)
}

func serverOver(t testing.TB, st ports.Stores) *web.Server {
	svc, bs := services(st)
	return newServer(t, svc, bs, st.Sessions)
}

func newServer(t testing.TB, svc *social.Service, bs *blog.Service, sessions ports.SessionStore) *web.Server {
	t.Helper()
	srv, err := web.NewServer(web.Config{TokenSecret: testSecret}, web.Deps{Social: svc, Blog: bs, Access: social.NewAccess(svc, sessions, nil)})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// client talks to one server over HTTP.
type client struct {
	base string
	http *http.Client
}

func newClient(t testing.TB, srv *web.Server) *client {
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	tr := &http.Transport{MaxIdleConnsPerHost: 128}
	t.Cleanup(tr.CloseIdleConnections)
	return &client{base: ts.URL, http: &http.Client{Transport: tr}}
}

// call sends one request and returns the status and body.
func (c *client) call(method, path string, body any, token string) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

func (c *client) must(t testing.TB, want int, method, path string, body any, token string) []byte {
	t.Helper()
	status, b, err := c.call(method, path, body, token)
	if err != nil || status != want {
		t.Fatalf("%s %s: %d %s %v, want %d", method, path, status, b, err, want)
	}
	return b
}

const password = "correct horse"

// user signs name up and returns a token.
func (c *client) user(t testing.TB, name string) string {
	t.Helper()
	cred := map[string]string{"username": name, "password": password}
	c.must(t, http.StatusCreated, http.MethodPost, "/api/v1/users", cred, "")
	var s struct{ Token string }
	if err := json.Unmarshal(c.must(t, http.StatusOK, http.MethodPost, "/api/v1/sessions", cred, ""), &s); err != nil || s.Token == "" {
		t.Fatalf("log in %s: %v", name, err)
	}
	return s.Token
}

type tweet struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	Body     string `json:"body"`
}

// line reads every page of a line and returns its tweets.
func (c *client) line(t testing.TB, path, token string) []tweet {
	t.Helper()
	var all []tweet
	start := ""
	for pages := 0; ; pages++ {
		if pages > 10000 {
			t.Fatalf("%s: too many pages", path)
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		target := path + sep + "limit=200"
		if start != "" {
			target += "&start=" + url.QueryEscape(start)
		}
		var p struct {
			Tweets []tweet `json:"tweets"`
			Next   *string `json:"next"`
		}
		if err := json.Unmarshal(c.must(t, http.StatusOK, http.MethodGet, target, nil, token), &p); err != nil {
			t.Fatal(err)
		}
		all = append(all, p.Tweets...)
		if p.Next == nil {
			return all
		}
		start = *p.Next
	}
}

func userName(i int) string { return fmt.Sprintf("user%03d", i) }
