package counters_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
)

// run posts one of the lesson's forms and reads the page its redirect leads to.
func run(t *testing.T, c *webkit.Client, form url.Values) string {
	t.Helper()
	r := c.Post("/learn/act/counters", form)
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/learn/counters#live" {
		t.Fatalf("run %v: %d %q\n%s", form, r.Status, r.Header.Get("Location"), r.Body)
	}
	return html.UnescapeString(c.Get("/learn/counters").Body)
}

// On widerow the lesson says the model has no counters, and counts a user's followers both
// ways, the count the store keeps and the rows read, each measured: one more follow, one more
// in both.
func TestCountersLessonOnWiderow(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	c.SignUp("bob")
	for _, fan := range []string{"ann", "cat"} {
		c.SignUp(fan)
		if err := app.Social.Follow(webkit.BG(), fan, "bob"); err != nil {
			t.Fatal(err)
		}
	}
	page := html.UnescapeString(c.Get("/learn/counters?user=bob").Body)
	webkit.MustContain(t, page, `id="counters-unavailable"`, "0.6 had no counters (they came in 0.8)", "How widerow keeps it",
		`<strong id="counters-kept">2</strong>`, `<strong id="counters-counted">2</strong>: the same.`)
	c.SignUp("dan")
	if err := app.Social.Follow(webkit.BG(), "dan", "bob"); err != nil {
		t.Fatal(err)
	}
	page = html.UnescapeString(c.Get("/learn/counters?user=bob").Body)
	webkit.MustContain(t, page, `<strong id="counters-kept">3</strong>`, `<strong id="counters-counted">3</strong>`)
	webkit.MustContain(t, c.Get("/learn/counters?user=nobody_here").Body, `id="counters-followers"`)
	if r := c.Post("/learn/act/counters", url.Values{"action": {"increments"}, "clients": {"2"}, "each": {"2"}}); r.Status != http.StatusNotFound {
		t.Fatalf("a run without a node: %d", r.Status)
	}
}

// returned keeps every statement the node's counter lab returned, which the page must show as
// they are (the lab's own test holds them to the statements the driver sent).
type returned struct {
	teaching.CounterLab
	mu  sync.Mutex
	cql []string
}

func (r *returned) keep(sts []teaching.LabStatement) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cql = r.cql[:0]
	for _, s := range sts {
		r.cql = append(r.cql, s.CQL)
	}
}

func (r *returned) Increments(ctx context.Context, l string, clients, each int) (teaching.CounterRun, error) {
	run, err := r.CounterLab.Increments(ctx, l, clients, each)
	r.keep(run.Statements)
	return run, err
}

func (r *returned) LostAck(ctx context.Context, l string, n int) (teaching.CounterRun, error) {
	run, err := r.CounterLab.LostAck(ctx, l, n)
	r.keep(run.Statements)
	return run, err
}

func (r *returned) Mixed(ctx context.Context, l string) ([]teaching.LabStatement, error) {
	sts, err := r.CounterLab.Mixed(ctx, l)
	r.keep(sts)
	return sts, err
}

// On the node, in compare mode (widerow answering, cql3 beside it): clients at once count
// exactly, a lost answer retried counts one more than meant, and the mixed statements are
// refused with the node's own words. Each page shows every statement the run sent, and the
// footer what they cost.
func TestCountersLessonOnNode(t *testing.T) {
	st := webkit.CompareStores(t)
	rec := &returned{CounterLab: st.Counters}
	st.Counters = rec
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	webkit.MustContain(t, html.UnescapeString(c.Get("/learn/counters").Body), `id="counters-schema"`, "likes counter, PRIMARY KEY (learner, tweet)")
	for _, tc := range []struct {
		form  url.Values
		wants []string
	}{
		{url.Values{"action": {"increments"}, "clients": {"3"}, "each": {"4"}},
			[]string{"<strong>12</strong> read back for 12 increments sent at once (12 answered)", `name="clients" min="1" max="8" value="3"`, `name="each" min="1" max="10" value="4"`}},
		{url.Values{"action": {"lost"}, "increments": {"2"}},
			[]string{"<strong>3</strong> read back for 2 increments meant: the driver sent 3 and heard 2 answers.", "attempt 1: no answer", "attempt 2: answered: applied", "the link dropped the answer"}},
		{url.Values{"action": {"mixed"}},
			[]string{"Cannot mix counter and non counter columns in the same table", "Cannot include a counter statement in a logged batch", "Cannot set the value of counter column likes"}},
	} {
		body := run(t, c, tc.form)
		_, result, ok := strings.Cut(body, `id="result"`)
		if !ok {
			t.Fatalf("%v: no result:\n%s", tc.form, body)
		}
		webkit.MustContain(t, result+body, tc.wants...)
		rec.mu.Lock()
		shown := slicesOf(result)
		if len(shown) != len(rec.cql) {
			t.Errorf("%v: the page shows %d statements, the run sent %d", tc.form, len(shown), len(rec.cql))
		}
		for i, cql := range rec.cql {
			if i < len(shown) && shown[i] != cql {
				t.Errorf("%v: the page shows %q, the run sent %q", tc.form, shown[i], cql)
			}
		}
		rec.mu.Unlock()
		if _, action, _ := strings.Cut(body, `id="action-ops"`); !strings.Contains(action, "What your counter run cost") || !strings.Contains(action, "lesson_likes") {
			t.Errorf("%v: the footer does not show the run's statements:\n%s", tc.form, action)
		}
	}
	bad := c.Post("/learn/act/counters", url.Values{"action": {"increments"}, "clients": {strconv.Itoa(teaching.MaxCounterClients + 1)}, "each": {"1"}})
	if bad.Status != http.StatusSeeOther {
		t.Fatalf("too many clients: %d", bad.Status)
	}
	webkit.MustContain(t, c.Get("/learn/counters").Body, "must be a whole number from 1 to "+strconv.Itoa(teaching.MaxCounterClients))
}

// slicesOf reads the statements of a result's table, in order.
func slicesOf(result string) []string {
	var out []string
	for _, part := range strings.Split(result, `<code class="cql">`)[1:] {
		cql, _, _ := strings.Cut(part, "</code>")
		out = append(out, cql)
	}
	return out
}

// The page's follow sent again on a scratch node (counters-3's check) reads the count the store
// keeps: the followers once each, however many times the first one's follow is sent; the
// follows are in the footer; a number it cannot take is a message on the page.
func TestCountersLessonSendsAFollowAgainOnAScratchNode(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	for _, sent := range []string{"1", "3"} {
		body := html.UnescapeString(c.Get("/learn/counters?sent=" + sent).Body)
		n, _ := strconv.Atoi(sent)
		webkit.MustContain(t, body, `id="retried-follow-result"`, "After "+strconv.Itoa(n+1)+" follows sent ("+sent+" of ann's)",
			`<strong id="retried-follow-count">2</strong> followers for bob`, "batch_mutate")
	}
	body := html.UnescapeString(c.Get("/learn/counters?sent=0").Body)
	webkit.MustContain(t, body, `id="retried-follow-error"`, "a whole number from 1 to 5, and “0” is not one")
	webkit.MustNotContain(t, body, `id="retried-follow-result"`)
}
