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

// In compare mode (widerow answering, cql3 on the node) the exercises of lessons 8 to 11 that
// the running backend or the query lab's node can grade are listed, and each model answer is
// graded correct; the order of a followers partition's rows is asked too, graded on the rows
// the lesson builds from the running backend's follows.
func TestExercisesOfLessons8To11InCompareMode(t *testing.T) {
	app := teachkit.NewApp(t, webkit.CompareStores(t))
	teachkit.PostMany(t, app, "star", 2, 2)
	c := app.Client(t)
	for _, id := range []string{"queryfirst-1", "queryfirst-2", "cql3-1", "cql3-2", "method-1", "method-2", "partitions-1", "partitions-2"} {
		well := "0"
		if id == "queryfirst-1" {
			well = "PRIMARY KEY ((username, time))"
		}
		_, model := teachkit.MustAnswer(t, c, id, well)
		if ok, _ := teachkit.MustAnswer(t, c, id, model); !ok {
			t.Errorf("%s: the model %q graded incorrect", id, model)
		}
	}
}
