package partitions_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// Lesson 11 on widerow: each column family's largest row against the guidance, the public line
// one row that grows without bound; a post from the lesson widens it by one, and the page after
// shows what the post cost.
func TestPartitionsLesson(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	teachkit.PostMany(t, app, "star", 3, 12)
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
	body = teachkit.PostFromLesson(t, c, "partitions", "one more")
	webkit.MustContain(t, body, "What your post cost", `<strong id="pl-public-count-widerow">13</strong>`, "fan-out: the tweet went to")
	if r := app.Client(t).Post("/learn/act/post", url.Values{"lesson": {"partitions"}, "body": {"x"}}); r.Status != http.StatusSeeOther {
		t.Errorf("a post signed out: %d", r.Status) // back to the lesson, with a message
	}
	if r := c.Post("/learn/act/post", url.Values{"lesson": {"primer"}, "body": {"x"}}); r.Status != http.StatusBadRequest {
		t.Errorf("a post for a lesson that takes none: %d", r.Status)
	}
}

// In compare mode lesson 11 measures both models: the public line one hot row on widerow, a
// partition a day on cql3; each table's cells count a cell per value column.
func TestPartitionsLessonCompare(t *testing.T) {
	app := teachkit.NewApp(t, webkit.CompareStores(t))
	teachkit.PostMany(t, app, "star", 2, 5)
	body := html.UnescapeString(app.Client(t).Get("/learn/partitions").Body)
	webkit.MustContain(t, body, `id="pl-model-widerow"`, `id="pl-model-cql3"`, "One partition of <code>public_line</code> a",
		"5 posts in the last 1 day", "<code>followers</code>", "<code>Twissandra.Followers</code>")
}

// On cql3 the public line is a partition a day, bounded by a day's posts (not "a few
// columns"), and public_days one partition that gains a row a day with posts: it grows for
// ever, slowly.
func TestPartitionsLessonLabelsTheDayBuckets(t *testing.T) {
	app := teachkit.NewApp(t, webkit.CompareStores(t))
	teachkit.PostMany(t, app, "star", 2, 5)
	body := html.UnescapeString(app.Client(t).Get("/learn/partitions").Body)
	for table, want := range map[string]string{
		"public_line": "bounded by a day:</strong> every post of everyone that day",
		"public_days": "without bound, slowly:</strong> a row a day with posts",
	} {
		m := regexp.MustCompile(`(?s)<code>` + table + `</code>.*?</tr>`).FindString(body)
		if m == "" {
			t.Errorf("no row of %s in the largest partitions:\n%s", table, body)
			continue
		}
		if !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(m) {
			t.Errorf("%s labelled\n%s\nwant %q", table, m, want)
		}
	}
}

// On memory the public line is one entry of a map in one process: no replicas hold it (memory
// has no ring, as lesson 14 says).
func TestPartitionsLessonMemoryHasNoReplicas(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	teachkit.PostMany(t, app, "star", 2, 5)
	body := html.UnescapeString(app.Client(t).Get("/learn/partitions").Body)
	webkit.MustContain(t, body, `id="pl-public-memory"`, "in this one process")
	if regexp.MustCompile(`on the same replicas`).MatchString(body) {
		t.Errorf("memory's public line on replicas:\n%s", body)
	}
}
