package teach

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"twissandra/adapters/compare"
	"twissandra/domain"
)

// In compare mode the reads the two models answered differently open the page, at the top of
// its main content, where docs/teaching.md says they are, whether the page read them or the action
// that redirected to it did; the footer keeps them among the operations only.
// divergingApp serves widerow with memory beside it in compare mode, and bob in the first model
// only, as data written before compare mode started is: every read of bob diverges.
func divergingApp(t *testing.T) *testApp {
	t.Helper()
	w, m := widerowStores(t), memoryStores()
	p := &compare.Pair{Primary: "widerow", Secondary: "memory"}
	st := w
	both := compare.Stores(p, w.ports(), m.ports())
	st.users, st.tweets, st.lines = both.Users, both.Tweets, both.Lines
	st.authors, st.entries, st.tags, st.comments = both.Authors, both.Entries, both.Tags, both.Comments
	app := newApp(t, st)
	if err := w.users.CreateUser(bg(), domain.User{ID: uuid.New(), Username: "bob", PasswordHash: []byte("$2a$04$x"), CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}); err != nil {
		t.Fatal(err)
	}
	return app
}

func TestDivergencesOpenThePage(t *testing.T) {
	t.Parallel()
	app := divergingApp(t)
	c := app.client(t)
	c.signUp("ann")
	top := func(body string) string {
		_, main, _ := strings.Cut(body, `<main id="content" tabindex="-1">`)
		return main
	}
	r := c.get("/users/bob")
	if r.status != http.StatusOK {
		t.Fatalf("bob's page: %d", r.status)
	}
	if !strings.HasPrefix(top(r.body), `<div class="flash err" id="divergences" role="alert"><p>The two models answered differently (compare mode):</p><ul><li><code>DIVERGENCE get_user bob: widerow: found, memory: not found</code>`) {
		t.Fatalf("the divergence does not open the page:\n%s", r.body)
	}
	if _, footer, _ := strings.Cut(r.body, "<footer>"); strings.Contains(footer, `id="divergences"`) {
		t.Errorf("the divergences are in the footer too:\n%s", footer)
	}
	// An action's divergences open the page after its redirect, named for the action.
	if r := c.post("/users/bob/follow", nil); r.status != http.StatusSeeOther {
		t.Fatalf("follow: %d", r.status)
	}
	r = c.get("/users/bob")
	if !strings.HasPrefix(top(r.body), `<div class="flash err" id="divergences" role="alert">`) || !strings.Contains(r.body, `<li>your follow of bob: <code>DIVERGENCE get_users`) {
		t.Fatalf("the follow's divergence does not open the page after it:\n%s", r.body)
	}
	// A page on which the models agree has no banner.
	mustNotContain(t, c.get("/users/ann").body, `id="divergences"`)
}

// In Chromium, at 1280 and 390 px, a page whose reads diverged shows the report in its first
// screen, without scrolling; screenshots compare-divergence-1280.png and -390.png.
func TestBrowserDivergenceOnTheFirstScreen(t *testing.T) {
	app := divergingApp(t)
	for _, width := range []int64{1280, 390} {
		b := newTab(t, 1280, 800, 60*time.Second)
		b.do("bob's page", chromedp.EmulateViewport(width, 800), chromedp.Navigate(app.srv.URL+"/users/bob"), chromedp.WaitVisible(chromedp.CSS("#divergences")))
		top, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`document.querySelector("#divergences").getBoundingClientRect().top`))
		if err != nil {
			t.Fatal(err)
		}
		if top <= 0 || top > 400 {
			t.Errorf("at %d px the divergences start %v px down", width, top)
		}
		b.shot(fmt.Sprintf("compare-divergence-%d", width))
	}
}
