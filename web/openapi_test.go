package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"twissandra/domain/social"
	"twissandra/web/openapi"
)

func loadSpec(t testing.TB) *openapi.Spec {
	t.Helper()
	spec, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// Every route under /api/v1 is documented with its method, and every documented operation is
// a route.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	t.Parallel()
	e := newBlogEnv(t)
	var routes []string
	for _, r := range e.srv.Engine.Routes() {
		if r.Path != "/api/v1" && !strings.HasPrefix(r.Path, "/api/v1/") {
			continue
		}
		segs := strings.Split(r.Path, "/")
		for i, s := range segs {
			if strings.HasPrefix(s, ":") || strings.HasPrefix(s, "*") {
				segs[i] = "{" + s[1:] + "}"
			}
		}
		routes = append(routes, r.Method+" "+strings.Join(segs, "/"))
	}
	slices.Sort(routes)
	documented := loadSpec(t).Operations()
	for _, r := range routes {
		if !slices.Contains(documented, r) {
			t.Errorf("route %s is not in the OpenAPI document", r)
		}
	}
	for _, d := range documented {
		if !slices.Contains(routes, d) {
			t.Errorf("the OpenAPI document describes %s, which is no route", d)
		}
	}
	if len(routes) < 20 {
		t.Fatalf("only %d API routes: is the blog API missing? %v", len(routes), routes)
	}
}

func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.do(http.MethodGet, "/api/v1/openapi.json", "", "")
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), openapi.Document) {
		t.Fatalf("GET /api/v1/openapi.json: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	var doc struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || !strings.HasPrefix(doc.OpenAPI, "3.") || len(doc.Paths) == 0 {
		t.Fatalf("document: openapi %q, %d paths, %v", doc.OpenAPI, len(doc.Paths), err)
	}
}

// The checker refuses what it should, so that the walk below means something.
func TestOpenAPICheckerRefuses(t *testing.T) {
	t.Parallel()
	spec := loadSpec(t)
	for _, c := range []struct {
		method, path string
		status       int
		body         string
	}{
		{"GET", "/api/v1/public", 200, `{"tweets":[]}`},
		{"GET", "/api/v1/public", 200, `{"tweets":[{"id":"x","username":"a","body":"b","created_at":"2010-03-01T12:00:00.000000Z"}],"next":null}`},
		{"GET", "/api/v1/users/bob", 200, `{"username":"bob","created_at":"yesterday"}`},
		{"GET", "/api/v1/users/bob", 404, `{"error":"not_found"}`},
		{"DELETE", "/api/v1/sessions/current", 204, `{}`},
		{"GET", "/api/v1/no/such/path", 200, `{}`},
		{"GET", "/api/v1/no/such/path", 404, `{"error":"not_found"}`},
		{"GET", "/api/v1/blog/authors/x", 200, `{"name":"x","profile":{"a":1},"posts":0}`},
	} {
		if err := spec.CheckResponse(c.method, c.path, c.status, []byte(c.body)); err == nil {
			t.Errorf("%s %s %d %s: accepted", c.method, c.path, c.status, c.body)
		}
	}
}

// A walk through every operation, successful and refused, holds each response to the document:
// its status, Content-Type and body to the schema the document declares for its path, method
// and status (apiDoc, a validator of OpenAPI 3), and to the package's own checker, which
// tests/reliability uses. Every operation must be called, answer each status it lists, and fail
// at least once (but the document itself, which cannot).
func TestResponsesMatchOpenAPI(t *testing.T) {
	t.Parallel()
	spec := loadSpec(t)
	doc := loadAPIDoc(t)
	e := newBlogEnv(t)
	serve := func(req *http.Request) *httptest.ResponseRecorder {
		t.Helper()
		rec := doc.serve(t, e.testEnv, req)
		if err := spec.CheckResponse(req.Method, req.URL.Path, rec.Code, rec.Body.Bytes()); err != nil {
			t.Errorf("%v (body %s)", err, rec.Body)
		}
		return rec
	}
	request := func(method, target, body, token string) *http.Request {
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		req := httptest.NewRequest(method, target, r)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return req
	}
	statuses := map[int]bool{}
	do := func(method, target, body, token string) *httptest.ResponseRecorder {
		t.Helper()
		rec := serve(request(method, target, body, token))
		statuses[rec.Code] = true
		return rec
	}
	const pw = `","password":"` + testPassword + `"}`
	do("POST", "/api/v1/users", `{"username":"jericevans`+pw, "")
	do("POST", "/api/v1/users", `{"username":"ericflo`+pw, "")
	do("POST", "/api/v1/users", `{"username":"ericflo`+pw, "")
	do("POST", "/api/v1/users", `{"username":"no spaces`+pw, "")
	do("POST", "/api/v1/users", `[1,2]`, "")
	var sess struct{ Token string }
	_ = json.Unmarshal(do("POST", "/api/v1/sessions", `{"username":"jericevans`+pw, "").Body.Bytes(), &sess)
	tok := sess.Token
	_ = json.Unmarshal(do("POST", "/api/v1/sessions", `{"username":"ericflo`+pw, "").Body.Bytes(), &sess)
	tok2 := sess.Token
	do("POST", "/api/v1/sessions", `{"username":"ericflo","password":"wrong"}`, "")
	do("PUT", "/api/v1/users/ericflo/friends/jericevans", "", tok2)
	do("PUT", "/api/v1/users/ericflo/friends/jericevans", "", tok)
	do("PUT", "/api/v1/users/jericevans/friends/nobody", "", tok)
	do("PUT", "/api/v1/users/jericevans/friends/ericflo", "", "")
	var tw struct{ ID string }
	for range 3 {
		_ = json.Unmarshal(do("POST", "/api/v1/tweets", `{"body":"Cassandra is a good fit"}`, tok).Body.Bytes(), &tw)
	}
	do("POST", "/api/v1/tweets", `{"body":"   "}`, tok)
	do("POST", "/api/v1/tweets", `{"body":"x"}`, "")
	do("POST", "/api/v1/tweets", `{"body":"x"}`, "not-a-token")
	do("POST", "/api/v1/tweets", `{"body":"`+strings.Repeat("x", DefaultMaxBodyBytes)+`"}`, tok)
	plain := request("POST", "/api/v1/tweets", `{"body":"x"}`, tok)
	plain.Header.Set("Content-Type", "text/plain")
	statuses[serve(plain).Code] = true
	do("GET", "/api/v1/tweets/"+tw.ID, "", "")
	do("GET", "/api/v1/tweets/not-a-uuid", "", "")
	do("GET", "/api/v1/tweets/00000000-0000-1000-8000-000000000000", "", "")
	for _, q := range []string{"", "?limit=2", "?limit=0", "?start=garbage"} {
		do("GET", "/api/v1/public"+q, "", "")
		do("GET", "/api/v1/users/jericevans/tweets"+q, "", "")
		do("GET", "/api/v1/timeline"+q, "", tok2)
		do("GET", "/api/v1/users/jericevans/followers"+q, "", "")
		do("GET", "/api/v1/users/ericflo/friends"+q, "", "")
	}
	// Paging to the end: each next cursor is followed until a page says null.
	for target, pages := "/api/v1/public?limit=2", 0; target != ""; pages++ {
		var page struct{ Next *string }
		_ = json.Unmarshal(do("GET", target, "", "").Body.Bytes(), &page)
		target = ""
		if page.Next != nil && pages < 5 {
			target = "/api/v1/public?limit=2&start=" + url.QueryEscape(*page.Next)
		}
	}
	do("GET", "/api/v1/timeline", "", "")
	do("GET", "/api/v1/users/jericevans", "", "")
	do("GET", "/api/v1/users/nobody", "", "")
	do("GET", "/api/v1/users?names=jericevans,nobody,ericflo", "", "")
	do("GET", "/api/v1/users", "", "")
	do("DELETE", "/api/v1/users/ericflo/friends/jericevans", "", tok2)
	do("DELETE", "/api/v1/users/ericflo/friends/jericevans", "", "")
	do("GET", "/api/v1/openapi.json", "", "")

	do("POST", "/api/v1/blog/entries", `{"slug":"why-cassandra","title":"Why Cassandra","body":"Because.","tags":["nosql","cassandra"]}`, tok)
	do("POST", "/api/v1/blog/entries", `{"slug":"why-cassandra","title":"Again","body":"Taken."}`, tok)
	do("POST", "/api/v1/blog/entries", `{"slug":"x","title":"t","body":"b","author":"ericflo"}`, tok)
	do("POST", "/api/v1/blog/entries", `{"slug":"x"}`, tok)
	do("GET", "/api/v1/blog/entries", "", "")
	do("GET", "/api/v1/blog/entries?tag=nosql&limit=1", "", "")
	do("GET", "/api/v1/blog/entries?limit=0", "", "")
	do("GET", "/api/v1/blog/entries/why-cassandra", "", "")
	do("GET", "/api/v1/blog/entries/nothing-here", "", "")
	do("POST", "/api/v1/blog/entries/why-cassandra/comments", `{"name":"Arin","email":"a@example.com","text":"Nice."}`, "")
	do("POST", "/api/v1/blog/entries/nothing-here/comments", `{"name":"Arin","text":"Nice."}`, "")
	do("GET", "/api/v1/blog/entries/why-cassandra/comments", "", "")
	do("GET", "/api/v1/blog/entries/why-cassandra/comments?limit=0", "", "")
	do("GET", "/api/v1/blog/authors/jericevans", "", "")
	do("GET", "/api/v1/blog/authors/nobody", "", "")
	do("PUT", "/api/v1/blog/authors/jericevans", `{"profile":{"bio":"Cassandra committer"}}`, tok)
	do("PUT", "/api/v1/blog/authors/ericflo", `{"profile":{}}`, tok)
	do("DELETE", "/api/v1/blog/entries/why-cassandra", "", tok2)
	do("DELETE", "/api/v1/blog/entries/why-cassandra", "", tok)
	do("GET", "/api/v1/course", "", "") // no course served yet: 404
	e.srv.ServeCourse(&fakeCourse{passed: map[string][]string{}})
	do("GET", "/api/v1/course", "", "")
	do("POST", "/api/v1/exercises/ex-1/answers", `{"answer":"42"}`, tok)
	do("POST", "/api/v1/exercises/ex-1/answers", `{"answer":{"a":1}}`, "")
	do("POST", "/api/v1/exercises/ex-2/answers", `{"answer":"42"}`, "")
	do("GET", "/api/v1/course/progress", "", tok)
	do("GET", "/api/v1/course/progress", "", "")
	do("GET", "/api/v1/console", "", "") // no console served yet: 404
	e.srv.ServeConsole(&fakeConsole{sandboxes: map[string]string{}})
	do("GET", "/api/v1/console", "", "")
	do("GET", "/api/v1/console", "", tok)
	do("POST", "/api/v1/console", `{"language":"cli","statement":"set x"}`, tok)
	do("POST", "/api/v1/console", `{"language":"cli","statement":"get"}`, "")
	do("POST", "/api/v1/console", `{"language":"cli","statement":"drop"}`, "")
	do("POST", "/api/v1/console", `{"language":"cql","statement":"SELECT"}`, "")
	do("POST", "/api/v1/console", `{"language":"cli","statement":"busy"}`, "")
	do("DELETE", "/api/v1/sessions/current", "", tok)
	do("DELETE", "/api/v1/sessions/current", "", tok)
	do("GET", "/api/v1/class/class1", "", instructorSecret) // no class served: 404
	e.srv.ServeClass(&fakeClass{}, instructorSecret)
	do("GET", "/api/v1/class/class1", "", instructorSecret)
	do("GET", "/api/v1/class/class1", "", "not-the-instructor")
	do("GET", "/api/v1/class/no-hyphens", "", instructorSecret)
	do("POST", "/api/v1/class/class1/accounts", `{"n":2}`, instructorSecret)
	do("POST", "/api/v1/class/class1/accounts", `{"n":0}`, instructorSecret)
	do("POST", "/api/v1/class/class1/accounts", `{"n":2}`, "")
	do("POST", "/api/v1/class/class1/reset", "", instructorSecret)
	do("POST", "/api/v1/class/class1/reset", "", "not-the-instructor")

	// What no operation is: a path the document lacks, a method a path has not.
	do("GET", "/api/v1/nothing-here", "", "")
	do("PATCH", "/api/v1/public", "", "")
	// The log-in limit, last, as it shuts this client's address out: wrong passwords past the
	// limit, then the right one is refused too.
	for range social.LoginLimit + 1 {
		do("POST", "/api/v1/sessions", `{"username":"jericevans","password":"wrong"}`, "")
	}
	if rec := do("POST", "/api/v1/sessions", `{"username":"jericevans`+pw, ""); rec.Header().Get("Retry-After") == "" {
		t.Errorf("log-in past the limit: %d without Retry-After", rec.Code)
	}

	doc.covered(t, "GET /api/v1/openapi.json")
	for _, code := range []int{400, 401, 403, 404, 405, 409, 413, 415, 429} {
		if !statuses[code] {
			t.Errorf("the walk never got a %d", code)
		}
	}
}
