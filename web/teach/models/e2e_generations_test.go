package models_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// In Chromium: a learner signs up, posts, reads the home page, then opens the three
// generations: the table of what a page and a post cost in each, what this server measured for
// them, and the Chebotko diagram with an arrow from every access pattern; screenshot
// generations.png.
func TestBrowserGenerations(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	b := webkit.NewTab(t, 1280, 900, 60*time.Second)
	b.Do("sign up", chromedp.Navigate(app.Srv.URL+"/login"),
		chromedp.SendKeys(chromedp.CSS("#signup-username"), "ann"),
		chromedp.SendKeys(chromedp.CSS("#signup-password"), "password1"),
		chromedp.SendKeys(chromedp.CSS("#signup-password2"), "password1"),
		chromedp.Click(chromedp.CSS("#signup-submit")),
		chromedp.WaitVisible(chromedp.CSS("#body")))
	b.Do("post", chromedp.SendKeys(chromedp.CSS("#body"), "three generations"),
		chromedp.Click(chromedp.CSS("#post-form button[type=submit]")),
		chromedp.WaitVisible(chromedp.Search(`//li[contains(@class,"tweet") and contains(., "three generations")]`)))
	b.Do("generations", chromedp.Navigate(app.Srv.URL+"/models"), chromedp.Click(chromedp.CSS("#link-generations")),
		chromedp.WaitVisible(chromedp.CSS("#chebotko-diagram")))
	if rows, err := chromedp.Run(b.Ctx, chromedp.Evaluate[int](`document.querySelectorAll("#generations tbody tr").length`)); err != nil || rows != 3 {
		t.Errorf("%d generations shown, want 3 (%v)", rows, err)
	}
	for sel, want := range map[string]string{
		"#measured-page": "The last home timeline page on this server (yours): ",
		"#measured-post": "fan-out=1",
	} {
		if got := b.Text(sel); !strings.Contains(got, want) {
			t.Errorf("%s: %q lacks %q", sel, got, want)
		}
	}
	counts, err := chromedp.Run(b.Ctx, chromedp.Evaluate[[]int](`[document.querySelectorAll("#chebotko-diagram .cheb-table").length,
		document.querySelectorAll("#chebotko-diagram .cheb-query").length, document.querySelectorAll("#chebotko-diagram .cheb-arrow").length,
		document.querySelectorAll('#chebotko-diagram .cheb-arrow[data-query="Q3"]').length]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) != 4 || counts[0] < 10 || counts[1] != len(frame.AccessPatterns) || counts[2] < len(frame.AccessPatterns) || counts[3] != 4 {
		t.Errorf("diagram: %v tables, queries, arrows, arrows from Q3 (timeline, pulled_authors, friends, userline)", counts)
	}
	b.Shot("generations")
}
