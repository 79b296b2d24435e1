// Package teachkit is the kit of the teaching room's tests: a server of the pages and every
// teaching view on one backend's stores (webkit's), and what several of the room's packages ask of
// a page.
package teachkit

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"twissandra/adapters/cql3"
	"twissandra/adapters/widerow/engine"
	wideteach "twissandra/adapters/widerow/teach"
	"twissandra/internal/testkit/webkit"
	"twissandra/web"
	"twissandra/web/pages"
	"twissandra/web/site"
	"twissandra/web/teach"
)

// NewApp serves the pages, the teaching views (and the JSON API) on st.
func NewApp(t testing.TB, st webkit.Stores) *webkit.App {
	t.Helper()
	return NewAppWith(t, st, web.Config{})
}

// NewAppWith is NewApp with the web layer's configuration cfg (trusted proxies, say).
func NewAppWith(t testing.TB, st webkit.Stores, cfg web.Config) *webkit.App {
	t.Helper()
	return webkit.NewApp(t, st, cfg, registerPages, registerTeach)
}

func registerPages(_ testing.TB, s *site.Site, sv webkit.Services) error {
	return pages.Register(s, pages.Deps{Social: sv.Social, Blog: sv.Blog, Access: sv.Access})
}

// NewAppGates is NewApp with the gates' bounds g (a zero figure is its default), as serve's
// --gate-* flags set them.
func NewAppGates(t testing.TB, st webkit.Stores, g teach.Gates) *webkit.App {
	t.Helper()
	return NewAppWithGates(t, st, web.Config{}, g)
}

// NewAppWithGates is NewAppWith under the gates' bounds g.
func NewAppWithGates(t testing.TB, st webkit.Stores, cfg web.Config, g teach.Gates) *webkit.App {
	t.Helper()
	return webkit.NewApp(t, st, cfg, registerPages, func(t testing.TB, s *site.Site, sv webkit.Services) error {
		return registerTeachGates(t, s, sv, g)
	})
}

// registerTeach adds the teaching views on st's readers, with a comparator lab of the test's own
// unless st.NoLab.
func registerTeach(t testing.TB, s *site.Site, sv webkit.Services) error {
	return registerTeachGates(t, s, sv, teach.Gates{})
}

func registerTeachGates(t testing.TB, s *site.Site, sv webkit.Services, g teach.Gates) error {
	st := sv.Stores
	var lab *wideteach.Lab
	if !st.NoLab {
		lab = webkit.Lab(t)
	}
	return teach.Register(s, teach.Deps{Consoles: st.ConsolesByLanguage(), Social: sv.Social, Blog: sv.Blog, Backend: st.Backend, Wide: st.Wide, CQL: st.CQL, Locator: st.Locator,
		StorageConf: engine.DefaultSchemaXML, Lab: lab, Consistency: lab, ClusterLevels: st.Levels, Claims: st.Claims, Sizes: st.Sizes,
		CompareSizes: st.CompareSizes, CompareBackend: st.CompareBackend, QueryFirstDDL: cql3.SchemaText(), QueryLab: st.QueryLab, Ring: st.Ring, CompareRing: st.CompareRing, Sandbox: sandbox, Progress: st.Progress,
		TTL:             st.TTL,
		AddressBook:     st.AddressBook,
		Counters:        st.Counters,
		Storage:         st.Storage,
		NodeViews:       st.NodeViews,
		IndexLab:        st.IndexLab,
		Classes:         st.Classes,
		InstructorToken: st.InstructorToken,
		Gates:           g})
}

// sandboxes are the scratch nodes of the tests' sandbox runs, kept for reuse as the server
// keeps its own.
var sandboxes = wideteach.NewScratchPool(4)

// sandbox opens the celebrity lesson's scratch store as the server does: a widerow node in
// memory, the run's own until it closes it.
func sandbox() (teach.Scratch, error) {
	s, err := sandboxes.Open()
	if err != nil {
		return teach.Scratch{}, err
	}
	return teach.Scratch{Users: s.Store, Tweets: s.Store, Lines: s.Store, Rows: s.Inspector, Close: s.Close}, nil
}

// PostMany signs up author and fans who follow author, then posts as author.
func PostMany(t *testing.T, app *webkit.App, author string, fans, posts int) {
	t.Helper()
	if _, err := app.Social.SignUp(webkit.BG(), author, "password1"); err != nil {
		t.Fatal(err)
	}
	for i := range fans {
		fan := fmt.Sprintf("fan%d", i)
		if _, err := app.Social.SignUp(webkit.BG(), fan, "password1"); err != nil {
			t.Fatal(err)
		}
		if err := app.Social.Follow(webkit.BG(), fan, author); err != nil {
			t.Fatal(err)
		}
	}
	for i := range posts {
		if _, err := app.Social.Post(webkit.BG(), author, fmt.Sprintf("post %d", i)); err != nil {
			t.Fatal(err)
		}
	}
}

// LabColumn is the text of one comparator's column of the order table, top to bottom: the
// names as the comparator reads them.
func LabColumn(t *testing.T, body string, col int) []string {
	t.Helper()
	i := strings.Index(body, `id="lab-order"`)
	if i < 0 {
		t.Fatalf("no order table:\n%s", body)
	}
	table := body[i : i+strings.Index(body[i:], "</table>")]
	var out []string
	for _, tr := range strings.Split(table, "<tr>")[2:] {
		cells := strings.Split(tr, "<td")
		if col+1 >= len(cells) {
			continue
		}
		if m := labCode.FindStringSubmatch(cells[col+1]); m != nil {
			out = append(out, html.UnescapeString(m[1]))
		}
	}
	return out
}

var labCode = regexp.MustCompile(`<code>([^<]*)</code>`)

// PostFromLesson posts a tweet from a lesson's form and returns the page its redirect leads to.
func PostFromLesson(t *testing.T, c *webkit.Client, slug, body string) string {
	t.Helper()
	r := c.Post("/learn/act/post", url.Values{"lesson": {slug}, "body": {body}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/learn/"+slug+"#live" {
		t.Fatalf("post from %s: %d %q", slug, r.Status, r.Header.Get("Location"))
	}
	return html.UnescapeString(c.Get("/learn/" + slug).Body)
}

// Answer posts answer to exercise id through the API, as a learner not signed in: its status,
// and the grade when it is 200 (a 4xx's body in the grade's Explanation).
func Answer(t testing.TB, c *webkit.Client, id, answer string) (int, web.CourseGrade) {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"answer": answer})
	req, _ := http.NewRequest(http.MethodPost, c.App.Srv.URL+"/api/v1/exercises/"+id+"/answers", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	r := c.Do(req)
	var g web.CourseGrade
	if r.Status != http.StatusOK {
		return r.Status, web.CourseGrade{Explanation: r.Body}
	}
	if err := json.Unmarshal([]byte(r.Body), &g); err != nil {
		t.Fatalf("%s: %v\n%s", id, err, r.Body)
	}
	return r.Status, g
}

// MustAnswer is Answer, which must be graded (200): the verdict and the model answer.
func MustAnswer(t testing.TB, c *webkit.Client, id, answer string) (bool, string) {
	t.Helper()
	status, g := Answer(t, c, id, answer)
	if status != http.StatusOK {
		t.Fatalf("%s %q: %d %s", id, answer, status, g.Explanation)
	}
	return g.Verdict == "correct", g.ModelAnswer
}
