package timeuuid

import (
	"context"
	"strings"
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

// The order newest first is the order the lab's reversed slice returns: other times in the
// names, another order.
func TestOrderExerciseIsGradedByTheStore(t *testing.T) {
	lab := webkit.Lab(t)
	ctx := context.Background()
	q := orderQuestions[0]
	model := func() string {
		t.Helper()
		g, err := q.exercise(lab).GradeAnswer(ctx, strings.Join(q.names, ", "))
		if err != nil {
			t.Fatal(err)
		}
		if g2, _ := q.exercise(lab).GradeAnswer(ctx, strings.ToUpper(g.Model)); !g2.Correct {
			t.Errorf("the model %q graded incorrect", g.Model)
		}
		return g.Model
	}
	want := "00000000-0000-1001-8000-000000000000, ffffffff-0000-1000-8000-000000000000, 80000000-0000-1000-8000-000000000000, 00000000-0000-1000-8000-000000000001"
	if got := model(); got != want {
		t.Errorf("newest first: %s", got)
	}
	// time_mid outweighs time_low: the UUID whose time_mid is 1 is now the newest.
	q.names = []string{"ffffffff-0000-1000-8000-000000000000", "00000000-0001-1000-8000-000000000000"}
	if got := model(); got != "00000000-0001-1000-8000-000000000000, ffffffff-0000-1000-8000-000000000000" {
		t.Errorf("time_mid against time_low: %s", got)
	}
	if g, err := q.exercise(lab).GradeAnswer(ctx, "ffffffff-0000-1000-8000-000000000000"); err != nil || g.Correct {
		t.Errorf("one name of two graded %+v, %v", g, err)
	}
}
