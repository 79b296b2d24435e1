package frame_test

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// The footer of every page: what it cost the storage, and which access patterns it serves.

func TestStorageOps(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	c.SignUp("olga")
	r := c.Get("/")
	h := r.Header.Get("Storage-Ops")
	// The home timeline: the pulled authors olga follows (none), then one slice.
	if !strings.Contains(h, "slice=1") || !strings.Contains(h, "pulled=1") || !strings.HasPrefix(h, "2 ops") {
		t.Fatalf("Storage-Ops on an empty home: %q", h)
	}
	c.Post("/tweets", url.Values{"body": {"hi"}})
	r = c.Get("/")
	webkit.MustContain(t, r.Body, `id="storage-ops"`, "slice line timeline:olga before=0 limit=41 -&gt; 1 entries", "multiget tweets 1 ids -&gt; 1")
	// The home page with a tweet: the pulled authors, one slice of olga's timeline, and its tweet
	// in one multiget.
	if h := r.Header.Get("Storage-Ops"); webkit.OpCount(h, "pulled") != 1 || webkit.OpCount(h, "slice") != 1 || webkit.OpCount(h, "multiget") != 1 {
		t.Fatalf("Storage-Ops: %q", h)
	}
}

// The footer's headline counts storage calls: a post on widerow makes batch_mutates and reads,
// and notes (a cache's answers, the fan-out's size) that are listed but not counted as calls;
// each number matches the list below it.
func TestFooterHeadlineCountsStorageCalls(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	for i := range 2 {
		app.Client(t).SignUp(fmt.Sprintf("fan%d", i))
	}
	c := app.Client(t)
	c.SignUp("star")
	for i := range 2 {
		if err := app.Social.Follow(webkit.BG(), fmt.Sprintf("fan%d", i), "star"); err != nil {
			t.Fatal(err)
		}
	}
	c.Get("/users/star") // the caches hold star now: the post's page notes their answers
	r := c.Post("/tweets", url.Values{"body": {"counted"}})
	page := c.Get(r.Header.Get("Location")).Body
	action, rest, _ := strings.Cut(page, `id="storage-ops"`)
	for _, part := range []struct{ name, html, lead string }{{"action", action, "What your post cost: "}, {"page", rest, "What this page cost: "}} {
		m := regexp.MustCompile(regexp.QuoteMeta(part.lead) + `(\d+) storage calls?: [^;<]*(?:; (\d+) notes?, not (?:a call|calls): [^<]*)?<`).FindStringSubmatch(part.html)
		if m == nil {
			t.Fatalf("%s: no headline of storage calls:\n%s", part.name, part.html)
		}
		calls := strings.Count(part.html, `<li class="op op-read">`) + strings.Count(part.html, `<li class="op op-write">`) + strings.Count(part.html, `<li class="op op-lwt">`)
		notes := strings.Count(part.html, `<li class="op op-note">`)
		if strconv.Itoa(calls) != m[1] || (notes > 0) != (m[2] != "") || (notes > 0 && strconv.Itoa(notes) != m[2]) {
			t.Errorf("%s: headline %q, %d calls and %d notes listed", part.name, m[0], calls, notes)
		}
		if part.name == "action" && (notes == 0 || !strings.Contains(m[0], "fan-out=1")) {
			t.Errorf("the post's headline %q: its fan-out note apart from its calls", m[0])
		}
	}
}

// Each page says which access pattern it serves and where each model finds it; the models page
// lists them all, with anchors the pages link to.
func TestPagesNameTheirAccessPatterns(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	app.Client(t).SignUp("rita")
	c := app.Client(t)
	for path, want := range map[string][]string{
		"/public":     {`href="/models#Q4"`, "Userline[&#39;!PUBLIC!&#39;]", "public_line WHERE day = ?"},
		"/users/rita": {`href="/models#Q1"`, `href="/models#Q2"`, `href="/models#Q5"`, "get_slice Userline[uuid] reversed"},
		"/blog":       {`href="/models#Q6"`, "TaggedPosts"},
	} {
		r := c.Get(path)
		_, footer, _ := strings.Cut(r.Body, `id="page-queries"`)
		webkit.MustContain(t, footer, want...)
	}
	models := c.Get("/models").Body
	for _, q := range frame.AccessPatterns {
		webkit.MustContain(t, models, `<tr id="`+q.ID+`">`)
	}
	for _, id := range []site.AccessPattern{site.UserByName, site.Userline, site.HomeTimeline, site.PublicLine, site.Follows,
		site.BlogEntries, site.BlogEntry, site.EntryComments, site.AuthorProfile} {
		if !slices.ContainsFunc(frame.AccessPatterns, func(q frame.AccessPattern) bool { return q.ID == string(id) }) {
			t.Errorf("site names %s, which the models page does not list", id)
		}
	}
}

// The access patterns a footer names are those its request served, not all its route may
// serve: the anonymous home page reads the public line only, a signed-in one the timeline only,
// and a user page of nobody the lookup by name only.
func TestFooterNamesWhatTheRequestServed(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	app.Client(t).SignUp("rita")
	served := func(body string) []string {
		_, footer, ok := strings.Cut(body, `id="page-queries"`)
		if !ok {
			return nil
		}
		footer, _, _ = strings.Cut(footer, "</p>")
		var ids []string
		for _, m := range regexp.MustCompile(`href="/models#(Q\d)"`).FindAllStringSubmatch(footer, -1) {
			ids = append(ids, m[1])
		}
		return ids
	}
	anon := app.Client(t)
	signed := app.Client(t)
	signed.SignUp("sam")
	for _, tc := range []struct {
		c    *webkit.Client
		path string
		want []string
	}{
		{anon, "/", []string{"Q4"}},
		{signed, "/", []string{"Q3"}},
		{anon, "/public", []string{"Q4"}},
		{anon, "/users/rita", []string{"Q1", "Q2", "Q5"}},
		{anon, "/users/nobody", []string{"Q1"}},
		{anon, "/users/rita/followers", []string{"Q1", "Q5"}},
		{anon, "/blog", []string{"Q6"}},
		{anon, "/blog/entries/no-such-entry", []string{"Q7"}},
		{anon, "/models", nil},
	} {
		r := tc.c.Get(tc.path)
		if got := served(r.Body); !slices.Equal(got, tc.want) {
			t.Errorf("%s: the footer names %v, want %v", tc.path, got, tc.want)
		}
	}
}

// The public line comes from seeds 003 (its PUBLIC_USERLINE_KEY row) and 002 (the public
// userline), not from 001, which has none.
func TestPublicLineCitesItsSeeds(t *testing.T) {
	t.Parallel()
	i := slices.IndexFunc(frame.AccessPatterns, func(q frame.AccessPattern) bool { return q.ID == "Q4" })
	if q := frame.AccessPatterns[i]; q.Seed != "003, 002" || !strings.Contains(q.SeedTitle, "PUBLIC_USERLINE_KEY") {
		t.Errorf("Q4 cites %q, %q", q.Seed, q.SeedTitle)
	}
	models := teachkit.NewApp(t, webkit.MemoryStores()).Client(t).Get("/models").Body
	_, row, _ := strings.Cut(models, `<tr id="Q4">`)
	row, _, _ = strings.Cut(row, "</tr>")
	webkit.MustContain(t, row, "003, 002")
	webkit.MustNotContain(t, row, "001")
}

// The footer's sentence on the access patterns a page served has a space before the first
// pattern ("access patterns Q4 (…)", not "access patternsQ4").
func TestFooterNamesThePatternsApart(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	body := app.Client(t).Get("/public").Body
	webkit.MustContain(t, body, `access patterns</a> <a href="/models#Q4">Q4</a>`)
}
