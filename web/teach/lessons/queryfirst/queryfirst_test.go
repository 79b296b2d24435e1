package queryfirst_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// tryKey posts a key from the lesson's form and reads the page its redirect leads to.
func tryKey(t *testing.T, c *webkit.Client, form url.Values) string {
	t.Helper()
	r := c.Post("/learn/act/key", form)
	if r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/learn/query-first?pattern=") {
		t.Fatalf("try: %d %q\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	return html.UnescapeString(c.Get(r.Header.Get("Location")).Body)
}

// On widerow the lesson lists the access patterns and draws the diagram; a key tried there is
// answered with why 0.6 has none to try; a bad key is a message on the lesson, not a trial.
func TestQueryFirstLessonOnWiderow(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	r := c.Get("/learn/query-first")
	if r.Status != http.StatusOK {
		t.Fatalf("lesson: %d", r.Status)
	}
	webkit.MustContain(t, r.Body, `id="qf-patterns"`, `id="chebotko-diagram"`, `id="workflow-diagram"`, `id="qf-form"`,
		"which has no CQL node", `<option value="username" selected>username</option>`, `ALLOW FILTERING</a>. This server runs`)
	body := tryKey(t, c, url.Values{"pattern": {"userline"}, "p1": {"username"}, "c1": {"time"}, "d1": {"desc"}})
	webkit.MustContain(t, body, `id="qf-why"`, "Cassandra 0.6 has no CQL and no primary key", "get_range_slices")
	bad := c.Post("/learn/act/key", url.Values{"pattern": {"userline"}, "p1": {"username"}, "c1": {"username"}})
	if bad.Status != http.StatusSeeOther {
		t.Fatalf("a bad key: %d", bad.Status)
	}
	webkit.MustContain(t, html.UnescapeString(c.Get(bad.Header.Get("Location")).Body), "twice in the key")
}

// On the node, in compare mode (widerow answering, cql3 beside it, as serve --compare cql3
// wires the lab): the pattern's own key reads one partition, a day bucket three, a key that
// leaves the user out of the partition key needs ALLOW FILTERING, and the page after each
// trial shows the statements, and what they cost in the footer.
func TestQueryFirstLessonOnNode(t *testing.T) {
	app := teachkit.NewApp(t, webkit.CompareStores(t))
	c := app.Client(t)
	webkit.MustContain(t, html.UnescapeString(c.Get("/learn/query-first").Body), "The keys are tried on this server's Cassandra node (compare mode's cql3 side).")
	for _, tc := range []struct {
		name  string
		form  url.Values
		wants []string
	}{
		{"answer", url.Values{"pattern": {"userline"}, "p1": {"username"}, "c1": {"time"}, "d1": {"desc"}},
			[]string{"<strong>One partition.</strong>", "6 rows came back, in clustering order (ORDER BY time DESC is the table's own).", "PRIMARY KEY (username, time) WITH CLUSTERING ORDER BY (time DESC)",
				"What your table cost", "CREATE TABLE IF NOT EXISTS", "WHERE username = 'ann' ORDER BY time DESC LIMIT 10"}},
		{"buckets", url.Values{"pattern": {"userline"}, "p1": {"username"}, "p2": {"day"}, "c1": {"time"}, "d1": {"desc"}},
			[]string{"<strong>3 partitions.</strong>", "day IN ("}},
		{"filtering", url.Values{"pattern": {"followers"}, "p1": {"follower"}, "c1": {"username"}},
			[]string{"<strong>Refused without ALLOW FILTERING.</strong>", "ALLOW FILTERING", "reads every partition (6)"}},
		{"hot", url.Values{"pattern": {"public"}, "p1": {"line"}, "c1": {"time"}, "d1": {"desc"}},
			[]string{"<strong>One partition.</strong>", "hot partition"}},
		// An ascending table read newest first: ORDER BY DESC reverses the clustering order.
		{"reversed", url.Values{"pattern": {"userline"}, "p1": {"username"}, "c1": {"time"}},
			[]string{"<strong>One partition.</strong>", "6 rows came back, in the reverse of the clustering order (ORDER BY time DESC)"}},
	} {
		body := tryKey(t, c, tc.form)
		_, result, ok := strings.Cut(body, `id="result"`)
		if !ok {
			t.Fatalf("%s: no result:\n%s", tc.name, body)
		}
		webkit.MustContain(t, result+body, tc.wants...)
		// The node is the second model's: the footer shows its statements on its side.
		_, action, _ := strings.Cut(body, `id="action-ops"`)
		_, secondary, _ := strings.Cut(action, `id="secondary-ops"`)
		if !strings.Contains(secondary, "SELECT * FROM") {
			t.Errorf("%s: the lab's SELECT is not on cql3's side of what the table cost:\n%s", tc.name, action)
		}
	}
}
