package frame_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"twissandra/adapters/widerow"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// A post answers with a redirect; the next page shows what the post cost, writes and fan-out
// size included, above what the page itself cost, once.
func TestActionOpsSurviveTheRedirect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		stores func(t *testing.T) webkit.Stores
		write  string // how the fan-out's write shows in this model
	}{
		{"memory", func(*testing.T) webkit.Stores { return webkit.MemoryStores() }, "append entry time="},
		{"widerow", func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) }, "Timeline: 4 rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			actionOpsShown(t, teachkit.NewApp(t, tc.stores(t)), tc.write)
		})
	}
}

func TestActionOpsSurviveTheRedirectCQL(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	actionOpsShown(t, teachkit.NewApp(t, st), "INSERT INTO")
}

func actionOpsShown(t *testing.T, app *webkit.App, write string) {
	t.Helper()
	const followers = 3
	for i := range followers {
		app.Client(t).SignUp(fmt.Sprintf("fan%d", i))
	}
	c := app.Client(t)
	c.SignUp("star")
	for i := range followers {
		if err := app.Social.Follow(webkit.BG(), fmt.Sprintf("fan%d", i), "star"); err != nil {
			t.Fatal(err)
		}
	}
	r := c.Post("/tweets", url.Values{"body": {"hello fans"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("post: %d", r.Status)
	}
	page := c.Get(r.Header.Get("Location"))
	action, rest, ok := strings.Cut(page.Body, `id="storage-ops"`)
	if !ok || !strings.Contains(action, `id="action-ops"`) {
		t.Fatalf("no action ops before the page's own:\n%s", page.Body)
	}
	webkit.MustContain(t, action, "What your post cost", "fan-out: the tweet went to 6 lines in one Append", "3 followers&#39; timelines", write)
	webkit.MustContain(t, rest, "What this page cost")
	// Shown once: the next page has its own operations only.
	if again := c.Get("/"); strings.Contains(again.Body, `id="action-ops"`) {
		t.Fatal("the post's operations are shown twice")
	}
}

// On widerow a user page costs fewer reads on a second visit (the adapter remembers usernames'
// UUIDs); the footer says which lookups a cache answered, and why.
func TestCacheNoteWiderow(t *testing.T) {
	t.Parallel()
	warm := webkit.WiderowStores(t)
	teachkit.NewApp(t, warm).Client(t).SignUp("rita")
	// A second server over the same node: its adapter has read nothing yet.
	s := widerow.NewStore(warm.Node)
	cold := warm
	cold.Users, cold.Tweets, cold.Lines = s, s, s
	c := teachkit.NewApp(t, cold).Client(t)
	first := c.Get("/users/rita")
	if n := strings.Count(first.Body, "multiget_slice Twissandra.Username"); n != 1 {
		t.Fatalf("a cold visit reads the Username index %d times, want once", n)
	}
	second := c.Get("/users/rita")
	if strings.Contains(second.Body, "multiget_slice Twissandra.Username") {
		t.Fatal("a warm visit reads the Username index")
	}
	for _, page := range []string{first.Body, second.Body} {
		webkit.MustContain(t, page, "cache Username: 1 of 1 lookups answered from the adapter", `id="cache-note"`)
	}
	if a, b := first.Header.Get("Storage-Ops"), second.Header.Get("Storage-Ops"); a == b {
		t.Fatalf("both visits cost %q", a)
	}
}
