package consistency

import (
	"context"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
)

// Whether a read can be stale is what the lab's trials found on the question's ring: the same
// levels on another ring, another answer.
func TestStaleExercisesAreGradedByTheTrials(t *testing.T) {
	lab := webkit.Lab(t)
	ctx := context.Background()
	grade := func(q staleQuestion) string {
		t.Helper()
		g, err := q.exercise(lab).GradeAnswer(ctx, "yes")
		if err != nil {
			t.Fatal(err)
		}
		return g.Model
	}
	one, quorum := staleQuestions[0], staleQuestions[1]
	if got := grade(one); got != "yes" {
		t.Errorf("ONE then ONE with a far replica: %q", got)
	}
	if got := grade(quorum); got != "no" {
		t.Errorf("QUORUM then QUORUM: %q", got)
	}
	// Every replica as near as the others, and the read long after the write: nothing stale.
	one.ring, one.gap = teaching.LabRing{Delays: [teaching.RingReplicas]int64{1_000, 1_000, 1_000}}, 1_000_000
	if got := grade(one); got != "no" {
		t.Errorf("ONE then ONE a second later: %q", got)
	}
}

// The smallest read level that is always fresh is the first the lab's trials found overlapping
// the write and never stale: the weaker the write, the stronger the read.
func TestReadLevelExerciseIsGradedByTheTrials(t *testing.T) {
	lab := webkit.Lab(t)
	ctx := context.Background()
	q := readLevelQuestions[0]
	for _, c := range []struct{ write, read string }{{"ONE", "ALL"}, {"QUORUM", "QUORUM"}, {"ALL", "ONE"}} {
		q.write = c.write
		g, err := q.exercise(lab).GradeAnswer(ctx, "ONE")
		if err != nil {
			t.Fatal(err)
		}
		if g.Model != c.read {
			t.Errorf("after a write at %s: %s, not %s", c.write, g.Model, c.read)
		}
		if g2, _ := q.exercise(lab).GradeAnswer(ctx, g.Model); !g2.Correct {
			t.Errorf("after a write at %s: the model %q graded incorrect", c.write, g.Model)
		}
	}
	if _, err := q.exercise(lab).GradeAnswer(ctx, "TWO"); err == nil {
		t.Error("a level that is no choice was graded")
	}
}
