package method_test

import (
	"net/http"
	"strconv"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// The cells questions are graded by the partitions the store holds: a post more, a timeline
// row more; a fan more, a followers row more; counted on widerow's engine and on the node.
// Memory, which holds no cells, does not ask them.
func TestCellsExercisesAreGradedByTheStore(t *testing.T) {
	for name, st := range map[string]func(*testing.T) webkit.Stores{
		"widerow": func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) },
		"cql3":    func(t *testing.T) webkit.Stores { st, _ := webkit.CQL3Stores(t); return st },
	} {
		t.Run(name, func(t *testing.T) {
			app := teachkit.NewApp(t, st(t))
			c := app.Client(t)
			if status, _ := teachkit.Answer(t, c, "method-1", "3"); status != http.StatusNotFound {
				t.Errorf("nothing stored: %d", status)
			}
			teachkit.PostMany(t, app, "star", 2, 3)
			cells := func(id string) int {
				t.Helper()
				_, model := teachkit.MustAnswer(t, c, id, "0")
				if ok, _ := teachkit.MustAnswer(t, c, id, model); !ok {
					t.Errorf("%s: the model %q graded incorrect", id, model)
				}
				n, _ := strconv.Atoi(model)
				return n
			}
			timeline, followers := cells("method-1"), cells("method-2")
			if _, err := app.Social.Post(webkit.BG(), "star", "one more"); err != nil {
				t.Fatal(err)
			}
			if _, err := app.Social.SignUp(webkit.BG(), "fan9", "password1"); err != nil {
				t.Fatal(err)
			}
			if err := app.Social.Follow(webkit.BG(), "fan9", "star"); err != nil {
				t.Fatal(err)
			}
			timeline2, followers2 := cells("method-1"), cells("method-2")
			t.Logf("%s: timeline %d then %d, followers %d then %d", name, timeline, timeline2, followers, followers2)
			if timeline < 3 || timeline2 <= timeline || followers < 2 || followers2 <= followers {
				t.Errorf("%s: timeline %d then %d, followers %d then %d", name, timeline, timeline2, followers, followers2)
			}
			if status, _ := teachkit.Answer(t, c, "method-1", "three"); status != http.StatusBadRequest {
				t.Errorf("a count that is no number: %d", status)
			}
		})
	}
	app := teachkit.NewApp(t, webkit.MemoryStores())
	if status, _ := teachkit.Answer(t, app.Client(t), "method-1", "3"); status != http.StatusNotFound {
		t.Errorf("memory asks the cells question: %d", status)
	}
}
