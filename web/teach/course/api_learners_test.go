package course_test

import (
	"net/http"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/labs"
)

// An anonymous caller's answers through the API are counted as its browser's (the session
// cookie the answer sets), as the pages count them: a class behind one address answering a
// gated exercise is not one learner, and one learner past the gate's minute is still refused.
func TestAPIAnswersCountEachAnonymousBrowser(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	perMinute := labs.DefaultGates().Race.PerMinute
	const id = "unique-1"
	for i := range perMinute + 2 {
		if status, g := answerAPI(t, app.Client(t), id, "0"); status != http.StatusOK || g.Verdict == "" {
			t.Fatalf("learner %d of one address, their first answer: %d %+v", i+1, status, g)
		}
	}
	one := app.Client(t)
	for i := range perMinute {
		if status, _ := answerAPI(t, one, id, "0"); status != http.StatusOK {
			t.Fatalf("one learner's answer %d: %d", i+1, status)
		}
	}
	if status, _ := answerAPI(t, one, id, "0"); status != http.StatusTooManyRequests {
		t.Fatalf("one learner's answer %d in a minute: %d, want 429", perMinute+1, status)
	}
}
