package paths

import (
	"net/http"
	"slices"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
)

// Each exercise's check is the page's rehearsal of its own steps: the form, read back, gives the
// steps the grader rehearses, deletes received as long ago.
func TestPathsExercisesCheckRehearsesTheirSteps(t *testing.T) {
	t.Parallel()
	want := map[string][]teaching.PathStep{}
	for _, q := range filesQuestions {
		want[q.id] = q.steps
	}
	for _, q := range whereQuestions {
		want[q.id] = q.steps
	}
	for _, q := range graceQuestions {
		want[q.id] = q.steps()
	}
	exs := exercises(webkit.WiderowStores(t).Storage, nil)
	if len(exs) != len(want) {
		t.Fatalf("%d exercises, %d questions", len(exs), len(want))
	}
	for _, e := range exs {
		ch := e.Check
		if ch == nil || ch.Method != http.MethodPost || ch.Path != "/learn/paths/rehearse" {
			t.Fatalf("%s: check %+v, not the rehearsal's form", e.ID, ch)
		}
		got, err := rehearsalSteps(ch.Form.Get("steps"), ch.Form.Get("days"))
		if err != nil || !slices.Equal(got, want[e.ID]) {
			t.Errorf("%s: the check rehearses %v (%v), the grader %v", e.ID, got, err, want[e.ID])
		}
	}
}
