package pages

import (
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"twissandra/domain/blog"
)

var hrefOf = func(id string) *regexp.Regexp {
	return regexp.MustCompile(`id="` + id + `" href="([^"]*)"`)
}

// link returns the href of the element with id, or "".
func link(body, id string) string {
	m := hrefOf(id).FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// firstTweet is the first tweet body shown on a line page.
func firstTweet(body string) string {
	_, after, ok := strings.Cut(body, `<p class="body">`)
	if !ok {
		return ""
	}
	text, _, _ := strings.Cut(after, "<")
	return text
}

// A line page past the first has Newer and Newest links beside Older; Newer goes back exactly
// one page, all the way to the first.
func TestLinePagesGoBothWays(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	app.client(t).signUp("rita")
	const n = 3*linePageSize + 5
	for i := range n {
		if _, err := app.social.Post(bg(), "rita", fmt.Sprintf("tweet %03d", i)); err != nil {
			t.Fatal(err)
		}
	}
	c := app.client(t)
	for _, path := range []string{"/public", "/users/rita"} {
		var pages []string // the first tweet of each page, going older
		r := c.get(path)
		if link(r.body, "newer") != "" || link(r.body, "newest") != "" {
			t.Fatalf("%s: the first page links to newer ones", path)
		}
		for {
			pages = append(pages, firstTweet(r.body))
			older := link(r.body, "older")
			if older == "" {
				break
			}
			r = c.get(older)
			if r.status != http.StatusOK {
				t.Fatalf("%s: %d", older, r.status)
			}
			if link(r.body, "newest") != path {
				t.Fatalf("%s: newest link %q", older, link(r.body, "newest"))
			}
		}
		if len(pages) != 4 || pages[0] != fmt.Sprintf("tweet %03d", n-1) {
			t.Fatalf("%s: pages start with %v", path, pages)
		}
		// Back from the last page, one page at a time.
		for i := len(pages) - 2; i >= 0; i-- {
			newer := link(r.body, "newer")
			if newer == "" {
				t.Fatalf("%s: page %d has no Newer link", path, i+1)
			}
			r = c.get(newer)
			if got := firstTweet(r.body); got != pages[i] {
				t.Fatalf("%s: Newer to page %d starts with %q, want %q", path, i, got, pages[i])
			}
		}
		if link(r.body, "newer") != "" {
			t.Fatalf("%s: back on the first page, a Newer link remains", path)
		}
	}
	// A made-up trail is read like any cursor: a readable 400, not a 500.
	if r := c.get("/public?start=AQAAAAAAAAAB&back=not-a-cursor"); r.status != http.StatusOK || link(r.body, "newer") == "" {
		t.Fatalf("page with a trail: %d", r.status)
	}
	if r := c.get("/public?start=not-a-cursor"); r.status != http.StatusBadRequest {
		t.Fatalf("bad cursor: %d", r.status)
	}
}

// An author's page lists the author's entries, newest first, and pages through them.
func TestAuthorPageListsEntries(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	for _, name := range []string{"paul", "other"} {
		if _, err := app.blog.PutAuthor(bg(), name, nil); err != nil {
			t.Fatal(err)
		}
	}
	const mine = blogPageSize + 3
	for i := range mine {
		for _, who := range []string{"paul", "other"} {
			d := blog.Draft{Slug: fmt.Sprintf("%s-%d", who, i), Title: fmt.Sprintf("%s entry %d", who, i), Body: "b", Author: who}
			if _, err := app.blog.Publish(bg(), d); err != nil {
				t.Fatal(err)
			}
		}
	}
	c := app.client(t)
	r := c.get("/blog/authors/paul")
	mustContain(t, r.body, "Entries by paul", fmt.Sprintf("paul entry %d", mine-1), "TaggedPosts['__notag__']")
	mustNotContain(t, r.body, "other entry", fmt.Sprintf(">paul entry %d<", 2))
	if got := strings.Count(r.body, `class="card entry"`); got != blogPageSize {
		t.Fatalf("first page: %d entries", got)
	}
	older := regexp.MustCompile(`rel="next" href="([^"]*)"`).FindStringSubmatch(r.body)
	if older == nil {
		t.Fatal("no Older link")
	}
	r = c.get(html.UnescapeString(older[1]))
	if got := strings.Count(r.body, `class="card entry"`); got != mine-blogPageSize {
		t.Fatalf("second page: %d entries\n%s", got, r.body)
	}
	mustContain(t, r.body, ">paul entry 0<")
	mustNotContain(t, r.body, "other entry", `rel="next"`)
	if r := c.get("/blog/authors/paul?start=bogus"); r.status != http.StatusBadRequest {
		t.Fatalf("bad cursor: %d", r.status)
	}
}

func TestFavicon(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	for _, path := range []string{"/favicon.ico", "/static/favicon.svg"} {
		r := c.get(path)
		if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "image/svg+xml") || !strings.Contains(r.body, "<svg") {
			t.Fatalf("%s: %d %q", path, r.status, r.header.Get("Content-Type"))
		}
	}
	mustContain(t, c.get("/").body, `<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">`)
}
