package ttl_test

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// On a backend without a node the lesson says what it lacks and where to see it, and still
// shows the public line's buckets as the migrations make them, and the engine's exercise.
func TestTTLLessonWithoutNode(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	body := html.UnescapeString(c.LessonPage("/learn/ttl"))
	webkit.MustContain(t, body, `id="ttl-no-node"`, "This server runs <strong>memory</strong>, which has no TTL", "--backend cql3", "CREATE TABLE IF NOT EXISTS public_line", "PRIMARY KEY (day, time)",
		"CASSANDRA-699", `id="ex-ttl-4"`)
	webkit.MustNotContain(t, body, `id="ttl-form"`, `id="ex-ttl-1"`)
}

// On the node: the page shows the table's options as the node reports them and a run's
// statements and reads; the exercises' answers follow what the node did.
func TestTTLLessonOnTheNode(t *testing.T) {
	t.Parallel()
	st, _ := webkit.CQL3Stores(t)
	c := teachkit.NewApp(t, st).Client(t)
	body := html.UnescapeString(c.LessonPage("/learn/ttl"))
	webkit.MustContain(t, body, `id="ttl-form"`, `id="ttl-options"`, "shorter than its grace", "<code>compaction['class']</code></td><td><code>org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy</code>",
		"<code>default_time_to_live</code></td><td>300", `id="ex-ttl-1"`, `id="ex-ttl-2"`, `id="ex-ttl-3"`, `id="ex-ttl-4"`)
	body = html.UnescapeString(c.Submit("/learn/act/ttl", url.Values{"ttl": {"1"}, "update": {"none"}, "wait": {"1"}}, "/learn/ttl#run").Body)
	webkit.MustContain(t, body, "USING TTL ?</code>", "SELECT reading, note, TTL(reading), TTL(note), WRITETIME(reading), WRITETIME(note) FROM", "after it expired", "no row",
		"and so was the row", "What your TTL run cost", "(tracing on)", "Measured: the node's trace of the read after the TTL", "Read 0 live rows and 2 tombstone cells")
	body = html.UnescapeString(c.Submit("/learn/act/ttl", url.Values{"ttl": {"60"}, "update": {"none"}}, "/learn/ttl#run").Body)
	webkit.MustContain(t, body, "a TTL of 1 to 5 seconds")

}

// On widerow the lesson says there is no TTL, and reads what 0.6 has: the public line's row,
// its newest TimeUUID columns in time order, and its stored cells; a post more, a column more.
func TestTTLLessonOnWiderow(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	teachkit.PostMany(t, app, "ann", 0, 2)
	body := html.UnescapeString(c.LessonPage("/learn/ttl"))
	webkit.MustContain(t, body, "This server runs <strong>widerow</strong>, which has no TTL", "expiring columns came with 0.7", `id="ttl-widerow"`,
		"the public line is one row, <code>Twissandra.Userline['!PUBLIC!']</code>", "Its 2 newest", "Of the row's first 2 stored cells", `id="ex-ttl-4"`)
	if n := strings.Count(body, `<td data-label="column name">`); n != 2 {
		t.Errorf("%d newest columns shown, want 2", n)
	}
	teachkit.PostMany(t, app, "bob", 0, 1)
	body = html.UnescapeString(c.LessonPage("/learn/ttl"))
	webkit.MustContain(t, body, "Its 3 newest", "Of the row's first 3 stored cells")
}
