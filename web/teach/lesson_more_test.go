package teach

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"twissandra/internal/testkit/webkit"
)

// postFromLesson posts a tweet from a lesson's form and returns the page its redirect leads to.
func postFromLesson(t *testing.T, c *webkit.Client, slug, body string) string {
	t.Helper()
	r := c.Post("/learn/act/post", url.Values{"lesson": {slug}, "body": {body}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/learn/"+slug+"#live" {
		t.Fatalf("post from %s: %d %q", slug, r.Status, r.Header.Get("Location"))
	}
	return html.UnescapeString(c.Get("/learn/" + slug).Body)
}

// Lesson 10 on widerow: each column family's largest row against the guidance, the public line
// one row that grows without bound; a post from the lesson widens it by one, and the page after
// shows what the post cost.
func TestPartitionsLesson(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.WiderowStores(t))
	postMany(t, app, "star", 3, 12)
	c := app.Client(t)
	c.SignUp("ann")
	body := html.UnescapeString(c.Get("/learn/partitions").Body)
	webkit.MustContain(t, body, "100 MB", "100,000 cells", `id="pl-largest-widerow"`, "<code>Twissandra.Userline</code>",
		"without bound:</strong> every post of ", "<code>Twissandra.Tweet</code>", "bounded: a few columns",
		`<strong id="pl-public-count-widerow">12</strong>`, `id="post-partitions"`)
	// star's Followers row: 3 columns of 100,000.
	if !regexp.MustCompile(`<code>Twissandra.Followers</code>.*?<td data-label="Cells">3 <span class="muted">\(under 1% of 100,000\)`).MatchString(body) {
		t.Errorf("the Followers row against the guidance:\n%s", body)
	}
	body = postFromLesson(t, c, "partitions", "one more")
	webkit.MustContain(t, body, "What your post cost", `<strong id="pl-public-count-widerow">13</strong>`, "fan-out: the tweet went to")
	if r := app.Client(t).Post("/learn/act/post", url.Values{"lesson": {"partitions"}, "body": {"x"}}); r.Status != http.StatusSeeOther {
		t.Errorf("a post signed out: %d", r.Status) // back to the lesson, with a message
	}
	if r := c.Post("/learn/act/post", url.Values{"lesson": {"primer"}, "body": {"x"}}); r.Status != http.StatusBadRequest {
		t.Errorf("a post for a lesson that takes none: %d", r.Status)
	}
}

// In compare mode lesson 10 measures both models: the public line one hot row on widerow, a
// partition a day on cql3; each table's cells count a cell per value column.
func TestPartitionsLessonCompare(t *testing.T) {
	app := newApp(t, webkit.CompareStores(t))
	postMany(t, app, "star", 2, 5)
	body := html.UnescapeString(app.Client(t).Get("/learn/partitions").Body)
	webkit.MustContain(t, body, `id="pl-model-widerow"`, `id="pl-model-cql3"`, "One partition of <code>public_line</code> a",
		"5 posts in the last 1 day", "<code>followers</code>", "<code>Twissandra.Followers</code>")
}

// Lesson 11: the threshold of this server, the measured figures, a user's fan-out, and a post
// whose fan-out line the page after shows.
func TestCelebrityLesson(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	c.SignUp("ann")
	body := html.UnescapeString(c.Get("/learn/celebrity").Body)
	webkit.MustContain(t, body, `<strong id="cl-threshold-value">0</strong>`, `id="cl-largest"`, `id="cl-pages"`,
		"<strong>0</strong> followers: <strong class=\"mode-push\">push</strong>", `id="post-celebrity"`, `href="/learn/glossary#fan-out"`,
		`id="cl-heads"`, "the heads of <strong>0</strong> authors", "read again after <strong>1s</strong>", `href="/models/celebrity#heads"`)
	if len(regexp.MustCompile(`<td data-label="Followers">`).FindAllString(body, -1)) == 0 {
		t.Error("no measured figure")
	}
	body = postFromLesson(t, c, "celebrity", "who gets this")
	webkit.MustContain(t, body, "What your post cost", "fan-out: the tweet went to 3 lines", "The last post on this server cost")
	if r := c.Get("/learn/celebrity?user=nobody"); !strings.Contains(r.Body, `id="cl-error"`) {
		t.Errorf("an unknown user:\n%s", r.Body)
	}
}

// Lesson 12 outside compare mode says how to start one; in compare mode a post from it shows
// both models' writes side by side.
func TestCompareLesson(t *testing.T) {
	t.Parallel()
	body := html.UnescapeString(newApp(t, webkit.WiderowStores(t)).Client(t).Get("/learn/compare").Body)
	webkit.MustContain(t, body, `id="compare-off"`, "make compare", "serve --backend widerow --compare cql3")
	webkit.MustNotContain(t, body, `id="post-compare"`)
}

func TestCompareLessonInCompareMode(t *testing.T) {
	app := newApp(t, webkit.CompareStores(t))
	c := app.Client(t)
	c.SignUp("ann")
	webkit.MustContain(t, c.Get("/learn/compare").Body, `id="compare-on"`, `id="post-compare"`)
	body := postFromLesson(t, c, "compare", "two models")
	_, action, _ := strings.Cut(body, `id="action-ops"`)
	action, _, _ = strings.Cut(action, "</details>")
	webkit.MustContain(t, action, "batch_mutate", `id="secondary-ops"`, "INSERT INTO")
	webkit.MustContain(t, body, "The last post on this server: <strong>", "; cql3: <strong>")
}
