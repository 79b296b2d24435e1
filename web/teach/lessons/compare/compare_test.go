package compare_test

import (
	"encoding/json"
	"html"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web"
)

// Lesson 13 outside compare mode says how to start one; in compare mode a post from it shows
// both models' writes side by side.
func TestCompareLesson(t *testing.T) {
	t.Parallel()
	body := html.UnescapeString(teachkit.NewApp(t, webkit.WiderowStores(t)).Client(t).Get("/learn/compare").Body)
	webkit.MustContain(t, body, `id="compare-off"`, "make compare", "serve --backend widerow --compare cql3")
	webkit.MustNotContain(t, body, `id="post-compare"`)
}

func TestCompareLessonInCompareMode(t *testing.T) {
	app := teachkit.NewApp(t, webkit.CompareStores(t))
	c := app.Client(t)
	c.SignUp("ann")
	webkit.MustContain(t, c.Get("/learn/compare").Body, `id="compare-on"`, `id="post-compare"`)
	body := teachkit.PostFromLesson(t, c, "compare", "two models")
	_, action, _ := strings.Cut(body, `id="action-ops"`)
	action, _, _ = strings.Cut(action, "</details>")
	webkit.MustContain(t, action, "batch_mutate", `id="secondary-ops"`, "INSERT INTO")
	webkit.MustContain(t, body, `The last post on this server (<span class="whose">yours</span>): <strong>`, "; cql3: <strong>")
}

// The page's follow on a scratch node (compare-1's check) lists the calls the grader counts:
// the same number as its model answer; with no tweet to copy, one call fewer; a number it cannot
// take is a message on the page.
func TestCompareLessonFollowsOnAScratchNode(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	calls := func(posts string) int {
		t.Helper()
		r := c.Get("/learn/compare?posts=" + posts)
		if r.Status != http.StatusOK {
			t.Fatalf("posts=%s: %d", posts, r.Status)
		}
		_, list, ok := strings.Cut(r.Body, `id="follow-calls"`)
		if !ok {
			t.Fatalf("posts=%s: no calls listed:\n%s", posts, r.Body)
		}
		list, _, _ = strings.Cut(list, "</ol>")
		return strings.Count(list, "<li>")
	}
	two, none := calls("2"), calls("0")
	if none != two-1 {
		t.Errorf("a follow with 2 tweets to copy made %d calls, with none %d", two, none)
	}
	var g web.CourseGrade
	req, _ := http.NewRequest(http.MethodPost, app.Srv.URL+"/api/v1/exercises/compare-1/answers", strings.NewReader(`{"answer": "0"}`))
	req.Header.Set("Content-Type", "application/json")
	r := c.Do(req)
	if err := json.Unmarshal([]byte(r.Body), &g); err != nil || g.ModelAnswer != strconv.Itoa(two) {
		t.Errorf("compare-1's model answer %q (%v), the page listed %d calls", g.ModelAnswer, err, two)
	}
	body := html.UnescapeString(c.Get("/learn/compare?posts=many").Body)
	webkit.MustContain(t, body, `id="follow-error"`, "a whole number from 0 to 20, and “many” is not one")
	webkit.MustNotContain(t, body, `id="follow-calls"`)
}
