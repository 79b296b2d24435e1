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
