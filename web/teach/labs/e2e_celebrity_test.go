package labs_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium: star has two followers, above a pull threshold of 1, and posts; ann signs in and
// finds the post on her home page, read by a merge of star's userline (the footer says so),
// then opens the celebrity page: star is among the pulled authors she follows, star's mode is
// pull, and the measured plot is drawn; screenshot celebrity.png.
func TestBrowserCelebrity(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	ctx := context.Background()
	if err := app.Social.SetPullThreshold(1); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"star", "ann", "bob"} {
		if _, err := app.Social.SignUp(ctx, name, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	for _, fan := range []string{"ann", "bob"} {
		if err := app.Social.Follow(ctx, fan, "star"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := app.Social.Post(ctx, "star", "a post for a million"); err != nil {
		t.Fatal(err)
	}
	b := webkit.NewTab(t, 1280, 900, 60*time.Second)
	b.Do("log in ann", chromedp.Navigate(app.Srv.URL+"/login"),
		chromedp.SendKeys(chromedp.CSS("#login-username"), "ann"),
		chromedp.SendKeys(chromedp.CSS("#login-password"), "password1"),
		chromedp.Click(chromedp.CSS("#login-submit")),
		chromedp.WaitVisible(chromedp.Search(`//li[contains(@class,"tweet") and contains(., "a post for a million")]`)))
	ops, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`document.querySelector("#storage-ops").textContent`))
	if err != nil || !strings.Contains(ops, "merge: ann's timeline and the userlines of the 1 pulled authors ann follows (star)") {
		t.Errorf("home page's operations lack the merge: %q", ops)
	}
	b.Do("celebrity page", chromedp.Navigate(app.Srv.URL+"/models"), chromedp.Click(chromedp.CSS("#link-celebrity")),
		chromedp.WaitVisible(chromedp.CSS("#celebrity-plot")))
	if got := b.Text("#pulled-all"); !strings.Contains(got, "Pulled on this server (1): star") {
		t.Errorf("the pulled authors: %q", got)
	}
	if got := b.Text("#pulled-friends"); !strings.Contains(got, "star") {
		t.Errorf("pulled authors ann follows: %q", got)
	}
	// The heads: star's, read by ann's home page above, and ann's page read both ways now.
	if got := b.Text("#heads-held"); !strings.Contains(got, "star") || !strings.Contains(got, "(the whole userline)") {
		t.Errorf("what the heads hold: %q", got)
	}
	if got := b.Text("#merge-reads"); !strings.Contains(got, "without the heads") || !strings.Contains(got, "with the heads") {
		t.Errorf("ann's page read both ways: %q", got)
	}
	b.Do("look up star", chromedp.SendKeys(chromedp.CSS("#fanout-user"), "star"),
		chromedp.Click(chromedp.CSS("#fanout-form button[type=submit]")),
		chromedp.WaitVisible(chromedp.CSS("#fanout-result")))
	if got := b.Text("#fanout-result"); !strings.Contains(got, "has 2 followers: pull") {
		t.Errorf("star's fan-out: %q", got)
	}
	// The plot is an image the browser decoded, with the curves of both backends.
	width, err := chromedp.Run(b.Ctx, chromedp.Evaluate[int](`(async () => { const i = document.querySelector("#celebrity-plot"); await i.decode(); return i.naturalWidth })()`, chromedp.EvalAwaitPromise))
	if err != nil || width < 900 {
		t.Errorf("the plot: natural width %d (%v)", width, err)
	}
	if rows, err := chromedp.Run(b.Ctx, chromedp.Evaluate[int](`document.querySelectorAll("#celebrity-figures tbody tr").length`)); err != nil || rows < 10 {
		t.Errorf("%d rows of figures (%v), want both backends' five counts", rows, err)
	}
	b.Shot("celebrity")
}
