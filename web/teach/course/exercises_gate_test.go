package course_test

import (
	"net/http"
	"testing"

	memteach "twissandra/adapters/memory/teach"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web"
)

// In compare mode (widerow answering, the node beside it), every exercise is graded as well.
func TestCourseAPIGradesEveryExerciseInCompareMode(t *testing.T) {
	t.Parallel()
	st := webkit.CompareStores(t)
	// The design exercises make a table each on the node, past the cluster's budget of a minute
	// (the node test raises it alike).
	if ql, ok := st.QueryLab.(interface{ SetLabBudget(int) }); ok {
		ql.SetLabBudget(20)
	}
	if st.Progress == nil {
		st.Progress = memteach.NewProgress()
	}
	gradeEveryExercise(t, st)
}

// A malformed answer is refused before the exercise's gate counts a run: more of them than the
// gate lets run in a minute, and a well-formed answer is still graded.
func TestMalformedAnswersCountNoRun(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	const id = "consistency-1" // a choice, under the trials' gate (10 runs a minute)
	for range 12 {
		if r := apiCall(t, c, http.MethodPost, "/api/v1/exercises/"+id+"/answers", "", `{"answer":"maybe"}`, nil); r.Status != http.StatusBadRequest {
			t.Fatalf("a malformed answer: %d %s", r.Status, r.Body)
		}
	}
	var g web.CourseGrade
	if r := apiCall(t, c, http.MethodPost, "/api/v1/exercises/"+id+"/answers", "", `{"answer":"yes"}`, &g); r.Status != http.StatusOK || g.Verdict == "" {
		t.Errorf("a well-formed answer after 12 malformed ones: %d %s", r.Status, r.Body)
	}
}
