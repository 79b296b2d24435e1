package compare_test

import (
	"html"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
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
