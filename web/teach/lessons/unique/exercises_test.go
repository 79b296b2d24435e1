package unique

import (
	"context"
	"testing"

	"twissandra/internal/testkit/webkit"
)

// How many racers the transaction tells they won is what the store's race counts: on memory
// and on widerow, one, however many race.
func TestRaceExerciseIsGradedByTheRace(t *testing.T) {
	ctx := context.Background()
	for name, st := range map[string]webkit.Stores{"memory": webkit.MemoryStores(), "widerow": webkit.WiderowStores(t)} {
		q := raceQuestions[0]
		for _, racers := range []int{2, 30} {
			q.racers = racers
			g, err := q.exercise(st.Claims).GradeAnswer(ctx, "2")
			if err != nil {
				t.Fatal(err)
			}
			if g.Correct || g.Model != "1" {
				t.Errorf("%s, %d racers: %+v", name, racers, g)
			}
		}
		if _, err := q.exercise(st.Claims).GradeAnswer(ctx, "one"); err == nil {
			t.Errorf("%s: a count that is no number was graded", name)
		}
	}
}
