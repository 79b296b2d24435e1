package teach

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"twissandra/adapters/cql3"
)

// Lesson 8 shows the tables as the migrations make them (no copy: each statement is in
// cql3.SchemaText()), every column family with its table, and a user's followers partition:
// on widerow built from the follows, beside widerow's own Followers and User rows; a follow
// from the lesson comes back to it, with its cost and the count one higher.
func TestCQL3Lesson(t *testing.T) {
	t.Parallel()
	app := newApp(t, widerowStores(t))
	c := app.client(t)
	c.signUp("bob")
	ann := app.client(t)
	ann.signUp("ann")
	r := ann.get("/learn/cql3")
	if r.status != http.StatusOK {
		t.Fatalf("lesson: %d\n%s", r.status, r.body)
	}
	body := html.UnescapeString(r.body)
	_, ddl, _ := strings.Cut(body, `<pre class="code" id="cql3-ddl">`)
	ddl, _, _ = strings.Cut(ddl, "</pre>")
	schema := strings.Join(strings.Fields(cql3.SchemaText()), " ")
	for _, stmt := range strings.Split(ddl, ";") {
		if stmt = strings.Join(strings.Fields(stmt), " "); stmt != "" && !strings.Contains(schema, stmt) {
			t.Errorf("the lesson shows %q, which the migrations do not hold", stmt)
		}
	}
	for _, want := range []string{"CREATE TABLE IF NOT EXISTS timeline", "ALTER TABLE followers ADD follower_count int static;",
		"ALTER TABLE timeline ADD (author text", "CREATE TABLE IF NOT EXISTS comments"} {
		if !strings.Contains(ddl, want) {
			t.Errorf("the DDL lacks %q", want)
		}
	}
	mustContain(t, body, "<code>Twissandra.Timeline</code>", "K username, C↓ time", "CompositeType(ReversedType(TimeUUIDType), UTF8Type)",
		"CompositeType(UTF8Type, UTF8Type)", `href="/learn/glossary#row-marker"`, `href="/learn/glossary#static-column"`)

	// ann's followers: none; bob follows her from the lesson.
	r = c.get("/learn/cql3?user=ann")
	mustContain(t, r.body, `<strong id="cql3-count">0</strong> followers`, `id="cql3-follow"`, "Follow ann")
	f := c.post("/learn/act/follow", url.Values{"lesson": {"cql3"}, "user": {"ann"}})
	if f.status != http.StatusSeeOther || f.header.Get("Location") != "/learn/cql3?user=ann#live" {
		t.Fatalf("follow: %d %q", f.status, f.header.Get("Location"))
	}
	r = c.get("/learn/cql3?user=ann")
	body = html.UnescapeString(r.body)
	mustContain(t, body, "What your follow of ann cost", "batch_mutate", `<strong id="cql3-count">1</strong> follower `,
		"Unfollow ann", `'bob'`, "follower_count", "static: one cell per partition", "row marker",
		"Followers =", `"followers"`)
	// Not signed in, the follow form is a sentence.
	anon := app.client(t).get("/learn/cql3?user=ann")
	mustNotContain(t, anon.body, `id="cql3-follow"`)
	if r := app.client(t).get("/learn/cql3?user=nobody"); !strings.Contains(r.body, `id="cql3-error"`) {
		t.Errorf("an unknown user:\n%s", r.body)
	}
}

// On the node, the partition is the running table's, with the static cell once.
func TestCQL3LessonOnNode(t *testing.T) {
	st, _ := cql3Stores(t)
	app := newApp(t, st)
	c := app.client(t)
	c.signUp("ann")
	c.signUp("bob")
	if f := c.post("/learn/act/follow", url.Values{"lesson": {"cql3"}, "user": {"ann"}}); f.status != http.StatusSeeOther {
		t.Fatalf("follow: %d", f.status)
	}
	r := c.get("/learn/cql3?user=ann")
	body := html.UnescapeString(r.body)
	mustContain(t, body, "What your follow of ann cost", "IF NOT EXISTS", "as the running node returns it", `<strong id="cql3-count">1</strong>`,
		"static: one cell per partition", "SELECT")
	if strings.Count(body, "follower_count") < 2 {
		t.Errorf("the static column in both views:\n%s", body)
	}
}
