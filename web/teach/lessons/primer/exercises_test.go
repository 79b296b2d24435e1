package primer

import (
	"context"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
)

// The primer's right answers are what the lab's row holds after the writes: other columns,
// other answers.
func TestPutsExercisesAreGradedByTheStore(t *testing.T) {
	lab := webkit.Lab(t)
	ctx := context.Background()
	grade := func(q putsQuestion, answer string) (bool, string) {
		t.Helper()
		g, err := q.exercise(lab).GradeAnswer(ctx, answer)
		if err != nil {
			t.Fatal(err)
		}
		return g.Correct, g.Model
	}
	order, count := putsQuestions[0], putsQuestions[1]
	if ok, model := grade(order, "Apple, mango, zebra"); !ok || model != "Apple, mango, zebra" {
		t.Errorf("the row's order: %v %q", ok, model)
	}
	if ok, _ := grade(order, "zebra, Apple, mango"); ok {
		t.Error("the order written was graded correct")
	}
	if ok, model := grade(count, "3"); ok || model != "2" {
		t.Errorf("a name written twice: %v %q", ok, model)
	}
	order.puts = []teaching.LabPut{{Name: "b", Value: "1"}, {Name: "B", Value: "2"}}
	if ok, model := grade(order, "Apple, mango, zebra"); ok || model != "B, b" {
		t.Errorf("other names: %v %q", ok, model)
	}
	count.puts = append(count.puts, teaching.LabPut{Name: "zip", Value: "0150"})
	if ok, model := grade(count, "3"); !ok || model != "3" {
		t.Errorf("one name more: %v %q", ok, model)
	}
}
