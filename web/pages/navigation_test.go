package pages

import (
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"twissandra/domain/blog"
	"twissandra/internal/testkit/webkit"
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
	app := newApp(t, webkit.MemoryStores())
	app.Client(t).SignUp("rita")
	const n = 3*linePageSize + 5
	for i := range n {
		if _, err := app.Social.Post(webkit.BG(), "rita", fmt.Sprintf("tweet %03d", i)); err != nil {
			t.Fatal(err)
		}
	}
	c := app.Client(t)
	for _, path := range []string{"/public", "/users/rita"} {
		var pages []string // the first tweet of each page, going older
		r := c.Get(path)
		if link(r.Body, "newer") != "" || link(r.Body, "newest") != "" {
			t.Fatalf("%s: the first page links to newer ones", path)
		}
		for {
			pages = append(pages, firstTweet(r.Body))
			older := link(r.Body, "older")
			if older == "" {
				break
			}
			r = c.Get(older)
			if r.Status != http.StatusOK {
				t.Fatalf("%s: %d", older, r.Status)
			}
			if link(r.Body, "newest") != path {
				t.Fatalf("%s: newest link %q", older, link(r.Body, "newest"))
			}
		}
		if len(pages) != 4 || pages[0] != fmt.Sprintf("tweet %03d", n-1) {
			t.Fatalf("%s: pages start with %v", path, pages)
		}
		// Back from the last page, one page at a time.
		for i := len(pages) - 2; i >= 0; i-- {
			newer := link(r.Body, "newer")
			if newer == "" {
				t.Fatalf("%s: page %d has no Newer link", path, i+1)
			}
			r = c.Get(newer)
			if got := firstTweet(r.Body); got != pages[i] {
				t.Fatalf("%s: Newer to page %d starts with %q, want %q", path, i, got, pages[i])
			}
		}
		if link(r.Body, "newer") != "" {
			t.Fatalf("%s: back on the first page, a Newer link remains", path)
		}
	}
	// A made-up trail is read like any cursor: a readable 400, not a 500.
	if r := c.Get("/public?start=AQAAAAAAAAAB&back=not-a-cursor"); r.Status != http.StatusOK || link(r.Body, "newer") == "" {
		t.Fatalf("page with a trail: %d", r.Status)
	}
	if r := c.Get("/public?start=not-a-cursor"); r.Status != http.StatusBadRequest {
		t.Fatalf("bad cursor: %d", r.Status)
	}
}

// An author's page lists the author's entries, newest first, and pages through them.
func TestAuthorPageListsEntries(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	for _, name := range []string{"paul", "other"} {
		if _, err := app.Blog.PutAuthor(webkit.BG(), name, nil); err != nil {
			t.Fatal(err)
		}
	}
	const mine = blogPageSize + 3
	for i := range mine {
		for _, who := range []string{"paul", "other"} {
			d := blog.Draft{Slug: fmt.Sprintf("%s-%d", who, i), Title: fmt.Sprintf("%s entry %d", who, i), Body: "b", Author: who}
			if _, err := app.Blog.Publish(webkit.BG(), d); err != nil {
				t.Fatal(err)
			}
		}
	}
	c := app.Client(t)
	r := c.Get("/blog/authors/paul")
	webkit.MustContain(t, r.Body, "Entries by paul", fmt.Sprintf("paul entry %d", mine-1), "TaggedPosts['__notag__']")
	webkit.MustNotContain(t, r.Body, "other entry", fmt.Sprintf(">paul entry %d<", 2))
	if got := strings.Count(r.Body, `class="card entry"`); got != blogPageSize {
		t.Fatalf("first page: %d entries", got)
	}
	older := regexp.MustCompile(`rel="next" href="([^"]*)"`).FindStringSubmatch(r.Body)
	if older == nil {
		t.Fatal("no Older link")
	}
	r = c.Get(html.UnescapeString(older[1]))
	if got := strings.Count(r.Body, `class="card entry"`); got != mine-blogPageSize {
		t.Fatalf("second page: %d entries\n%s", got, r.Body)
	}
	webkit.MustContain(t, r.Body, ">paul entry 0<")
	webkit.MustNotContain(t, r.Body, "other entry", `rel="next"`)
	if r := c.Get("/blog/authors/paul?start=bogus"); r.Status != http.StatusBadRequest {
		t.Fatalf("bad cursor: %d", r.Status)
	}
}

func TestFavicon(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	c := app.Client(t)
	for _, path := range []string{"/favicon.ico", "/static/favicon.svg"} {
		r := c.Get(path)
		if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "image/svg+xml") || !strings.Contains(r.Body, "<svg") {
			t.Fatalf("%s: %d %q", path, r.Status, r.Header.Get("Content-Type"))
		}
	}
	webkit.MustContain(t, c.Get("/").Body, `<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">`)
}
