package labs_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/labs"
)

// The celebrity page: the server's threshold, a user's count and mode, the measured figures
// from static/celebrity.json, each backend's way of counting, and a readable refusal of a bad
// name.
func TestCelebrityPage(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	c.SignUp("star")
	r := c.Get("/models/celebrity?user=star")
	if r.Status != http.StatusOK {
		t.Fatalf("celebrity: %d %s", r.Status, r.Body)
	}
	webkit.MustContain(t, r.Body, `id="threshold"`, "pull threshold <strong>0</strong>", `id="fanout-result"`, "has <strong>0</strong> followers", "push",
		`id="celebrity-plot"`, `src="/static/celebrity.svg"`, `id="celebrity-figures"`, "1000000", `id="count-choices"`, "static column", "get_count",
		"You follow no pulled author", "domain/social/fanout.go: mergedPage", "No author has been pulled on this server yet", labs.CelebrityNote)
	if len(labs.CelebrityFigures) < 4 || len(labs.CelebrityPageFigures) < 4 {
		t.Fatalf("static/celebrity.json: %d post figures, %d page figures", len(labs.CelebrityFigures), len(labs.CelebrityPageFigures))
	}
	if svg := c.Get("/static/celebrity.svg"); svg.Status != http.StatusOK || !strings.Contains(svg.Body, "<polyline") {
		t.Fatalf("the plot: %d", svg.Status)
	}
	for target, status := range map[string]int{"/models/celebrity?user=" + url.QueryEscape("no way"): http.StatusBadRequest, "/models/celebrity?user=nobody": http.StatusNotFound} {
		r := c.Get(target)
		if r.Status != status || !strings.Contains(r.Body, `id="fanout-error"`) {
			t.Errorf("%s: %d, want %d with the message", target, r.Status, status)
		}
	}
	c.Post("/tweets", url.Values{"body": {"from the top"}})
	r = c.Get("/models/celebrity")
	webkit.MustContain(t, r.Body, `id="celebrity-post"`, "The last post on this server (", "yours", ") wrote")
}

// The heads on the celebrity page: what the server holds of a pulled author's userline, and
// the viewer's home page read without the heads and with them, the second taking the pulled
// author from memory once the first visit has read its head; both reads are in the footer.
func TestCelebrityPageShowsTheHeads(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	ctx := context.Background()
	c := app.Client(t)
	c.SignUp("reader")
	for _, u := range []string{"star", "fan"} {
		if _, err := app.Social.SignUp(ctx, u, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"reader", "fan"} {
		if err := app.Social.Follow(ctx, f, "star"); err != nil {
			t.Fatal(err)
		}
	}
	if err := app.Social.SetPullThreshold(1); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Social.Post(ctx, "star", "from the top"); err != nil {
		t.Fatal(err)
	}
	r := c.Get("/models/celebrity")
	webkit.MustContain(t, r.Body, `id="heads"`, `id="head-bound"`, "1s", `id="merge-reads"`, "without the heads", "with the heads",
		`<td data-label="Heads read">1</td>`, `id="heads-held"`, `href="/users/star"`, "(the whole userline)", "yes: used without a read")
	r = c.Get("/models/celebrity")
	with := r.Body[strings.Index(r.Body, "<td data-label=\"Read\">with the heads"):]
	webkit.MustContain(t, with, `<td data-label="From heads">1</td>`, `<td data-label="Heads read">0</td>`, `<td data-label="Slices">1</td>`)
	without := r.Body[strings.Index(r.Body, "<td data-label=\"Read\">without the heads"):]
	webkit.MustContain(t, without, `<td data-label="From heads">0</td>`, `<td data-label="Slices">2</td>`)
	// Each read's cost counts storage calls, and its notes apart, as the footer's headline does.
	for _, read := range []string{with, without} {
		_, cost, _ := strings.Cut(read, `<td data-label="Operations"><code>`)
		if cost, _, _ = strings.Cut(cost, "</code>"); !regexp.MustCompile(`^\d+ storage calls?: get_slice=\d+`).MatchString(cost) || !strings.Contains(cost, "notes, not calls: ") || strings.Contains(cost, " ops:") {
			t.Errorf("a read's cost: %q", cost)
		}
	}
	if n := strings.Count(r.Body, "merge: reader&#39;s timeline"); n != 2 {
		t.Errorf("the footer shows %d merges, want both reads'", n)
	}
	if err := app.Social.SetHeadBound(0); err != nil {
		t.Fatal(err)
	}
	r = c.Get("/models/celebrity")
	webkit.MustContain(t, r.Body, "This server keeps no heads", "The heads are empty")
}
