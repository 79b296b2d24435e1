package celebrity_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium at 390 px, on widerow: lesson 12 fits the phone's width and is short, its measured
// tables one click away (closed until the learner opens them); in its sandbox the learner sets
// a threshold of 2 and 2 followers and posts: pushed, fan1's page merges nothing; the link
// across the threshold makes it 3 followers: the post writes no follower's Timeline row and
// fan1's page merges star's userline. Then the measured tables open with one click. Every page
// answers with no CSP violation and nothing wider than the window. Screenshots
// lesson-celebrity-sandbox-390.png, lesson-celebrity-figures-390.png.
func TestBrowserCelebritySandboxAt390px(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	b := webkit.NewTab(t, 500, 900, 90*time.Second)
	b.Do("watch CSP", webkit.CSPWatch())
	b.Do("emulate a phone", chromedp.EmulateViewport(390, 844))
	type shape struct {
		Viewport, Wide, High float64
		FiguresShown         bool
	}
	measure := func(what string) shape {
		t.Helper()
		s, err := chromedp.Run(b.Ctx, chromedp.Evaluate[shape](`(() => ({Viewport: document.documentElement.clientWidth,
			Wide: document.documentElement.scrollWidth, High: document.documentElement.scrollHeight,
			FiguresShown: document.querySelector("#cl-sim-plot").checkVisibility()}))()`))
		if err != nil {
			t.Fatal(err)
		}
		if s.Viewport != 390 || s.Wide > s.Viewport {
			t.Errorf("%s at 390 px: %+v", what, s)
		}
		return s
	}
	b.Do("lesson 12", chromedp.Navigate(app.Srv.URL+"/learn/celebrity"), chromedp.WaitVisible(chromedp.CSS("#sandbox-submit")))
	b.Health()
	// The page was 15,700 px long at 390 px with its tables shown; with them closed, a few screens.
	if s := measure("the lesson"); s.FiguresShown || s.High > 9000 {
		t.Errorf("the lesson at 390 px: %+v, want the figures closed and the page under 9,000 px", s)
	}
	b.Do("run the sandbox", chromedp.SetValue(chromedp.CSS("#sandbox-threshold"), "2"), chromedp.SetValue(chromedp.CSS("#sandbox-followers"), "2"),
		chromedp.Click(chromedp.CSS("#sandbox-submit")), chromedp.WaitVisible(chromedp.CSS("#sandbox-result")))
	b.Health()
	if got := b.Text("#sandbox-verdict"); !strings.Contains(got, "has 2 followers and the threshold is 2: push") {
		t.Errorf("the verdict: %q", got)
	}
	if got := b.Text("#sandbox-read"); !strings.Contains(got, "merged nothing") {
		t.Errorf("fan1's page, pushed: %q", got)
	}
	if got := b.Text("#sandbox-timelines"); !strings.Contains(got, "fan2's timeline") {
		t.Errorf("the Timeline rows, pushed: %q", got)
	}
	measure("the pushed run")
	b.Do("cross the threshold", chromedp.Click(chromedp.CSS("#sandbox-cross a")))
	b.WaitFor(`!!document.querySelector("#sandbox-verdict") && document.querySelector("#sandbox-verdict").textContent.includes("has 3 followers")`)
	b.Health()
	if got := b.Text("#sandbox-verdict"); !strings.Contains(got, "pull") {
		t.Errorf("the verdict: %q", got)
	}
	if got := b.Text("#sandbox-timelines"); strings.Contains(got, "fan") {
		t.Errorf("the Timeline rows, pulled: %q", got)
	}
	if got := b.Text("#sandbox-read"); !strings.Contains(got, "merged fan1's timeline row with star's userline") {
		t.Errorf("fan1's page, pulled: %q", got)
	}
	if got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`document.querySelector("#storage-ops").textContent`)); err != nil || !strings.Contains(got, "merge: fan1's timeline") {
		t.Errorf("the footer lacks the merge (%v): %q", err, got)
	}
	measure("the pulled run")
	b.Shot("lesson-celebrity-sandbox-390")
	b.Do("open the figures", chromedp.Click(chromedp.CSS("#measured > summary")), chromedp.WaitVisible(chromedp.CSS("#cl-sim-plot")))
	if s := measure("the figures"); !s.FiguresShown {
		t.Errorf("one click did not show the figures: %+v", s)
	}
	b.Shot("lesson-celebrity-figures-390")
}
