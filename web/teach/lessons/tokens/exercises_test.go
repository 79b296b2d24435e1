package tokens

import (
	"context"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// The replicas' right answer is where the store's simulated ring places the key: another key
// or another replication factor, another answer. A store without a ring asks nothing.
func TestReplicasExerciseIsGradedByTheRing(t *testing.T) {
	ring := webkit.WiderowStores(t).Ring
	ctx := context.Background()
	q := replicasQuestions[0]
	g, err := q.exercise(ring).GradeAnswer(ctx, "node 1")
	if err != nil {
		t.Fatal(err)
	}
	kr, err := ring.PlaceKey(ctx, q.key, q.sim)
	if err != nil || len(kr.Replicas) != 2 {
		t.Fatalf("%+v %v", kr, err)
	}
	if g.Correct && g.Model != "node 1" {
		t.Errorf("a wrong node graded correct: %+v", g)
	}
	if g2, _ := q.exercise(ring).GradeAnswer(ctx, g.Model); !g2.Correct {
		t.Errorf("the model answer %q graded incorrect", g.Model)
	}
	models := map[string]bool{g.Model: true}
	for _, key := range []string{"ericflo", "a", "b", "c", "d"} {
		q.key = key
		g, err := q.exercise(ring).GradeAnswer(ctx, "node 1, node 2")
		if err != nil {
			t.Fatal(err)
		}
		models[g.Model] = true
	}
	if len(models) < 2 {
		t.Errorf("six keys, one placement: %v", models)
	}
	q.sim.RF = 3
	if g, _ := q.exercise(ring).GradeAnswer(ctx, "1"); len(frame.AnswerNames(g.Model)) != 3 {
		t.Errorf("RF 3: %q", g.Model)
	}
	if ex := exercises(webkit.MemoryStores().Ring, nil); len(ex) != 0 {
		t.Errorf("a store without a ring asks %d", len(ex))
	}
}
