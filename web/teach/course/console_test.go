package course_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// runLessonConsoles posts every lesson's statements of lang as the lesson's box posts them,
// each lesson from a browser of its own: the run comes back to the lesson's box, every
// statement printed and none refused, and the footer says what they cost.
func runLessonConsoles(t *testing.T, app *webkit.App, lang string) {
	t.Helper()
	n := 0
	for _, l := range frame.Course() {
		for _, o := range l.Consoles {
			if o.Language != lang {
				continue
			}
			n++
			c := app.Client(t)
			path := "/learn/" + l.Slug
			box := "console-" + lang
			page := c.LessonPage(path)
			webkit.MustContain(t, page, `id="`+box+`"`, `id="`+box+`-input"`, o.Statements[0]+"\n"+o.Statements[1])
			r := c.Submit(frame.ConsoleURL, url.Values{"language": {lang}, "statements": {strings.Join(o.Statements, "\n")}, "back": {path + "#" + box}}, path+"#"+box)
			body := html.UnescapeString(r.Body)
			if r.Status != http.StatusOK || strings.Contains(body, "console-refused") {
				t.Fatalf("%s: its statements after the run (%d):\n%s", l.Slug, r.Status, body)
			}
			if got := strings.Count(body, `class="console-stmt"`); got != len(o.Statements) {
				t.Errorf("%s: %d statements shown after the run, want %d", l.Slug, got, len(o.Statements))
			}
			webkit.MustContain(t, body, "What your statements cost")
		}
	}
	if n == 0 {
		t.Fatalf("no lesson offers a %s console", lang)
	}
}

// Every lesson's cli statements run on widerow, from the lesson's box.
func TestLessonConsolesRunOnWiderow(t *testing.T) {
	t.Parallel()
	runLessonConsoles(t, teachkit.NewApp(t, webkit.WiderowStores(t)), "cli")
}

// Every lesson's CQL statements run on the node, from the lesson's box.
func TestLessonConsolesRunOnNode(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	runLessonConsoles(t, teachkit.NewApp(t, st), "cql")
}

// apiConsole posts a statement to the API as c (its cookie jar), with token if not "".
func apiConsole(t *testing.T, c *webkit.Client, token, lang, stmt string) (webkit.Response, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"language": lang, "statement": stmt})
	req, _ := http.NewRequest(http.MethodPost, c.App.Srv.URL+"/api/v1/console", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	r := c.Do(req)
	var out map[string]any
	if err := json.Unmarshal([]byte(r.Body), &out); err != nil {
		t.Fatalf("%s: %d %q", stmt, r.Status, r.Body)
	}
	return r, out
}

// mustRun runs stmt through the API and returns what the console printed.
func mustRun(t *testing.T, c *webkit.Client, token, lang, stmt string) string {
	t.Helper()
	r, out := apiConsole(t, c, token, lang, stmt)
	if r.Status != http.StatusOK || r.Header.Get("Storage-Ops") == "" {
		t.Fatalf("%s: %d %v (Storage-Ops %q)", stmt, r.Status, out, r.Header.Get("Storage-Ops"))
	}
	s, _ := out["output"].(string)
	return s
}

// apiToken signs name up through the API and logs in: a bearer token.
func apiToken(t *testing.T, c *webkit.Client, name string) string {
	t.Helper()
	for _, path := range []string{"/api/v1/users", "/api/v1/sessions"} {
		req, _ := http.NewRequest(http.MethodPost, c.App.Srv.URL+path, strings.NewReader(`{"username":"`+name+`","password":"password1"}`))
		req.Header.Set("Content-Type", "application/json")
		r := c.Do(req)
		if path == "/api/v1/sessions" {
			var s struct{ Token string }
			if err := json.Unmarshal([]byte(r.Body), &s); err != nil || s.Token == "" {
				t.Fatalf("log in %s: %d %s", name, r.Status, r.Body)
			}
			return s.Token
		}
	}
	return ""
}

// consoleInfo is GET /api/v1/console as c.
func consoleInfo(t *testing.T, c *webkit.Client) (langs []string, consoles []map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.App.Srv.URL+"/api/v1/console", nil)
	r := c.Do(req)
	var body struct {
		Languages []string
		Consoles  []map[string]any
	}
	if err := json.Unmarshal([]byte(r.Body), &body); r.Status != http.StatusOK || err != nil {
		t.Fatalf("GET /api/v1/console: %d %s", r.Status, r.Body)
	}
	return body.Languages, body.Consoles
}

// The cli console through the API on widerow: GET says cli, the keyspace Sandbox and its column
// families with their comparators; a session writes and reads, its Thrift calls in Storage-Ops;
// a refused statement is a 400 with the console's message; two anonymous callers (two cookie
// jars) do not see each other's sandbox; a bearer token's sandbox is the user's, on the page too.
func TestConsoleAPIOnWiderow(t *testing.T) {
	t.Parallel()
	st := webkit.WithClasses(webkit.WiderowStores(t), "")
	app := teachkit.NewApp(t, st)
	ann, bob := app.Client(t), app.Client(t)
	langs, infos := consoleInfo(t, ann)
	if len(langs) != 1 || langs[0] != "cli" || infos[0]["keyspace"] != "Sandbox" {
		t.Fatalf("GET: %v %v", langs, infos)
	}
	cfs, _ := infos[0]["column_families"].([]any)
	found := false
	for _, cf := range cfs {
		m, _ := cf.(map[string]any)
		found = found || (m["name"] == "Longs" && m["comparator"] == "LongType")
	}
	if !found {
		t.Errorf("the column families lack Longs, LongType: %v", cfs)
	}
	if out := mustRun(t, ann, "", "cli", "set Sandbox.Longs['row'][42] = 'ann''s'"); !strings.Contains(out, "Value inserted.") {
		t.Fatalf("set: %q", out)
	}
	r, _ := apiConsole(t, ann, "", "cli", "get Sandbox.Longs['row']")
	if !strings.Contains(r.Body, `42 : \"ann's\"`) || webkit.OpCount(r.Header.Get("Storage-Ops"), "get_slice") != 1 {
		t.Fatalf("get: %s, Storage-Ops %q", r.Body, r.Header.Get("Storage-Ops"))
	}
	if out := mustRun(t, bob, "", "cli", "get Sandbox.Longs['row']"); strings.Contains(out, "ann") {
		t.Fatalf("another browser's sandbox shows ann's row: %q", out)
	}
	r, body := apiConsole(t, ann, "", "cli", "drop keyspace Twissandra")
	if msg, _ := body["message"].(string); r.Status != http.StatusBadRequest || msg == "" {
		t.Fatalf("a refused statement: %d %v", r.Status, body)
	}
	r, body = apiConsole(t, ann, "", "cql", "SELECT * FROM users")
	if msg, _ := body["message"].(string); r.Status != http.StatusBadRequest || !strings.Contains(msg, `offers "cli"`) {
		t.Fatalf("an unknown language: %d %v", r.Status, body)
	}
	// A token's sandbox is its user's: the user's pages, signed in, read what the API wrote.
	carol := app.Client(t)
	tok := apiToken(t, carol, "carol")
	mustRun(t, carol, tok, "cli", "set Sandbox.UTF8s['note']['from'] = 'the api'")
	page := app.Client(t)
	if r := page.Post("/login", url.Values{"username": {"carol"}, "password": {"password1"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("log in: %d", r.Status)
	}
	after := page.Submit(frame.ConsoleURL, url.Values{"language": {"cli"}, "statements": {"get Sandbox.UTF8s['note']"}}, frame.ConsoleLangURL("cli"))
	webkit.MustContain(t, html.UnescapeString(after.Body), `"from" : "the api"`, "What your statements cost")
	// And an anonymous caller's is not the user's.
	if out := mustRun(t, carol, "", "cli", "get Sandbox.UTF8s['note']"); strings.Contains(out, "the api") {
		t.Errorf("the cookie's sandbox shows the token's: %q", out)
	}
	// The instructor's roster counts carol's statements, the API's and the page's: the
	// anonymous caller's is no one's.
	if a, err := st.Classes.Activity(webkit.BG(), "user:carol"); err != nil || a.Statements != 2 || a.Last != "console cli" {
		t.Errorf("carol's activity: %+v, %v; want 2 statements, the last a console's", a, err)
	}
}

// The CQL console through the API on the node: a table made, written and read; TRACING ON shows
// the node's trace; a refusal is a 400; another browser does not see the table.
func TestConsoleAPIOnNode(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	app := teachkit.NewApp(t, st)
	ann, bob := app.Client(t), app.Client(t)
	if langs, infos := consoleInfo(t, ann); len(langs) != 1 || langs[0] != "cql" || infos[0]["keyspace"] != "sandbox" {
		t.Fatalf("GET: %v %v", langs, infos)
	}
	mustRun(t, ann, "", "cql", "CREATE TABLE notes (k text PRIMARY KEY, v text)")
	mustRun(t, ann, "", "cql", "INSERT INTO notes (k, v) VALUES ('a', 'ann''s')")
	if out := mustRun(t, ann, "", "cql", "SELECT * FROM notes WHERE k = 'a'"); !strings.Contains(out, "ann's") || !strings.Contains(out, "(1 rows)") {
		t.Fatalf("SELECT: %q", out)
	}
	mustRun(t, ann, "", "cql", "TRACING ON")
	if out := mustRun(t, ann, "", "cql", "SELECT v FROM notes WHERE k = 'a'"); !strings.Contains(out, "Tracing session: ") {
		t.Fatalf("a traced SELECT shows no trace: %q", out)
	}
	if _, infos := consoleInfo(t, ann); !strings.Contains(strings.Join(anyStrings(infos[0]["tables"]), ","), "notes") {
		t.Errorf("GET does not list the table made: %v", infos[0])
	}
	r, body := apiConsole(t, ann, "", "cql", "DROP KEYSPACE sandbox")
	if msg, _ := body["message"].(string); r.Status != http.StatusBadRequest || msg == "" {
		t.Fatalf("a refused statement: %d %v", r.Status, body)
	}
	if r, body := apiConsole(t, bob, "", "cql", "SELECT * FROM notes WHERE k = 'a'"); r.Status == http.StatusOK && strings.Contains(body["output"].(string), "ann") {
		t.Fatalf("another browser reads ann's table: %v", body)
	}
}

func anyStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// On memory, which has no console: the console page and a lesson's box say so, the API lists
// no language and refuses a statement with a 400 that says so.
func TestConsoleOnMemory(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	webkit.MustContain(t, c.LessonPage(frame.ConsoleURL), "This backend (memory) has no console")
	webkit.MustContain(t, c.LessonPage("/learn/slices"), "This backend (memory) has no cassandra-cli (0.6) console", "set Sandbox.Longs['seeds'][3]")
	if langs, infos := consoleInfo(t, c); len(langs) != 0 || len(infos) != 0 {
		t.Errorf("GET on memory: %v %v", langs, infos)
	}
	r, body := apiConsole(t, c, "", "cli", "get Sandbox.Longs['row']")
	if msg, _ := body["message"].(string); r.Status != http.StatusBadRequest || !strings.Contains(msg, "offers none") {
		t.Errorf("POST on memory: %d %v", r.Status, body)
	}
	if r := c.Post(frame.ConsoleURL, url.Values{"language": {"cli"}, "statements": {"get Sandbox.Longs['row']"}}); r.Status != http.StatusBadRequest || !strings.Contains(r.Body, "has no console") {
		t.Errorf("the form on memory: %d", r.Status)
	}
}

// A statement refused, from the page: the page it comes back to shows the console's message
// (never a 500), and the statement typed stays in the form to be mended; past the learner's bound, the 429
// page says when to try again.
func TestConsolePageRefusals(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	r := c.Submit(frame.ConsoleURL, url.Values{"language": {"cli"}, "statements": {"get Sandbox.Longs['row']\ndrop keyspace Twissandra\nget Sandbox.Longs['row']"}}, frame.ConsoleLangURL("cli"))
	body := html.UnescapeString(r.Body)
	webkit.MustContain(t, body, "Not run: ", "get Sandbox.Longs['row']\ndrop keyspace Twissandra\nget Sandbox.Longs['row']</textarea>")
	if got := strings.Count(body, `class="console-stmt"`); got != 2 {
		t.Errorf("%d statements shown, want the first and the refused one", got)
	}
	stmts := strings.Repeat("get Sandbox.Longs['row']\n", frame.ConsoleRunStatements)
	for range 10 { // the console's default bound is 60 a minute
		r = c.Post(frame.ConsoleURL, url.Values{"language": {"cli"}, "statements": {stmts}})
		if r.Status != http.StatusSeeOther {
			break
		}
	}
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" || !strings.Contains(r.Body, "Try again in") {
		t.Fatalf("past the bound: %d, Retry-After %q\n%s", r.Status, r.Header.Get("Retry-After"), r.Body)
	}
	if r := c.Post(frame.ConsoleURL, url.Values{"language": {"cli"}, "statements": {strings.Repeat("get Sandbox.Longs['row']\n", frame.ConsoleRunStatements+1)}}); r.Status != http.StatusSeeOther {
		t.Errorf("too many statements at once: %d", r.Status)
	} else if page := c.Get(frame.ConsoleLangURL("cli")); !strings.Contains(page.Body, strconv.Itoa(frame.ConsoleRunStatements)+" statements run at once") {
		t.Errorf("too many statements at once: no message on the page")
	}
}

// In Chromium, at 1280 and 390 px, on widerow: the console page shows the keyspace, its column
// families and its bounds; a statement typed and run comes back with what the console printed,
// and the footer with what it cost; a lesson's box runs its statements and shows them where the
// learner is. Nothing scrolls sideways, the output scrolls inside its block, the browser's
// console reports no error. Screenshots: artifacts/screenshots/console-<page>-<width>.png.
func TestBrowserConsole(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	for _, width := range []int{1280, 390} {
		t.Run(strconv.Itoa(width), func(t *testing.T) {
			b := webkit.NewTab(t, width, 900, 90*time.Second)
			console := b.WatchConsole()
			fits := func(name string) {
				t.Helper()
				type layout struct{ Viewport, PageWidth float64 }
				got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[layout](`({Viewport: document.documentElement.clientWidth, PageWidth: document.documentElement.scrollWidth})`))
				if err != nil {
					t.Fatal(err)
				}
				if got.PageWidth > got.Viewport {
					t.Errorf("%s at %d px scrolls sideways: %+v", name, width, got)
				}
				b.Shot("console-" + name + "-" + strconv.Itoa(width))
			}
			b.Do("the page", chromedp.EmulateViewport(int64(width), 900), chromedp.Navigate(app.Srv.URL+"/learn"),
				chromedp.Click(chromedp.CSS(`#learn-console a`)), chromedp.WaitVisible(chromedp.CSS("#console-info")))
			if got := b.Text("#console-keyspace"); got != "Sandbox" {
				t.Errorf("the keyspace: %q", got)
			}
			if got := b.Text("#console-cfs"); !strings.Contains(got, "Longs") || !strings.Contains(got, "LongType") {
				t.Errorf("the column families: %q", got)
			}
			if got := b.Text("#console-bounds"); !strings.Contains(got, "60 statements a minute") {
				t.Errorf("the bounds: %q", got)
			}
			wide := "set Sandbox.UTF8s['wide']['" + strings.Repeat("w", 120) + "'] = 'a name wider than a phone'"
			b.Do("run", chromedp.SetValue(chromedp.CSS("#console-cli-input"), wide+"\nget Sandbox.UTF8s['wide']"),
				chromedp.Click(chromedp.CSS("#console-cli-run")),
				chromedp.WaitVisible(chromedp.Search(`//details[@id="action-ops"]/summary[contains(., "What your statements cost")]`)))
			if got := b.Text("#console-runs .console-out:last-of-type"); !strings.Contains(got, "a name wider than a phone") {
				t.Errorf("the output: %q", got)
			}
			fits("page")
			b.Do("a lesson's box", chromedp.Navigate(app.Srv.URL+"/learn/slices"), chromedp.WaitVisible(chromedp.CSS("#console-cli")),
				chromedp.Click(chromedp.CSS("#console-cli-run")),
				chromedp.WaitVisible(chromedp.CSS("#console-cli .console-run")))
			if got := b.Text("#console-cli .console-run"); !strings.Contains(got, "Returned 2 columns.") {
				t.Errorf("the lesson's box after its run: %q", got)
			}
			fits("slices")
			if problems := console(); len(problems) > 0 {
				t.Errorf("the browser's console at %d px:\n%s", width, strings.Join(problems, "\n"))
			}
		})
	}
}
