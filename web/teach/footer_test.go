package teach

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// The footer of every page: what it cost the storage, and which access patterns it serves.

func TestStorageOps(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	c.signUp("olga")
	r := c.get("/")
	h := r.header.Get("Storage-Ops")
	// The home timeline: the pulled authors olga follows (none), then one slice.
	if !strings.Contains(h, "slice=1") || !strings.Contains(h, "pulled=1") || !strings.HasPrefix(h, "2 ops") {
		t.Fatalf("Storage-Ops on an empty home: %q", h)
	}
	c.post("/tweets", url.Values{"body": {"hi"}})
	r = c.get("/")
	mustContain(t, r.body, `id="storage-ops"`, "slice line timeline:olga before=0 limit=41 -&gt; 1 entries", "multiget tweets 1 ids -&gt; 1")
	if h := r.header.Get("Storage-Ops"); h != "3 ops: pulled=1 slice=1 multiget=1" {
		t.Fatalf("Storage-Ops: %q", h)
	}
}

// Each page says which access pattern it serves and where each model finds it; the models page
// lists them all, with anchors the pages link to.
func TestPagesNameTheirAccessPatterns(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	app.client(t).signUp("rita")
	c := app.client(t)
	for path, want := range map[string][]string{
		"/public":     {`href="/models#Q4"`, "Userline[&#39;!PUBLIC!&#39;]", "public_line WHERE day = ?"},
		"/users/rita": {`href="/models#Q1"`, `href="/models#Q2"`, `href="/models#Q5"`, "get_slice Userline[uuid] reversed"},
		"/blog":       {`href="/models#Q6"`, "TaggedPosts"},
	} {
		r := c.get(path)
		_, footer, _ := strings.Cut(r.body, `id="page-queries"`)
		mustContain(t, footer, want...)
	}
	models := c.get("/models").body
	for _, q := range accessPatterns {
		mustContain(t, models, `<tr id="`+q.ID+`">`)
	}
	for route, ids := range pageQueries {
		for _, id := range ids {
			if !slices.ContainsFunc(accessPatterns, func(q accessPattern) bool { return q.ID == id }) {
				t.Errorf("%s names %s, which the models page does not list", route, id)
			}
		}
	}
}
