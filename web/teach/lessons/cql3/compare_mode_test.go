package cql3_test

import (
	"html"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// On a backend without tables the lesson reads the follows through the use cases, and says
// what compare mode does: it writes each follow to the node too, but answers, as the list
// does, from the running backend.
func TestCQL3LessonSaysWhatCompareModeDoes(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	app.Client(t).SignUp("bob")
	ann := app.Client(t)
	ann.SignUp("ann")
	body := html.UnescapeString(ann.LessonPage("/learn/cql3?user=ann"))
	webkit.MustContain(t, body, "compare mode (<code>--compare cql3</code>) writes each follow to the node as well, but answers from the running backend, as this list does")
}
