package time

import (
	"context"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
)

// The reads' right answers are what the lab's store reads after the writes: change the
// timestamps and the answer changes.
func TestWritesExercisesAreGradedByTheStore(t *testing.T) {
	lab := webkit.Lab(t)
	ctx := context.Background()
	grade := func(q writesQuestion, answer string) (bool, string) {
		t.Helper()
		g, err := q.exercise(lab).GradeAnswer(ctx, answer)
		if err != nil {
			t.Fatal(err)
		}
		return g.Correct, g.Model
	}
	value, deleted := writesQuestions[0], writesQuestions[1]
	if ok, model := grade(value, "second"); ok || model != "first" {
		t.Errorf("the value arrived last graded %v, model %q", ok, model)
	}
	if ok, model := grade(deleted, "no"); !ok || model != "no" {
		t.Errorf("the write under the tombstone: %v %q", ok, model)
	}
	value.writes = []teaching.LabWrite{{Value: "first", Timestamp: 100}, {Value: "second", Timestamp: 200}}
	if ok, model := grade(value, "second"); !ok || model != "second" {
		t.Errorf("a later timestamp: %v %q", ok, model)
	}
	deleted.writes = []teaching.LabWrite{{Value: "first", Timestamp: 100}, {Delete: true, Timestamp: 200}, {Value: "again", Timestamp: 300}}
	if ok, model := grade(deleted, "no"); ok || model != "yes" {
		t.Errorf("a write newer than the tombstone: %v %q", ok, model)
	}
	if _, err := deleted.exercise(lab).GradeAnswer(ctx, "maybe"); err == nil {
		t.Error("an answer that is no choice was graded")
	}
}
