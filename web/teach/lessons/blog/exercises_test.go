package blog

import (
	"context"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
)

// The super columns' order is what the lab's AddressBook row reads back: other writes, another
// answer.
func TestSuperColumnExerciseIsGradedByTheStore(t *testing.T) {
	lab := webkit.Lab(t)
	ctx := context.Background()
	q := superQuestions[0]
	g, err := q.exercise(lab).GradeAnswer(ctx, "jsmith, Bob, ann")
	if err != nil {
		t.Fatal(err)
	}
	if g.Correct || g.Model != "Bob, ann, jsmith" {
		t.Errorf("the order written graded %v, model %q", g.Correct, g.Model)
	}
	q.puts = append(q.puts, teaching.LabPut{SuperColumn: "Alice", Name: "zip", Value: "1"})
	if g, _ := q.exercise(lab).GradeAnswer(ctx, "Bob, ann, jsmith"); g.Correct || g.Model != "Alice, Bob, ann, jsmith" {
		t.Errorf("one super column more: %+v", g)
	}
}
