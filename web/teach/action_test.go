package teach

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"twissandra/adapters/widerow"
)

// A post answers with a redirect; the next page shows what the post cost, writes and fan-out
// size included, above what the page itself cost, once.
func TestActionOpsSurviveTheRedirect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		stores func(t *testing.T) stores
		write  string // how the fan-out's write shows in this model
	}{
		{"memory", func(*testing.T) stores { return memoryStores() }, "append entry time="},
		{"widerow", func(t *testing.T) stores { return widerowStores(t) }, "Timeline: 4 rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			actionOpsShown(t, newApp(t, tc.stores(t)), tc.write)
		})
	}
}

func TestActionOpsSurviveTheRedirectCQL(t *testing.T) {
	st, _ := cql3Stores(t)
	actionOpsShown(t, newApp(t, st), "INSERT INTO")
}

func actionOpsShown(t *testing.T, app *testApp, write string) {
	t.Helper()
	const followers = 3
	for i := range followers {
		app.client(t).signUp(fmt.Sprintf("fan%d", i))
	}
	c := app.client(t)
	c.signUp("star")
	for i := range followers {
		if err := app.social.Follow(bg(), fmt.Sprintf("fan%d", i), "star"); err != nil {
			t.Fatal(err)
		}
	}
	r := c.post("/tweets", url.Values{"body": {"hello fans"}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("post: %d", r.status)
	}
	page := c.get(r.header.Get("Location"))
	action, rest, ok := strings.Cut(page.body, `id="storage-ops"`)
	if !ok || !strings.Contains(action, `id="action-ops"`) {
		t.Fatalf("no action ops before the page's own:\n%s", page.body)
	}
	mustContain(t, action, "What your post cost", "fan-out: the tweet went to 6 lines in one Append", "3 followers&#39; timelines", write)
	mustContain(t, rest, "What this page cost")
	// Shown once: the next page has its own operations only.
	if again := c.get("/"); strings.Contains(again.body, `id="action-ops"`) {
		t.Fatal("the post's operations are shown twice")
	}
}

// On widerow a user page costs fewer reads on a second visit (the adapter remembers usernames'
// UUIDs); the footer says which lookups a cache answered, and why.
func TestCacheNoteWiderow(t *testing.T) {
	t.Parallel()
	warm := widerowStores(t)
	newApp(t, warm).client(t).signUp("rita")
	// A second server over the same node: its adapter has read nothing yet.
	s := widerow.NewStore(warm.node)
	cold := warm
	cold.users, cold.tweets, cold.lines = s, s, s
	c := newApp(t, cold).client(t)
	first := c.get("/users/rita")
	if n := strings.Count(first.body, "multiget_slice Twissandra.Username"); n != 1 {
		t.Fatalf("a cold visit reads the Username index %d times, want once", n)
	}
	second := c.get("/users/rita")
	if strings.Contains(second.body, "multiget_slice Twissandra.Username") {
		t.Fatal("a warm visit reads the Username index")
	}
	for _, page := range []string{first.body, second.body} {
		mustContain(t, page, "cache Username: 1 of 1 lookups answered from the adapter", `id="cache-note"`)
	}
	if a, b := first.header.Get("Storage-Ops"), second.header.Get("Storage-Ops"); a == b {
		t.Fatalf("both visits cost %q", a)
	}
}
