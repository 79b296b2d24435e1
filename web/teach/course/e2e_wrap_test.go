package course_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// In Chromium at 390 px, on widerow: a learner posts a tweet of 140 characters without a space
// from lesson 4, and no page that shows it (the home page, the public line, the user's page,
// where the tweet lives, and every lesson) is wider than the viewport, signed in or not: user
// text wraps anywhere. Screenshot: artifacts/screenshots/wrap-twissandra-390.
func TestUnbrokenTweetWrapsAt390px(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	b := webkit.NewTab(t, 500, 844, 3*time.Minute)
	b.Do("watch CSP", webkit.CSPWatch(), chromedp.EmulateViewport(390, 844))
	b.Do("sign up", chromedp.Navigate(app.Srv.URL+"/login"), chromedp.WaitVisible(chromedp.CSS("#signup-form")),
		chromedp.SendKeys(chromedp.CSS("#signup-username"), "learner"),
		chromedp.SendKeys(chromedp.CSS("#signup-password"), "password1"),
		chromedp.SendKeys(chromedp.CSS("#signup-password2"), "password1"),
		chromedp.Click(chromedp.CSS("#signup-submit")), chromedp.WaitVisible(chromedp.CSS(".me")))
	long := "https://example.com/" + strings.Repeat("a", 120)
	if len(long) != 140 {
		t.Fatalf("the tweet is %d characters", len(long))
	}
	b.Do("post it from lesson 4", chromedp.Navigate(app.Srv.URL+"/learn/twissandra"), chromedp.WaitVisible(chromedp.CSS("#twissandra-form")),
		chromedp.SendKeys(chromedp.CSS("#twissandra-body"), long), chromedp.Click(chromedp.CSS("#twissandra-submit")))
	b.WaitFor(`location.search.includes("tweet=")`)
	b.WaitFor(`document.readyState === "complete" && document.body.innerText.includes("` + long + `")`)
	b.Health()
	b.Shot("wrap-twissandra-390")
	tweet, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`new URLSearchParams(location.search).get("tweet")`))
	if err != nil || tweet == "" {
		t.Fatalf("the tweet's id: %q, %v", tweet, err)
	}
	pages := []string{"/", "/public", "/users/learner", "/models/where?tweet=" + tweet, "/learn/twissandra?tweet=" + tweet}
	for _, l := range frame.Course() {
		pages = append(pages, "/learn/"+l.Slug)
	}
	shown := 0
	visit := func(who string) {
		for _, p := range pages {
			b.Do(who+": "+p, chromedp.Navigate(app.Srv.URL+p), chromedp.WaitReady(chromedp.CSS("footer")))
			if h := b.Health(); h.Viewport != 390 { // Health fails a page wider than the viewport
				t.Errorf("%s: %s: a viewport of %v px", who, p, h.Viewport)
			}
			if strings.Contains(b.Text("main"), long) {
				shown++
			}
		}
	}
	visit("signed in")
	b.Do("log out", chromedp.Click(chromedp.CSS("#logout")), chromedp.WaitVisible(chromedp.CSS(`header a[href="/login"]`)))
	visit("anonymous")
	if shown < 10 {
		t.Errorf("the tweet shows on %d pages only", shown)
	}
}
