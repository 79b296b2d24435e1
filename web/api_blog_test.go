package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/ports/oplog"
)

// blogEnv is a server with the blog API over fresh memory stores.
type blogEnv struct {
	*testEnv
	blog *blog.Service
}

func newBlogEnv(t testing.TB) blogEnv {
	t.Helper()
	var svc *blog.Service
	e := newEnvWith(t, Config{TokenSecret: testSecret}, func(d *Deps) {
		bs := memory.NewBlog()
		svc = blog.New(bs, bs, bs, bs, d.Clock)
		d.Blog = svc
	})
	return blogEnv{testEnv: e, blog: svc}
}

type blogAuthorJSON struct {
	Name    string            `json:"name"`
	Profile map[string]string `json:"profile"`
	Posts   int64             `json:"posts"`
}

type blogEntryJSON struct {
	Slug        string         `json:"slug"`
	ID          string         `json:"id"`
	Title       string         `json:"title"`
	Body        string         `json:"body"`
	Tags        []string       `json:"tags"`
	PublishedAt string         `json:"published_at"`
	Author      blogAuthorJSON `json:"author"`
}

type blogEntryPage struct {
	Entries []blogEntryJSON `json:"entries"`
	Next    *string         `json:"next"`
}

type blogCommentPage struct {
	Comments []map[string]any `json:"comments"`
	Next     *string          `json:"next"`
}

func (e blogEnv) entries(target string) blogEntryPage {
	e.t.Helper()
	var p blogEntryPage
	decode(e.t, e.ok(http.MethodGet, target, "", "", http.StatusOK), &p)
	return p
}

func (e blogEnv) comments(target string) blogCommentPage {
	e.t.Helper()
	var p blogCommentPage
	decode(e.t, e.ok(http.MethodGet, target, "", "", http.StatusOK), &p)
	return p
}

// ok sends a request and insists on status.
func (e blogEnv) ok(method, target, body, token string, status int) *httptest.ResponseRecorder {
	e.t.Helper()
	rec := e.do(method, target, body, token)
	if rec.Code != status {
		e.t.Fatalf("%s %s: %d, want %d; %s", method, target, rec.Code, status, rec.Body)
	}
	return rec
}

func slugsOf(p blogEntryPage) []string {
	out := make([]string, len(p.Entries))
	for i, en := range p.Entries {
		out[i] = en.Slug
	}
	return out
}

// TestBlogAPIFixture reads the article's data set, loaded through the use cases, back through
// the API: TaggedPosts "guitar" holds the two guitar entries newest first, the __notag__ row all
// three.
func TestBlogAPIFixture(t *testing.T) {
	t.Parallel()
	e := newBlogEnv(t)
	if err := blog.LoadFixture(context.Background(), e.blog); err != nil {
		t.Fatal(err)
	}

	guitar := e.entries("/api/v1/blog/entries?tag=guitar")
	if got, want := slugsOf(guitar), []string{"another-cool-guitar", "i-got-a-new-guitar"}; !slices.Equal(got, want) || guitar.Next != nil {
		t.Fatalf("tag guitar: %v next %v, want %v", got, guitar.Next, want)
	}
	all := e.entries("/api/v1/blog/entries")
	if got, want := slugsOf(all), []string{"scream-is-the-best-movie-ever", "another-cool-guitar", "i-got-a-new-guitar"}; !slices.Equal(got, want) || all.Next != nil {
		t.Fatalf("all: %v next %v, want %v", got, all.Next, want)
	}

	var entry blogEntryJSON
	decode(t, e.ok(http.MethodGet, "/api/v1/blog/entries/i-got-a-new-guitar", "", "", http.StatusOK), &entry)
	wantAuthor := blogAuthorJSON{Name: "Arin Sarkissian", Posts: 3,
		Profile: map[string]string{"twitter": "phatduckk", "email": "arin@example.com", "bio": "bla bla bla"}}
	if entry.Title != "This is a blog entry about my new, awesome guitar" || entry.Body != "this is a cool entry. etc etc yada yada" ||
		!slices.Equal(entry.Tags, []string{"guitar", "life", "music"}) || entry.PublishedAt != "2009-08-18T01:13:24.000000Z" ||
		entry.Author.Name != wantAuthor.Name || entry.Author.Posts != 3 || len(entry.Author.Profile) != 3 || entry.Author.Profile["twitter"] != "phatduckk" {
		t.Fatalf("entry: %+v", entry)
	}

	var author blogAuthorJSON
	decode(t, e.ok(http.MethodGet, "/api/v1/blog/authors/Arin%20Sarkissian", "", "", http.StatusOK), &author)
	if author.Name != wantAuthor.Name || author.Posts != 3 || len(author.Profile) != 3 || author.Profile["bio"] != "bla bla bla" {
		t.Fatalf("author: %+v", author)
	}

	cs := e.comments("/api/v1/blog/entries/scream-is-the-best-movie-ever/comments")
	if len(cs.Comments) != 2 || cs.Next != nil ||
		cs.Comments[0]["name"] != "Joe Blow" || cs.Comments[1]["name"] != "Some Dude" ||
		cs.Comments[1]["text"] != "be nice Joe Blow this isnt youtube" {
		t.Fatalf("comments oldest first: %+v", cs)
	}
	for _, c := range cs.Comments {
		if _, ok := c["email"]; ok {
			t.Fatalf("a commenter's email is shown: %v", c)
		}
	}
	if cs := e.comments("/api/v1/blog/entries/another-cool-guitar/comments"); len(cs.Comments) != 0 || cs.Next != nil || cs.Comments == nil {
		t.Fatalf("no comments: %+v", cs)
	}
	if p := e.entries("/api/v1/blog/entries?tag=nothing-here"); len(p.Entries) != 0 || p.Entries == nil || p.Next != nil {
		t.Fatalf("unknown tag: %+v", p)
	}
}

// TestBlogAPIFlow publishes, reads, pages, comments, edits a profile and deletes through the API.
func TestBlogAPIFlow(t *testing.T) {
	t.Parallel()
	e := newBlogEnv(t)
	alice, bob := e.user("alice"), e.user("bob")
	e.ok(http.MethodGet, "/api/v1/blog/authors/alice", "", "", http.StatusNotFound)

	publish := func(token, slug string, tags ...string) blogEntryJSON {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"slug": slug, "title": "Title of " + slug, "body": "  body of " + slug + "\n", "tags": tags})
		rec := e.ok(http.MethodPost, "/api/v1/blog/entries", string(b), token, http.StatusCreated)
		if loc := rec.Header().Get("Location"); loc != "/api/v1/blog/entries/"+slug {
			t.Fatalf("Location %q", loc)
		}
		var en blogEntryJSON
		decode(t, rec, &en)
		return en
	}
	first := publish(alice, "first-post", "Go", "cassandra", "go")
	if first.Slug != "first-post" || first.Body != "body of first-post" || !slices.Equal(first.Tags, []string{"cassandra", "go"}) ||
		first.Author.Name != "alice" || first.Author.Posts != 1 || first.Author.Profile == nil || len(first.Author.Profile) != 0 || first.ID == "" {
		t.Fatalf("published: %+v", first)
	}
	// An explicit author naming oneself is allowed.
	rec := e.ok(http.MethodPost, "/api/v1/blog/entries", `{"slug":"second-post","title":"Second","body":"b","author":"alice"}`, alice, http.StatusCreated)
	var second blogEntryJSON
	decode(t, rec, &second)
	if second.Author.Posts != 2 || second.Tags == nil || len(second.Tags) != 0 {
		t.Fatalf("second: %+v", second)
	}
	publish(bob, "bobs-post", "go")

	all := e.entries("/api/v1/blog/entries")
	if got := slugsOf(all); !slices.Equal(got, []string{"bobs-post", "second-post", "first-post"}) {
		t.Fatalf("all: %v", got)
	}
	// Exact paging: limit 1 gives three pages, the last without next.
	var paged []string
	target := "/api/v1/blog/entries?limit=1"
	for range 4 {
		p := e.entries(target)
		paged = append(paged, slugsOf(p)...)
		if p.Next == nil {
			break
		}
		target = "/api/v1/blog/entries?limit=1&start=" + *p.Next
	}
	if !slices.Equal(paged, []string{"bobs-post", "second-post", "first-post"}) {
		t.Fatalf("paged: %v", paged)
	}
	if p := e.entries("/api/v1/blog/entries?limit=2"); len(p.Entries) != 2 || p.Next == nil {
		t.Fatalf("limit 2: %+v", p)
	} else if rest := e.entries("/api/v1/blog/entries?limit=2&start=" + *p.Next); !slices.Equal(slugsOf(rest), []string{"first-post"}) || rest.Next != nil {
		t.Fatalf("limit 2, page 2: %v %v", slugsOf(rest), rest.Next)
	}
	if got := slugsOf(e.entries("/api/v1/blog/entries?tag=go")); !slices.Equal(got, []string{"bobs-post", "first-post"}) {
		t.Fatalf("tag go: %v", got)
	}
	if got := slugsOf(e.entries("/api/v1/blog/entries?tag=%20GO%20")); !slices.Equal(got, []string{"bobs-post", "first-post"}) {
		t.Fatalf("tag GO: %v", got)
	}

	var got blogEntryJSON
	decode(t, e.ok(http.MethodGet, "/api/v1/blog/entries/first-post", "", "", http.StatusOK), &got)
	if got.ID != first.ID || got.Author.Posts != 2 {
		t.Fatalf("get: %+v", got)
	}

	// Comments: anyone, oldest first, paged exactly.
	for i, text := range []string{"one", "two", "three"} {
		b, _ := json.Marshal(map[string]string{"name": " Commenter ", "email": "c@example.com", "text": text})
		rec := e.ok(http.MethodPost, "/api/v1/blog/entries/first-post/comments", string(b), "", http.StatusCreated)
		var c map[string]any
		decode(t, rec, &c)
		if c["name"] != "Commenter" || c["text"] != text || c["slug"] != "first-post" || c["email"] != nil {
			t.Fatalf("comment %d: %v", i, c)
		}
	}
	e.ok(http.MethodPost, "/api/v1/blog/entries/first-post/comments", `{"name":"anon","text":"no email"}`, bob, http.StatusCreated)
	var texts []string
	target = "/api/v1/blog/entries/first-post/comments?limit=2"
	for range 3 {
		p := e.comments(target)
		for _, c := range p.Comments {
			texts = append(texts, c["text"].(string))
		}
		if p.Next == nil {
			break
		}
		target = "/api/v1/blog/entries/first-post/comments?limit=2&start=" + *p.Next
	}
	if !slices.Equal(texts, []string{"one", "two", "three", "no email"}) {
		t.Fatalf("comments: %v", texts)
	}

	// Profiles: only one's own.
	rec = e.ok(http.MethodPut, "/api/v1/blog/authors/alice", `{"profile":{"email":"alice@example.com","twitter":"alice","bio":"Writes about Go."}}`, alice, http.StatusOK)
	var a blogAuthorJSON
	decode(t, rec, &a)
	if a.Name != "alice" || a.Posts != 2 || a.Profile["twitter"] != "alice" || len(a.Profile) != 3 {
		t.Fatalf("put author: %+v", a)
	}
	decode(t, e.ok(http.MethodGet, "/api/v1/blog/authors/alice", "", "", http.StatusOK), &a)
	if a.Profile["bio"] != "Writes about Go." || a.Posts != 2 {
		t.Fatalf("get author: %+v", a)
	}
	a = blogAuthorJSON{}
	decode(t, e.ok(http.MethodPut, "/api/v1/blog/authors/alice", `{"profile":{}}`, alice, http.StatusOK), &a)
	if len(a.Profile) != 0 || a.Profile == nil || a.Posts != 2 {
		t.Fatalf("emptied profile: %+v", a)
	}
	// A profile made before the first entry is kept by it.
	carol := e.user("carol")
	e.ok(http.MethodPut, "/api/v1/blog/authors/carol", `{"profile":{"twitter":"carol"}}`, carol, http.StatusOK)
	if en := publish(carol, "carols-post"); en.Author.Profile["twitter"] != "carol" || en.Author.Posts != 1 {
		t.Fatalf("carol's entry: %+v", en)
	}

	// Delete: only the author; then everything naming the entry is gone.
	e.ok(http.MethodDelete, "/api/v1/blog/entries/first-post", "", bob, http.StatusForbidden)
	if rec := e.ok(http.MethodDelete, "/api/v1/blog/entries/first-post", "", alice, http.StatusNoContent); rec.Body.Len() != 0 {
		t.Fatalf("204 with a body: %q", rec.Body)
	}
	e.ok(http.MethodGet, "/api/v1/blog/entries/first-post", "", "", http.StatusNotFound)
	e.ok(http.MethodGet, "/api/v1/blog/entries/first-post/comments", "", "", http.StatusNotFound)
	e.ok(http.MethodDelete, "/api/v1/blog/entries/first-post", "", alice, http.StatusNotFound)
	if got := slugsOf(e.entries("/api/v1/blog/entries?tag=go")); !slices.Equal(got, []string{"bobs-post"}) {
		t.Fatalf("tag go after delete: %v", got)
	}
	a = blogAuthorJSON{}
	decode(t, e.ok(http.MethodGet, "/api/v1/blog/authors/alice", "", "", http.StatusOK), &a)
	if a.Posts != 1 {
		t.Fatalf("posts after delete: %+v", a)
	}
	// The slug is free again.
	publish(alice, "first-post")
}

// blogSnapshot is everything a refused blog call could have changed.
func (e blogEnv) snapshot(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, path := range []string{
		"/api/v1/blog/entries?limit=200",
		"/api/v1/blog/entries?limit=200&tag=go",
		"/api/v1/blog/entries?limit=200&tag=new",
		"/api/v1/blog/entries/hello-world/comments?limit=200",
	} {
		b.WriteString(e.rawBody(path, ""))
	}
	for _, path := range []string{"/api/v1/blog/authors/alice", "/api/v1/blog/authors/bob", "/api/v1/blog/entries/new-post"} {
		rec := e.do(http.MethodGet, path, "", "")
		b.WriteString(http.StatusText(rec.Code) + rec.Body.String())
	}
	return b.String()
}

// TestBlogAPIBadInput sends each refused blog request and checks the status, the JSON error and
// that nothing changed. alice has published hello-world (tags go, intro) with one comment; bob
// has no author profile.
func TestBlogAPIBadInput(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 2<<20)
	long := func(n int) string { return strings.Repeat("é", n) }
	type tc struct {
		name, method, path, body, as string
		status                       int
	}
	pub := func(name, body string, status int) tc {
		return tc{"publish " + name, "POST", "/api/v1/blog/entries", body, "bob", status}
	}
	com := func(name, body string, status int) tc {
		return tc{"comment " + name, "POST", "/api/v1/blog/entries/hello-world/comments", body, "", status}
	}
	prof := func(name, body string, status int) tc {
		return tc{"profile " + name, "PUT", "/api/v1/blog/authors/bob", body, "bob", status}
	}
	tags11 := `["a","b","c","d","e","f","g","h","i","j","k"]`
	tests := []tc{
		{"publish without token", "POST", "/api/v1/blog/entries", `{"slug":"new-post","title":"t","body":"b"}`, "", 401},
		{"publish with a bad token", "POST", "/api/v1/blog/entries", `{"slug":"new-post","title":"t","body":"b"}`, "garbage", 401},
		pub("as someone else", `{"slug":"new-post","title":"t","body":"b","author":"alice"}`, 403),
		pub("as an unknown author", `{"slug":"new-post","title":"t","body":"b","author":"Arin Sarkissian"}`, 403),
		pub("as the empty author", `{"slug":"new-post","title":"t","body":"b","author":""}`, 403),
		pub("duplicate slug", `{"slug":"hello-world","title":"t","body":"b"}`, 409),
		pub("malformed JSON", `{"slug":"new-post","title":"t","body":"b"`, 400),
		pub("empty body", ``, 400),
		pub("array", `[{"slug":"new-post","title":"t","body":"b"}]`, 400),
		pub("number slug", `{"slug":5,"title":"t","body":"b"}`, 400),
		pub("string tags", `{"slug":"new-post","title":"t","body":"b","tags":"go"}`, 400),
		pub("number tag", `{"slug":"new-post","title":"t","body":"b","tags":[1]}`, 400),
		pub("number author", `{"slug":"new-post","title":"t","body":"b","author":5}`, 400),
		pub("missing title", `{"slug":"new-post","body":"b"}`, 400),
		pub("missing slug", `{"title":"t","body":"b"}`, 400),
		pub("blank body", `{"slug":"new-post","title":"t","body":" \n "}`, 400),
		pub("bad slug", `{"slug":"New Post","title":"t","body":"b"}`, 400),
		pub("double hyphen slug", `{"slug":"new--post","title":"t","body":"b"}`, 400),
		pub("long slug", `{"slug":"`+strings.Repeat("a", 101)+`","title":"t","body":"b"}`, 400),
		pub("long title", `{"slug":"new-post","title":"`+long(201)+`","body":"b"}`, 400),
		pub("title with an override", `{"slug":"new-post","title":"a\u202Eb","body":"b"}`, 400),
		pub("body with NUL", `{"slug":"new-post","title":"t","body":"a\u0000b"}`, 400),
		pub("long body", `{"slug":"new-post","title":"t","body":"`+strings.Repeat("b", 20001)+`"}`, 400),
		pub("11 tags", `{"slug":"new-post","title":"t","body":"b","tags":`+tags11+`}`, 400),
		pub("bad tag", `{"slug":"new-post","title":"t","body":"b","tags":["a,b"]}`, 400),
		pub("reserved tag", `{"slug":"new-post","title":"t","body":"b","tags":["__notag__"]}`, 400),
		pub("2 MB", `{"slug":"new-post","title":"t","body":"`+big+`"}`, 413),

		{"delete without token", "DELETE", "/api/v1/blog/entries/hello-world", "", "", 401},
		{"delete someone else's", "DELETE", "/api/v1/blog/entries/hello-world", "", "bob", 403},
		{"delete unknown", "DELETE", "/api/v1/blog/entries/new-post", "", "alice", 404},
		{"delete malformed slug", "DELETE", "/api/v1/blog/entries/Hello_World", "", "alice", 400},

		{"get unknown", "GET", "/api/v1/blog/entries/new-post", "", "", 404},
		{"get malformed slug", "GET", "/api/v1/blog/entries/Hello_World", "", "", 400},
		{"get overlong slug", "GET", "/api/v1/blog/entries/" + strings.Repeat("a", 101), "", "", 400},
		{"list bad tag", "GET", "/api/v1/blog/entries?tag=a,b", "", "", 400},
		{"list bad cursor", "GET", "/api/v1/blog/entries?start=!!!", "", "", 400},
		{"list line cursor", "GET", "/api/v1/blog/entries?start=" + domain.EncodeLineCursor(1250558004000000), "", "", 400},
		{"list short cursor", "GET", "/api/v1/blog/entries?start=AAAA", "", "", 400},

		{"comments of unknown", "GET", "/api/v1/blog/entries/new-post/comments", "", "", 404},
		{"comments of malformed slug", "GET", "/api/v1/blog/entries/-x-/comments", "", "", 400},
		{"comments bad cursor", "GET", "/api/v1/blog/entries/hello-world/comments?start=a.b", "", "", 400},
		{"comment on unknown", "POST", "/api/v1/blog/entries/new-post/comments", `{"name":"n","text":"hi"}`, "", 404},
		com("empty text", `{"name":"n","text":""}`, 400),
		com("blank text", `{"name":"n","text":"  \t\n"}`, 400),
		com("text with a zero width space", `{"name":"n","text":"a\u200Bb"}`, 400),
		com("name with an override", `{"name":"\u202En","text":"hi"}`, 400),
		com("missing text", `{"name":"n"}`, 400),
		com("oversized text", `{"name":"n","text":"`+long(2001)+`"}`, 400),
		com("missing name", `{"text":"hi"}`, 400),
		com("blank name", `{"name":"  ","text":"hi"}`, 400),
		com("long name", `{"name":"`+long(61)+`","text":"hi"}`, 400),
		com("bad email", `{"name":"n","email":"not-an-email","text":"hi"}`, 400),
		com("number text", `{"name":"n","text":5}`, 400),
		com("object name", `{"name":{"a":1},"text":"hi"}`, 400),
		com("malformed JSON", `{"name":"n","text":"hi"`, 400),
		com("null", `null`, 400),
		com("2 MB", `{"name":"n","text":"`+big+`"}`, 413),

		{"author unknown", "GET", "/api/v1/blog/authors/bob", "", "", 404},
		{"author malformed", "GET", "/api/v1/blog/authors/%20bob", "", "", 400},
		{"profile without token", "PUT", "/api/v1/blog/authors/bob", `{"profile":{}}`, "", 401},
		{"profile of someone else", "PUT", "/api/v1/blog/authors/alice", `{"profile":{"bio":"hacked"}}`, "bob", 403},
		prof("missing", `{}`, 400),
		prof("null", `{"profile":null}`, 400),
		prof("string", `{"profile":"bio"}`, 400),
		prof("number value", `{"profile":{"bio":5}}`, 400),
		prof("bad key", `{"profile":{"Bad Key":"x"}}`, 400),
		prof("numPosts key", `{"profile":{"numPosts":"99"}}`, 400),
		prof("long value", `{"profile":{"bio":"`+strings.Repeat("b", 501)+`"}}`, 400),
		prof("malformed JSON", `{"profile":{}`, 400),
		prof("2 MB", `{"profile":{"bio":"`+big+`"}}`, 413),
	}
	for _, limit := range []string{"0", "-1", "201", "abc", "", "1.5"} {
		tests = append(tests,
			tc{"entries limit " + limit, "GET", "/api/v1/blog/entries?limit=" + limit, "", "", 400},
			tc{"comments limit " + limit, "GET", "/api/v1/blog/entries/hello-world/comments?limit=" + limit, "", "", 400},
		)
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newBlogEnv(t)
			tokens := map[string]string{"alice": e.user("alice"), "bob": e.user("bob"), "garbage": "not-a-token"}
			e.ok(http.MethodPost, "/api/v1/blog/entries", `{"slug":"hello-world","title":"Hello","body":"Hi.","tags":["go","intro"]}`, tokens["alice"], http.StatusCreated)
			e.ok(http.MethodPost, "/api/v1/blog/entries/hello-world/comments", `{"name":"Bob","text":"welcome"}`, "", http.StatusCreated)
			before := e.snapshot(t)
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			if tok := tokens[tt.as]; tok != "" {
				req.Header.Set("Authorization", "Bearer "+tok)
			}
			rec := serve(e.testEnv, req)
			wantError(t, rec, tt.status, slugFor(tt.status))
			if after := e.snapshot(t); after != before {
				t.Fatalf("state changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// TestBlogAPIOff checks that a server without a blog service has no blog routes.
func TestBlogAPIOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	wantError(t, e.do(http.MethodGet, "/api/v1/blog/entries", "", ""), http.StatusNotFound, SlugNotFound)
}

// TestAPIStorageOpsHeader checks that JSON API responses, blog and line alike, carry the
// Storage-Ops summary of the calls the (memory) store made for them.
func TestAPIStorageOpsHeader(t *testing.T) {
	t.Parallel()
	e := newBlogEnv(t)
	for path, want := range map[string]map[string]int{
		"/api/v1/public":            {"slice": 1, "multiget": 0}, // an empty line: no multiget of its tweets
		"/api/v1/blog/entries":      {"slice": 1},
		"/api/v1/blog/entries/nope": {"get": 1},
	} {
		got := e.do(http.MethodGet, path, "", "").Header().Get(StorageOpsHeader)
		counts := opCounts(t, got)
		for kind, n := range want {
			if counts[kind] != n {
				t.Errorf("%s: Storage-Ops %q: %s=%d, want %d", path, got, kind, counts[kind], n)
			}
		}
	}
	// No route: no store touched.
	if got := e.do(http.MethodGet, "/api/v1/nothing-here", "", "").Header().Get(StorageOpsHeader); got != oplog.NoOps {
		t.Errorf("/api/v1/nothing-here: Storage-Ops %q, want %q", got, oplog.NoOps)
	}
}
