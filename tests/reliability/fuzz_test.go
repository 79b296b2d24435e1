package reliability

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"twissandra/web"
	"twissandra/web/openapi"
)

// fuzzEnv is one server over memory with a user "fuzzer" who has a token, a tweet and a blog
// entry, so fuzzed requests reach past authentication and not-found.
type fuzzEnv struct {
	srv   *web.Server
	token string
	tweet string
	spec  *openapi.Spec
}

func newFuzzEnv(t testing.TB) *fuzzEnv {
	srv := backends[0].new(t)
	c := newClient(t, srv)
	tok := c.user(t, "fuzzer")
	c.user(t, "other")
	b := c.must(t, http.StatusCreated, http.MethodPost, "/api/v1/tweets", map[string]string{"body": "first"}, tok)
	id := string(b[strings.Index(string(b), `"id":"`)+6:][:36])
	c.must(t, http.StatusCreated, http.MethodPost, "/api/v1/blog/entries", map[string]any{"slug": "entry", "title": "t", "body": "b", "tags": []string{"x"}}, tok)
	spec, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	return &fuzzEnv{srv: srv, token: tok, tweet: id, spec: spec}
}

// serve sends one request and fails on a 5xx or a response the OpenAPI document does not allow.
func (e *fuzzEnv) serve(t *testing.T, method, target, body string) {
	req, err := http.NewRequest(method, "http://127.0.0.1"+target, strings.NewReader(body))
	if err != nil {
		return // not a request a client could send
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.token)
	rec := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Fatalf("%s %s %q: %d %s", method, target, body, rec.Code, rec.Body)
	}
	if err := e.spec.CheckResponse(method, req.URL.Path, rec.Code, rec.Body.Bytes()); err != nil {
		t.Fatalf("%s %s %q: %v", method, target, body, err)
	}
}

// bodyRoutes are the API's operations that read a JSON body.
var bodyRoutes = []struct{ method, path string }{
	{http.MethodPost, "/api/v1/users"},
	{http.MethodPost, "/api/v1/sessions"},
	{http.MethodPost, "/api/v1/tweets"},
	{http.MethodPost, "/api/v1/blog/entries"},
	{http.MethodPost, "/api/v1/blog/entries/entry/comments"},
	{http.MethodPut, "/api/v1/blog/authors/fuzzer"},
}

// FuzzJSONBodies sends arbitrary bodies to every operation that reads one.
func FuzzJSONBodies(f *testing.F) {
	for _, s := range []string{
		`{"username":"ab","password":"pw"}`, `{"body":"hello"}`, `{"body":"  "}`, `{"body":7}`, `[]`, `null`, ``, `{`,
		`{"slug":"s","title":"t","body":"b","tags":["a","b"]}`, `{"name":"n","text":"t","email":"e"}`,
		`{"profile":{"bio":"x"}}`, `{"profile":null}`, `{"username":"\u0000","password":"\ud800"}`,
		`{"slug":"../x","title":"t","body":"b","author":"other"}`,
	} {
		for i := range bodyRoutes {
			f.Add(uint8(i), s)
		}
	}
	var e *fuzzEnv
	f.Fuzz(func(t *testing.T, route uint8, body string) {
		if e == nil {
			e = newFuzzEnv(t)
		}
		r := bodyRoutes[int(route)%len(bodyRoutes)]
		e.serve(t, r.method, r.path, body)
	})
}

// FuzzQueryAndPath sends arbitrary query parameters and path segments to the read operations.
func FuzzQueryAndPath(f *testing.F) {
	for _, s := range [][3]string{
		{"40", "", "fuzzer"}, {"0", "garbage", "nobody"}, {"201", "", ""}, {"-1", "%zz", "a,b,c"},
		{"1e3", "AAAAAAAAAAAAAAAA", "fuzzer,fuzzer"}, {"", "\x00", "../../etc"}, {"2", "MTIzNA", "x y"},
	} {
		for k := range 8 {
			f.Add(uint8(k), s[0], s[1], s[2])
		}
	}
	var e *fuzzEnv
	f.Fuzz(func(t *testing.T, kind uint8, limit, start, name string) {
		if e == nil {
			e = newFuzzEnv(t)
		}
		q := url.Values{"limit": {limit}, "start": {start}}.Encode()
		seg := url.PathEscape(name)
		if seg == "" {
			seg = "x"
		}
		var target string
		switch kind % 8 {
		case 0:
			target = "/api/v1/public?" + q
		case 1:
			target = "/api/v1/timeline?" + q
		case 2:
			target = "/api/v1/users/" + seg + "/tweets?" + q
		case 3:
			target = "/api/v1/users/" + seg + "/followers?" + q
		case 4:
			target = "/api/v1/users?" + url.Values{"names": {name}}.Encode()
		case 5:
			target = "/api/v1/tweets/" + seg
		case 6:
			target = "/api/v1/blog/entries?" + q + "&" + url.Values{"tag": {name}}.Encode()
		default:
			target = "/api/v1/blog/entries/" + seg + "/comments?" + q
		}
		e.serve(t, http.MethodGet, target, "")
	})
}
