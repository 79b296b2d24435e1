package teach

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The celebrity page: the server's threshold, a user's count and mode, the measured figures
// from static/celebrity.json, each backend's way of counting, and a readable refusal of a bad
// name.
func TestCelebrityPage(t *testing.T) {
	t.Parallel()
	app := newApp(t, widerowStores(t))
	c := app.client(t)
	c.signUp("star")
	r := c.get("/models/celebrity?user=star")
	if r.status != http.StatusOK {
		t.Fatalf("celebrity: %d %s", r.status, r.body)
	}
	mustContain(t, r.body, `id="threshold"`, "pull threshold <strong>0</strong>", `id="fanout-result"`, "has <strong>0</strong> followers", "push",
		`id="celebrity-plot"`, `src="/static/celebrity.svg"`, `id="celebrity-figures"`, "1000000", `id="count-choices"`, "static column", "get_count",
		"You follow no pulled author", "domain/social/fanout.go: mergedPage", "No author has been pulled on this server yet", celebrityNote)
	if len(celebrityFigures) < 4 || len(celebrityPageFigures) < 4 {
		t.Fatalf("static/celebrity.json: %d post figures, %d page figures", len(celebrityFigures), len(celebrityPageFigures))
	}
	if svg := c.get("/static/celebrity.svg"); svg.status != http.StatusOK || !strings.Contains(svg.body, "<polyline") {
		t.Fatalf("the plot: %d", svg.status)
	}
	for target, status := range map[string]int{"/models/celebrity?user=" + url.QueryEscape("no way"): http.StatusBadRequest, "/models/celebrity?user=nobody": http.StatusNotFound} {
		r := c.get(target)
		if r.status != status || !strings.Contains(r.body, `id="fanout-error"`) {
			t.Errorf("%s: %d, want %d with the message", target, r.status, status)
		}
	}
	c.post("/tweets", url.Values{"body": {"from the top"}})
	r = c.get("/models/celebrity")
	mustContain(t, r.body, `id="celebrity-post"`, "The last post wrote")
}
