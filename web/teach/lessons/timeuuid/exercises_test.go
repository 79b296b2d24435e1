package timeuuid

import (
	"context"
	"testing"

	"twissandra/internal/testkit/webkit"
)

// Which UUID comes first is what the lab's slice returns first: the same names under the two
// comparators, two answers; other names, another.
func TestFirstUUIDExercisesAreGradedByTheStore(t *testing.T) {
	lab := webkit.Lab(t)
	ctx := context.Background()
	model := func(q firstQuestion) string {
		t.Helper()
		g, err := q.exercise(lab).GradeAnswer(ctx, q.names[0])
		if err != nil {
			t.Fatal(err)
		}
		if g2, _ := q.exercise(lab).GradeAnswer(ctx, g.Model); !g2.Correct {
			t.Errorf("%s: the model %q graded incorrect", q.id, g.Model)
		}
		return g.Model
	}
	timeQ, lexical := firstQuestions[0], firstQuestions[1]
	if got := model(lexical); got != "80000000-0000-1000-8000-000000000000" {
		t.Errorf("LexicalUUIDType first: %s", got)
	}
	if got := model(timeQ); got != "00000000-0000-1000-8000-000000000001" {
		t.Errorf("TimeUUIDType first: %s", got)
	}
	lexical.names = []string{"00000000-0000-1000-8000-000000000001", "10000000-0000-1000-8000-000000000000"}
	if got := model(lexical); got != "00000000-0000-1000-8000-000000000001" {
		t.Errorf("no negative half: %s", got)
	}
	if _, err := timeQ.exercise(lab).GradeAnswer(ctx, "not-a-uuid"); err == nil {
		t.Error("an answer that is no choice was graded")
	}
}
