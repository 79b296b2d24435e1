package collections_test

import (
	"slices"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
)

// The exercises are graded by the store: on the node, changing the city of a map writes one
// cell, overwriting it with all fields but the state leaves that many, the non-frozen user type
// keeps the street's cell; on the engine the subcolumns come back sorted. Give John a fifth field
// and the answers that count or list fields change with it. (Not parallel: it changes the entry
// every test of the package reads, and puts it back before the parallel ones run.)
func TestExercisesFollowTheEntry(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	c := teachkit.NewApp(t, st).Client(t)
	want := map[string]string{"collections-1": "1", "collections-2": "3", "collections-3": "address (not frozen)", "collections-4": "city, state, street, zip"}
	for id, model := range want {
		wrong := "0"
		if id == "collections-3" {
			wrong = "frozen<address>"
		}
		ok, got := teachkit.MustAnswer(t, c, id, wrong)
		if ok || got != model {
			t.Errorf("%s: a wrong answer graded %v, model %q, want %q", id, ok, got, model)
		}
		if ok, _ := teachkit.MustAnswer(t, c, id, model); !ok {
			t.Errorf("%s: the model answer %q graded wrong", id, model)
		}
	}

	entry := teaching.AddressEntry.Fields
	t.Cleanup(func() { teaching.AddressEntry.Fields = entry })
	teaching.AddressEntry.Fields = append(slices.Clone(entry), teaching.AddressField{Name: "country", Value: "US"})
	for id, model := range map[string]string{"collections-1": "1", "collections-2": "4", "collections-4": "city, country, state, street, zip"} {
		if _, got := teachkit.MustAnswer(t, c, id, "0"); got != model {
			t.Errorf("with a fifth field, %s: model %q, want %q", id, got, model)
		}
	}
}
