package cql3_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"twissandra/adapters/cql3"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// Lesson 8 shows the tables as the migrations make them (no copy: each statement is in
// cql3.SchemaText()), every column family with its table, and a user's followers partition:
// on widerow built from the follows, beside widerow's own Followers and User rows; a follow
// from the lesson comes back to it, with its cost and the count one higher.
func TestCQL3Lesson(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	c.SignUp("bob")
	ann := app.Client(t)
	ann.SignUp("ann")
	r := ann.Get("/learn/cql3")
	if r.Status != http.StatusOK {
		t.Fatalf("lesson: %d\n%s", r.Status, r.Body)
	}
	body := html.UnescapeString(r.Body)
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
	webkit.MustContain(t, body, "<code>Twissandra.Timeline</code>", "K username, C↓ time", "CompositeType(ReversedType(TimeUUIDType), UTF8Type)",
		"CompositeType(UTF8Type, UTF8Type)", `href="/learn/glossary#row-marker"`, `href="/learn/glossary#static-column"`)

	// ann's followers: none; bob follows her from the lesson.
	r = c.Get("/learn/cql3?user=ann")
	webkit.MustContain(t, r.Body, `<strong id="cql3-count">0</strong> followers`, `id="cql3-follow"`, "Follow ann")
	f := c.Post("/learn/act/follow", url.Values{"lesson": {"cql3"}, "user": {"ann"}})
	if f.Status != http.StatusSeeOther || f.Header.Get("Location") != "/learn/cql3?user=ann#live" {
		t.Fatalf("follow: %d %q", f.Status, f.Header.Get("Location"))
	}
	r = c.Get("/learn/cql3?user=ann")
	body = html.UnescapeString(r.Body)
	webkit.MustContain(t, body, "What your follow of ann cost", "batch_mutate", `<strong id="cql3-count">1</strong> follower `,
		"Unfollow ann", `'bob'`, "follower_count", "static: one cell per partition", "row marker",
		"Followers =", `"followers"`)
	// Not signed in, the follow form is a sentence.
	anon := app.Client(t).Get("/learn/cql3?user=ann")
	webkit.MustNotContain(t, anon.Body, `id="cql3-follow"`)
	if r := app.Client(t).Get("/learn/cql3?user=nobody"); !strings.Contains(r.Body, `id="cql3-error"`) {
		t.Errorf("an unknown user:\n%s", r.Body)
	}
}

// On the node, the partition is the running table's, with the static cell once.
func TestCQL3LessonOnNode(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	c.SignUp("ann")
	c.SignUp("bob")
	if f := c.Post("/learn/act/follow", url.Values{"lesson": {"cql3"}, "user": {"ann"}}); f.Status != http.StatusSeeOther {
		t.Fatalf("follow: %d", f.Status)
	}
	r := c.Get("/learn/cql3?user=ann")
	body := html.UnescapeString(r.Body)
	webkit.MustContain(t, body, "What your follow of ann cost", "IF NOT EXISTS", "as the running node returns it", `<strong id="cql3-count">1</strong>`,
		"static: one cell per partition", "SELECT")
	if strings.Count(body, "follower_count") < 2 {
		t.Errorf("the static column in both views:\n%s", body)
	}
}

// Built from widerow's follows (a Followers row sorted by the followers' random UUIDs), the rows
// come as the followers table returns them: in the clustering column's order, by follower.
func TestCQL3LessonRowsInClusteringOrder(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	app.Client(t).SignUp("ann")
	names := []string{"fred", "erin", "dave", "carl", "bess", "abby"}
	for _, name := range names {
		c := app.Client(t)
		c.SignUp(name)
		if f := c.Post("/learn/act/follow", url.Values{"lesson": {"cql3"}, "user": {"ann"}}); f.Status != http.StatusSeeOther {
			t.Fatalf("follow: %d", f.Status)
		}
	}
	body := app.Client(t).LessonPage("/learn/cql3?user=ann")
	for _, id := range []string{`id="cql3-rows"`, `id="cql3-wide"`} {
		_, part, ok := strings.Cut(body, id)
		if !ok {
			t.Fatalf("no %s:\n%s", id, body)
		}
		part, _, _ = strings.Cut(part, "</section>")
		last := -1
		for i := len(names) - 1; i >= 0; i-- { // abby, bess, ... fred
			at := strings.Index(part, "'"+names[i]+"'")
			if at < last {
				t.Errorf("%s: %s before %s, out of clustering order:\n%s", id, names[i], names[i+1], part)
			}
			last = at
		}
	}
}

// The DDL shown is the migrations' statements for the tables the column families became; the
// page names the migrations' other tables (none maps a column family), so that the two together
// are every table the server creates, and it claims no more than it shows.
func TestCQL3LessonNamesEveryMigrationTable(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	body := app.Client(t).LessonPage("/learn/cql3")
	_, ddl, _ := strings.Cut(body, `<pre class="code" id="cql3-ddl">`)
	ddl, _, _ = strings.Cut(ddl, "</pre>")
	_, others, ok := strings.Cut(body, `id="cql3-other-tables"`)
	if !ok {
		t.Fatalf("no list of the other tables:\n%s", body)
	}
	others, _, _ = strings.Cut(others, "</p>")
	tables := regexp.MustCompile(`CREATE TABLE IF NOT EXISTS (\w+)`).FindAllStringSubmatch(cql3.SchemaText(), -1)
	if len(tables) < 17 {
		t.Fatalf("%d tables in the migrations", len(tables))
	}
	for _, m := range tables {
		inDDL := strings.Contains(ddl, m[0]+" ") || strings.Contains(ddl, m[0]+"(")
		listed := strings.Contains(others, "<code>"+m[1]+"</code>")
		if inDDL == listed {
			t.Errorf("table %s: in the DDL %v, among the others %v", m[1], inDDL, listed)
		}
	}
	webkit.MustContain(t, others, "007_action_records.cql")
	webkit.MustNotContain(t, body, "applies exactly this text")
}
