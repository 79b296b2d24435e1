package slices

import (
	"context"
	"testing"

	"twissandra/internal/testkit/webkit"
)

// The slices' right answers are what the lab's store returns: the seeds' names give one answer,
// other names another, with nothing written beside the questions.
func TestSliceExercisesAreGradedByTheStore(t *testing.T) {
	lab := webkit.Lab(t)
	ctx := context.Background()
	grade := func(q sliceQuestion, answer string) (bool, string) {
		t.Helper()
		g, err := q.exercise(lab).GradeAnswer(ctx, answer)
		if err != nil {
			t.Fatal(err)
		}
		return g.Correct, g.Model
	}
	bytes, longRev, between := sliceQuestions[0], sliceQuestions[1], sliceQuestions[2]
	if ok, model := grade(bytes, "3, 123, 976"); ok || model != "123, 3, 832416" {
		t.Errorf("BytesType count 3: numeric order graded %v, model %q", ok, model)
	}
	if ok, _ := grade(bytes, "123 3 832416"); !ok {
		t.Error("BytesType: the store's order, space-separated, graded incorrect")
	}
	if ok, model := grade(longRev, "832416, 976"); !ok || model != "832416, 976" {
		t.Errorf("LongType reversed: %v %q", ok, model)
	}
	if ok, model := grade(between, "2"); !ok || model != "2" {
		t.Errorf("LongType 100..1000: %v %q", ok, model)
	}
	// Other data, other answers.
	bytes.names = []string{"b", "a", "c", "d"}
	if ok, model := grade(bytes, "123, 3, 832416"); ok || model != "a, b, c" {
		t.Errorf("other names under BytesType: %v %q", ok, model)
	}
	between.names = []string{"50", "150", "250", "950", "1500"}
	if ok, model := grade(between, "2"); ok || model != "3" {
		t.Errorf("other names between 100 and 1000: %v %q", ok, model)
	}
	if _, err := between.exercise(lab).GradeAnswer(ctx, "two"); err == nil {
		t.Error("a count that is no number was graded")
	}
}
