package paths_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// act posts an action from the lesson's form and reads the page its redirect leads to.
func act(t *testing.T, c *webkit.Client, action string) string {
	t.Helper()
	r := c.Post("/learn/paths/act", url.Values{"action": {action}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/learn/paths#run" {
		t.Fatalf("%s: %d %q\n%s", action, r.Status, r.Header.Get("Location"), r.Body)
	}
	return html.UnescapeString(c.Get("/learn/paths").Body)
}

// figure is the row of the figures table for id.
func figure(t *testing.T, body, id string) string {
	t.Helper()
	_, row, ok := strings.Cut(body, `data-figure="`+id+`"`)
	if !ok {
		t.Fatalf("no figure %s:\n%s", id, body)
	}
	row, _, _ = strings.Cut(row, "</tr>")
	return row
}

// On widerow the learner's write reaches the log and the memtable, a flush makes a table file in
// L0, a second flush at once is refused (the store's bound), a read reads the table's blocks, a
// compaction leaves the files in L6; each page shows the figures before and after, the call
// sent, and what it cost in the footer.
func TestPathsLessonOnWiderow(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	r := c.Get("/learn/paths")
	if r.Status != http.StatusOK {
		t.Fatalf("lesson: %d", r.Status)
	}
	webkit.MustContain(t, r.Body, `id="paths-form"`, `id="paths-figures"`, `id="paths-now"`, `id="write-path"`, `id="read-path"`, `id="paths-write"`, `id="paths-compact"`, "64 MiB on this store")

	body := act(t, c, "write")
	webkit.MustContain(t, body, `id="paths-summary"`, "insert Scratch.UTF8s['paths-", "appended", "What your write cost")
	if row := figure(t, body, "wal-in"); !strings.Contains(row, `class="changed"`) {
		t.Errorf("the write did not move the log's bytes: %s", row)
	}
	if row := figure(t, body, "tables"); strings.Contains(row, `class="changed"`) {
		t.Errorf("the write made a table file: %s", row)
	}

	body = act(t, c, "flush")
	// Pebble's own compactions may move a flushed file down at any time: the file is new, its
	// level is Pebble's.
	webkit.MustContain(t, body, "The flush wrote the memtable to a table file", ": new ", ".sst in L", `id="paths-tables"`)
	for _, id := range []string{"flushes"} {
		if row := figure(t, body, id); !strings.Contains(row, `class="changed"`) {
			t.Errorf("the flush did not move %s: %s", id, row)
		}
	}
	again := c.Post("/learn/paths/act", url.Values{"action": {"flush"}})
	if again.Status != http.StatusSeeOther {
		t.Fatalf("a second flush at once: %d", again.Status)
	}
	webkit.MustContain(t, html.UnescapeString(c.Get("/learn/paths").Body), "runs a flush at most every 2s")

	body = act(t, c, "read")
	webkit.MustContain(t, body, "The read found “written at ", "table blocks", "consulted 0 bloom filters")

	body = act(t, c, "compact")
	webkit.MustContain(t, body, "The compaction dropped 0 tombstones", ".sst in L6")
	if row := figure(t, body, "compactions"); !strings.Contains(row, `class="changed"`) {
		t.Errorf("the compaction did not count: %s", row)
	}

	bad := c.Post("/learn/paths/act", url.Values{"action": {"drop"}})
	if bad.Status != http.StatusSeeOther {
		t.Fatalf("an unknown action: %d", bad.Status)
	}
	webkit.MustContain(t, html.UnescapeString(c.Get("/learn/paths").Body), "must be one of write, flush, read, delete, compact")
}

// On memory the lesson teaches and says what the backend lacks; its form is not there, and a
// post is a 404 that says why.
func TestPathsLessonOnMemory(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	r := c.Get("/learn/paths")
	if r.Status != http.StatusOK {
		t.Fatalf("lesson: %d", r.Status)
	}
	webkit.MustContain(t, r.Body, `id="paths-unavailable"`, "no log, memtable, file, flush or compaction", `id="read-path"`)
	if strings.Contains(r.Body, `id="paths-form"`) {
		t.Error("the memory backend shows the actions' form")
	}
	if p := c.Post("/learn/paths/act", url.Values{"action": {"write"}}); p.Status != http.StatusNotFound || !strings.Contains(p.Body, "no storage engine") {
		t.Errorf("a post on memory: %d", p.Status)
	}
}

// In compare mode (widerow answering, cql3 beside it): the engine's actions and the node's
// views side by side; a watch of the node shows its views before and after the learner's write
// and read, its settings, and the statements sent, which the footer lists on the node's side.
func TestPathsLessonOnNode(t *testing.T) {
	app := teachkit.NewApp(t, webkit.CompareStores(t))
	c := app.Client(t)
	webkit.MustContain(t, c.Get("/learn/paths").Body, `id="paths-form"`, `id="paths-node-form"`)
	r := c.Post("/learn/paths/node", nil)
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/learn/paths#node" {
		t.Fatalf("watch: %d %q\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	body := html.UnescapeString(c.Get("/learn/paths").Body)
	webkit.MustContain(t, body, `id="paths-node-figures"`, `data-view="local_write_latency" class="changed"`, `id="paths-node-settings"`, "commitlog_sync",
		"SELECT count FROM system_views.local_write_latency WHERE keyspace_name = ? AND table_name = ?", "INSERT INTO ", ".paths_scratch (session, v) VALUES (?, ?)")
	_, action, _ := strings.Cut(body, `id="action-ops"`)
	_, secondary, _ := strings.Cut(action, `id="secondary-ops"`)
	if !strings.Contains(secondary, "paths_scratch") {
		t.Errorf("the footer does not list the node's statements on its side:\n%s", action)
	}
}

// The page rehearses the steps asked on a node of its own and shows each step's figures; steps
// it cannot read are refused with a message on the page, not a 500.
func TestPathsRehearsalOnThePage(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	webkit.MustContain(t, c.Get("/learn/paths").Body, `id="rehearse-form"`, `value="write flush flush"`)
	r := c.Post("/learn/paths/rehearse", url.Values{"steps": {"write flush write flush compact"}, "days": {"0"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/learn/paths#rehearsal" {
		t.Fatalf("rehearsal: %d %q\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	body := html.UnescapeString(c.Get("/learn/paths").Body)
	webkit.MustContain(t, body, `id="rehearse-steps-run"`, `data-action="compact"`, "flushes 0 → 1", "flushes 1 → 2", "2 → 1 files, 1 in L6", ".sst in L6", `value="write flush write flush compact"`)
	// After an answer, the exercise offers its check: the rehearsal of its own steps.
	if r := c.Post("/learn/exercises/paths-1", url.Values{"answer": {"7"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("answer: %d\n%s", r.Status, r.Body)
	}
	body = c.Get("/learn/paths").Body
	webkit.MustContain(t, body, `id="ex-paths-1-verdict"`, `action="/learn/paths/rehearse" class="exercise-watch" id="ex-paths-1-watch"`, `name="steps" value="write flush flush"`)
	if strings.Contains(body, `id="ex-paths-2-watch"`) {
		t.Errorf("an exercise not yet answered offers its check")
	}
	for says, bad := range map[string]url.Values{
		`"fsync" is no step`:                       {"steps": {"write fsync"}, "days": {"0"}},
		"a rehearsal takes 1 to 12 steps":          {"steps": {" "}, "days": {"0"}},
		"a whole number from 0 to 365, not \"-1\"": {"steps": {"write delete"}, "days": {"-1"}},
	} {
		r := c.Post("/learn/paths/rehearse", bad)
		if r.Status != http.StatusSeeOther {
			t.Fatalf("%v: %d\n%s", bad, r.Status, r.Body)
		}
		webkit.MustContain(t, html.UnescapeString(c.Get("/learn/paths").Body), says)
	}
}
