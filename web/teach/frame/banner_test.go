package frame_test

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
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In compare mode the reads the two models answered differently open the page, at the top of
// its main content, where docs/teaching.md says they are, whether the page read them or the action
// that redirected to it did; the footer keeps them among the operations only.
// divergingApp serves widerow with memory beside it in compare mode, and bob in the first model
// only, as data written before compare mode started is: every read of bob diverges.
func divergingApp(t *testing.T) *webkit.App {
	t.Helper()
	w, m := webkit.WiderowStores(t), webkit.MemoryStores()
	p := &compare.Pair{Primary: "widerow", Secondary: "memory"}
	st := w
	both := compare.Stores(p, w.Ports(), m.Ports())
	st.Users, st.Tweets, st.Lines = both.Users, both.Tweets, both.Lines
	st.Authors, st.Entries, st.Tags, st.Comments = both.Authors, both.Entries, both.Tags, both.Comments
	app := teachkit.NewApp(t, st)
	if err := w.Users.CreateUser(webkit.BG(), domain.User{ID: uuid.New(), Username: "bob", PasswordHash: []byte("$2a$04$x"), CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}); err != nil {
		t.Fatal(err)
	}
	return app
}

func TestDivergencesOpenThePage(t *testing.T) {
	t.Parallel()
	app := divergingApp(t)
	c := app.Client(t)
	c.SignUp("ann")
	top := func(body string) string {
		_, main, _ := strings.Cut(body, `<main id="content" tabindex="-1">`)
		return main
	}
	r := c.Get("/users/bob")
	if r.Status != http.StatusOK {
		t.Fatalf("bob's page: %d", r.Status)
	}
	if !strings.HasPrefix(top(r.Body), `<div class="flash err" id="divergences" role="alert"><p>The two models answered differently (compare mode):</p><ul><li><code>DIVERGENCE get_user bob: widerow: found, memory: not found</code>`) {
		t.Fatalf("the divergence does not open the page:\n%s", r.Body)
	}
	if _, footer, _ := strings.Cut(r.Body, "<footer>"); strings.Contains(footer, `id="divergences"`) {
		t.Errorf("the divergences are in the footer too:\n%s", footer)
	}
	// An action's divergences open the page after its redirect, named for the action.
	if r := c.Post("/users/bob/follow", nil); r.Status != http.StatusSeeOther {
		t.Fatalf("follow: %d", r.Status)
	}
	r = c.Get("/users/bob")
	if !strings.HasPrefix(top(r.Body), `<div class="flash err" id="divergences" role="alert">`) || !strings.Contains(r.Body, `<li>your follow of bob: <code>DIVERGENCE get_users`) {
		t.Fatalf("the follow's divergence does not open the page after it:\n%s", r.Body)
	}
	// A page on which the models agree has no banner.
	webkit.MustNotContain(t, c.Get("/users/ann").Body, `id="divergences"`)
}

// In Chromium, at 1280 and 390 px, a page whose reads diverged shows the report in its first
// screen, without scrolling; screenshots compare-divergence-1280.png and -390.png.
func TestBrowserDivergenceOnTheFirstScreen(t *testing.T) {
	app := divergingApp(t)
	for _, width := range []int64{1280, 390} {
		b := webkit.NewTab(t, 1280, 800, 60*time.Second)
		b.Do("bob's page", chromedp.EmulateViewport(width, 800), chromedp.Navigate(app.Srv.URL+"/users/bob"), chromedp.WaitVisible(chromedp.CSS("#divergences")))
		top, err := chromedp.Run(b.Ctx, chromedp.Evaluate[float64](`document.querySelector("#divergences").getBoundingClientRect().top`))
		if err != nil {
			t.Fatal(err)
		}
		if top <= 0 || top > 400 {
			t.Errorf("at %d px the divergences start %v px down", width, top)
		}
		b.Shot(fmt.Sprintf("compare-divergence-%d", width))
	}
}
