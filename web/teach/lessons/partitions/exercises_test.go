package partitions_test

import (
	"net/http"
	"strconv"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// The widest partition's questions are graded by the store's scan: on memory, widerow and cql3,
// a star with more fans than posts has the widest followers partition; with more posts than fans
// the widest is a line's, and its size follows the posts.
func TestWidestExercisesAreGradedByTheStore(t *testing.T) {
	for name, st := range map[string]func(*testing.T) webkit.Stores{
		"memory":  func(*testing.T) webkit.Stores { return webkit.MemoryStores() },
		"widerow": func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) },
		"cql3":    func(t *testing.T) webkit.Stores { st, _ := webkit.CQL3Stores(t); return st },
	} {
		t.Run(name, func(t *testing.T) {
			app := teachkit.NewApp(t, st(t))
			c := app.Client(t)
			if status, _ := teachkit.Answer(t, c, "partitions-1", "timeline"); status != http.StatusNotFound {
				t.Errorf("nothing stored: %d", status)
			}
			teachkit.PostMany(t, app, "star", 6, 1)
			_, fans := teachkit.MustAnswer(t, c, "partitions-1", "junk")
			_, fansCells := teachkit.MustAnswer(t, c, "partitions-2", "0")
			if ok, _ := teachkit.MustAnswer(t, c, "partitions-1", fans); !ok {
				t.Errorf("the model %q graded incorrect", fans)
			}
			for i := range 20 {
				if _, err := app.Social.Post(webkit.BG(), "star", "more "+strconv.Itoa(i)); err != nil {
					t.Fatal(err)
				}
			}
			ok, posts := teachkit.MustAnswer(t, c, "partitions-1", fans)
			_, postsCells := teachkit.MustAnswer(t, c, "partitions-2", "0")
			t.Logf("%s: 6 fans, 1 post: %s of %s; 21 posts: %s of %s", name, fans, fansCells, posts, postsCells)
			if ok || posts == fans {
				t.Errorf("%s: after 20 posts more the widest is still %q (%v)", name, posts, ok)
			}
			a, _ := strconv.Atoi(fansCells)
			b, _ := strconv.Atoi(postsCells)
			if a < 6 || b < 21 || b <= a {
				t.Errorf("%s: cells %s then %s", name, fansCells, postsCells)
			}
			if ok, _ := teachkit.MustAnswer(t, c, "partitions-2", postsCells); !ok {
				t.Errorf("the model %q graded incorrect", postsCells)
			}
			if status, _ := teachkit.Answer(t, c, "partitions-2", "many"); status != http.StatusBadRequest {
				t.Errorf("a count that is no number: %d", status)
			}
		})
	}
}
