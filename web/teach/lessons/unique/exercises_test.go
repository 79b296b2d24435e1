package unique

import (
	"context"
	"os"
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

// Whose the name is after two claims is what the store reads back: the second claim by a
// plain write takes the name, by the transaction it does not; on memory, widerow and the node.
func TestSecondClaimExerciseIsGradedByTheStore(t *testing.T) {
	stores := map[string]webkit.Stores{"memory": webkit.MemoryStores(), "widerow": webkit.WiderowStores(t)}
	if os.Getenv("TWISSANDRA_CQL_HOSTS") != "" {
		stores["cql3"], _ = webkit.CQL3Stores(t)
	}
	ctx := context.Background()
	for name, st := range stores {
		q := secondQuestions[0]
		for _, c := range []struct {
			lwt   bool
			owner string
		}{{false, secondClaimant}, {true, firstClaimant}} {
			q.secondLWT = c.lwt
			g, err := q.exercise(st.Claims).GradeAnswer(ctx, "ann")
			if err != nil {
				t.Fatal(err)
			}
			if g.Model != c.owner {
				t.Errorf("%s, second claim by the transaction %v: %s owns it", name, c.lwt, g.Model)
			}
			if g2, _ := q.exercise(st.Claims).GradeAnswer(ctx, g.Model); !g2.Correct {
				t.Errorf("%s: the model %q graded incorrect", name, g.Model)
			}
		}
		if _, err := q.exercise(st.Claims).GradeAnswer(ctx, "carol"); err == nil {
			t.Errorf("%s: an answer that is no choice was graded", name)
		}
	}
}
