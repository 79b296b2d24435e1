package indexes_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// On memory the lesson renders and says what the backend lacks, and where to see each part.
func TestIndexesLessonOnMemory(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	r := app.Client(t).Get("/learn/indexes")
	if r.Status != http.StatusOK {
		t.Fatalf("lesson: %d", r.Status)
	}
	webkit.MustContain(t, html.UnescapeString(r.Body), `id="wide-none"`, "keeps users in a Go map", `id="ways-none"`, "--backend cql3", "0.7.0 added", `id="which-nodes"`)
	if strings.Contains(r.Body, `id="ways-form"`) {
		t.Error("a form to run on a node that is not there")
	}
}

// On widerow the seeds' lookup is read live: Username['ann']['id'], then the User row it names.
func TestIndexesLessonOnWiderow(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	webkit.MustContain(t, c.Get("/learn/indexes").Body, `id="wide-empty"`)
	if _, err := app.Social.SignUp(webkit.BG(), "ann", "password1"); err != nil {
		t.Fatal(err)
	}
	body := html.UnescapeString(c.Get("/learn/indexes?name=ann").Body)
	webkit.MustContain(t, body, "get_slice Twissandra.Username['ann'] ['id']", "get_slice Twissandra.User['", `username: "ann"`, `id="ways-none"`)
	body = html.UnescapeString(c.Get("/learn/indexes?name=nobody").Body)
	webkit.MustContain(t, body, "nobody has the name")
	webkit.MustContain(t, c.Get("/learn/indexes?name=no+way").Body, `id="wide-error"`)
}

var sentRE = regexp.MustCompile(`<code class="sent">([^<]*)</code>`)

// On the node, the form writes the learner's user four ways and the page shows each way's
// statements, each one the driver sent as shown (the footer of what the lookup cost lists it),
// the indexes' reads asking token ranges and the view reading before it writes; and the
// exercises graded by runs of the lab (the course's API, as an instructor's tool asks).
func TestIndexesLessonOnNode(t *testing.T) {
	st, _ := webkit.CQL3Stores(t) // one keyspace for the page and the graders
	st.IndexLab.(interface{ SetIndexBudget(int) }).SetIndexBudget(100)
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	webkit.MustContain(t, c.Get("/learn/indexes").Body, `id="ways-form"`, `id="wide-none"`)
	r := c.Post("/learn/act/indexes", url.Values{"name": {"ann"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("run: %d %s", r.Status, r.Body)
	}
	page := c.Get(r.Header.Get("Location")).Body
	_, run, ok := strings.Cut(page, `id="ways-run"`)
	if !ok {
		t.Fatalf("no run:\n%s", page)
	}
	_, footer, _ := strings.Cut(page, `id="action-ops"`)
	footer = html.UnescapeString(footer)
	sent := sentRE.FindAllStringSubmatch(run, -1)
	if len(sent) < 15 {
		t.Fatalf("%d statements shown", len(sent))
	}
	for _, m := range sent {
		if cql := html.UnescapeString(m[1]); !strings.Contains(footer, cql+" -> ") {
			t.Errorf("shown but not sent as shown: %s", cql)
		}
	}
	body := html.UnescapeString(run)
	webkit.MustContain(t, body, `id="way-table"`, `id="way-2i"`, `id="way-mv"`, `id="way-sai"`, "no partition named: the coordinator asks token ranges",
		"it reads the base row before it writes", "it writes the index table", "ALLOW FILTERING", "without primary key columns")
	bad := c.Post("/learn/act/indexes", url.Values{"name": {"no'way"}})
	if bad.Status != http.StatusSeeOther {
		t.Fatalf("a bad name: %d", bad.Status)
	}
	webkit.MustContain(t, c.Get(bad.Header.Get("Location")).Body, "ASCII letters")

	for _, tc := range []struct{ id, answer, verdict, model string }{
		{"indexes-1", "table", "incorrect", "2i, sai"},
		{"indexes-2", "mv", "correct", ""},
		{"indexes-3", "=, LIKE", "incorrect", "="},
	} {
		var g struct {
			Verdict     string `json:"verdict"`
			ModelAnswer string `json:"model_answer"`
		}
		req, _ := http.NewRequest(http.MethodPost, app.Srv.URL+"/api/v1/exercises/"+tc.id+"/answers", strings.NewReader(`{"answer":"`+tc.answer+`"}`))
		req.Header.Set("Content-Type", "application/json")
		r := c.Do(req)
		if err := json.Unmarshal([]byte(r.Body), &g); r.Status != http.StatusOK || err != nil {
			t.Fatalf("%s: %d %v %s", tc.id, r.Status, err, r.Body)
		}
		if g.Verdict != tc.verdict || (tc.model != "" && g.ModelAnswer != tc.model) {
			t.Errorf("%s %q: %+v", tc.id, tc.answer, g)
		}
	}
}

// In compare mode (widerow answering, cql3 beside it) the seeds' lookup is widerow's and the four
// ways run on the second model's node, whose statements the footer lists on its side.
func TestIndexesLessonInCompareMode(t *testing.T) {
	st := webkit.CompareStores(t)
	st.IndexLab.(interface{ SetIndexBudget(int) }).SetIndexBudget(100)
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	r := c.Post("/learn/act/indexes", url.Values{"name": {"bob"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("run: %d %s", r.Status, r.Body)
	}
	page := c.Get(r.Header.Get("Location")).Body
	webkit.MustContain(t, page, `id="ways-run"`, `id="wide-form"`, "run on the second model")
	_, action, _ := strings.Cut(page, `id="action-ops"`)
	_, secondary, _ := strings.Cut(action, `id="secondary-ops"`)
	if !strings.Contains(html.UnescapeString(secondary), "idx_user_2i WHERE username = 'bob~") {
		t.Errorf("the lookup is not on cql3's side of what it cost:\n%s", action)
	}
}
