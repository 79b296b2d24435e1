package course_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// In Chromium, at 1280 and 390 px, on widerow: the reference pages, then lessons 8 to 13 walked
// by their rel="next" links, each live part used once (a follow, a key tried, the method's figures
// sized, wrong then right, a post): nothing
// scrolls sideways, the console reports no error (a blocked inline style or script would), and
// each live part answers on the page its redirect leads to. Screenshots:
// artifacts/screenshots/learn-<page>-<width>.png.
func TestBrowserLessonsEightToThirteen(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	teachkit.PostMany(t, app, "star", 3, 5)
	for _, width := range []int{1280, 390} {
		t.Run(strconv.Itoa(width), func(t *testing.T) {
			b := webkit.NewTab(t, width, 900, 120*time.Second)
			console := b.WatchConsole()
			size := func(name string) {
				t.Helper()
				type layout struct {
					Viewport, PageWidth float64
					Title               string
				}
				got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[layout](`({Viewport: document.documentElement.clientWidth,
					PageWidth: document.documentElement.scrollWidth, Title: document.title})`))
				if err != nil {
					t.Fatal(err)
				}
				if got.PageWidth > got.Viewport || strings.Contains(got.Title, "Not found") || strings.Contains(got.Title, "wrong") {
					t.Errorf("%s at %d px: %+v", name, width, got)
				}
				b.Shot("learn-" + name + "-" + strconv.Itoa(width))
			}
			b.Do("viewport", chromedp.EmulateViewport(int64(width), 900))
			b.Do("sign up", chromedp.Navigate(app.Srv.URL+"/login"),
				chromedp.SendKeys(chromedp.CSS("#signup-username"), "ann"+strconv.Itoa(width)),
				chromedp.SendKeys(chromedp.CSS("#signup-password"), "password1"),
				chromedp.SendKeys(chromedp.CSS("#signup-password2"), "password1"),
				chromedp.Click(chromedp.CSS("#signup-submit")),
				chromedp.WaitVisible(chromedp.CSS("#body")))
			for _, p := range []struct{ name, path, sel string }{
				{"start", "/learn", "#reference-pages"},
				{"glossary", "/learn/glossary#tombstone", "#glossary"},
				{"timeline", "/learn/timeline", "#timeline"},
				{"departures", "/learn/departures", "#bcrypt"},
			} {
				b.Do(p.name, chromedp.Navigate(app.Srv.URL+p.path), chromedp.WaitVisible(chromedp.CSS(p.sel)))
				size(p.name)
			}
			// Lesson 8, with a follow of star that comes back to it.
			b.Do("lesson 8", chromedp.Navigate(app.Srv.URL+"/learn/cql3?user=star"), chromedp.WaitVisible(chromedp.CSS("#cql3-follow-submit")),
				chromedp.Click(chromedp.CSS("#cql3-follow-submit")),
				chromedp.WaitVisible(chromedp.Search(`//details[@id="action-ops"]/summary[contains(., "What your follow of star cost")]`)))
			if got := b.Text("#cql3-count"); got != map[int]string{1280: "4", 390: "5"}[width] { // 3 fans, then each width's learner
				t.Errorf("star's followers after the follow: %q", got)
			}
			size("cql3")
			// On by rel=next: lesson 9, a key tried.
			b.Do("to lesson 9", chromedp.Click(chromedp.CSS(`a[rel="next"]#lesson-next`)), chromedp.WaitVisible(chromedp.CSS("#qf-form")),
				chromedp.Click(chromedp.CSS("#qf-submit")), chromedp.WaitVisible(chromedp.CSS("#qf-why")))
			size("query-first")
			// Lesson 10, the method: figures that are not numbers, a message; then figures that are.
			b.Do("to lesson 10", chromedp.Click(chromedp.CSS(`a[rel="next"]#lesson-next`)), chromedp.WaitVisible(chromedp.CSS("#method-form")),
				chromedp.SetValue(chromedp.CSS("#method-followers"), "many"), chromedp.Click(chromedp.CSS("#method-submit")),
				chromedp.WaitVisible(chromedp.CSS("#method-error")))
			if got := b.Text("#method-error"); !strings.Contains(got, "“many” is not a whole number") {
				t.Errorf("the method's message for a bad figure: %q", got)
			}
			b.Do("figures", chromedp.SetValue(chromedp.CSS("#method-followers"), "5000"), chromedp.Click(chromedp.CSS("#method-submit")),
				chromedp.WaitNotPresent(chromedp.CSS("#method-error")), chromedp.WaitVisible(chromedp.CSS("#method-er")))
			if got := b.Text("#est-followers"); !strings.Contains(got, "5,000") {
				t.Errorf("followers' estimate at 5,000 followers: %q", got)
			}
			if got := b.Text("#measured-table-widerow"); !strings.Contains(got, "Twissandra.Followers") || !strings.Contains(got, "equal") {
				t.Errorf("the formula against the store: %q", got)
			}
			size("method")
			// Lesson 11, a post that widens the public line.
			b.Do("to lesson 11", chromedp.Click(chromedp.CSS(`a[rel="next"]#lesson-next`)), chromedp.WaitVisible(chromedp.CSS("#post-partitions")),
				chromedp.Click(chromedp.CSS("#post-submit-partitions")),
				chromedp.WaitVisible(chromedp.Search(`//details[@id="action-ops"]/summary[contains(., "What your post cost")]`)))
			if got := b.Text("#pl-public-count-widerow"); got == "" || got == "5" {
				t.Errorf("the public line after the post: %q", got)
			}
			size("partitions")
			b.Do("to lesson 12", chromedp.Click(chromedp.CSS(`a[rel="next"]#lesson-next`)), chromedp.WaitVisible(chromedp.CSS("#cl-form")))
			size("celebrity")
			b.Do("to lesson 13", chromedp.Click(chromedp.CSS(`a[rel="next"]#lesson-next`)), chromedp.WaitVisible(chromedp.CSS("#compare-off")))
			size("compare")
			after := frame.Course()[frame.LessonNumber("compare")] // the lesson after compare's, counted from 1
			if next, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`document.querySelector('a[rel="next"]').getAttribute("href")`)); err != nil || next != string(frame.LessonURL(after.Slug)) {
				t.Errorf("lesson %d links on to %q, want lesson %d, %s (%v)", frame.LessonNumber("compare"), next, after.N, frame.LessonURL(after.Slug), err)
			}
			if problems := console(); len(problems) > 0 {
				t.Errorf("the console at %d px:\n%s", width, strings.Join(problems, "\n"))
			}
		})
	}
}

// In Chromium, in compare mode (widerow answering, cql3 on the node beside it): a key with a
// day bucket tried from lesson 9 reads three partitions, and the page after shows the
// statements and, on cql3's side of the footer, what they cost; nothing scrolls sideways at 1280
// or 390 px. Screenshots: artifacts/screenshots/learn-query-first-node-<width>.png.
func TestBrowserQueryFirstOnNode(t *testing.T) {
	app := teachkit.NewApp(t, webkit.CompareStores(t))
	for _, width := range []int{1280, 390} {
		b := webkit.NewTab(t, width, 900, 90*time.Second)
		b.Do("try a key", chromedp.EmulateViewport(int64(width), 900), chromedp.Navigate(app.Srv.URL+"/learn/query-first?pattern=userline"),
			chromedp.WaitVisible(chromedp.CSS("#qf-form")),
			chromedp.SetValue(chromedp.CSS("#qf-p2"), "day"), chromedp.SetValue(chromedp.CSS("#qf-c1"), "time"), chromedp.SetValue(chromedp.CSS("#qf-d1"), "desc"),
			chromedp.Click(chromedp.CSS("#qf-submit")), chromedp.WaitVisible(chromedp.CSS("#qf-outcome")),
			chromedp.WaitVisible(chromedp.Search(`//details[@id="action-ops"]/summary[contains(., "What your table cost")]`)))
		if got := b.Text("#qf-outcome"); !strings.HasPrefix(got, "3 partitions.") {
			t.Errorf("at %d px: %q", width, got)
		}
		if got := b.Text("#action-ops #secondary-ops"); !strings.Contains(got, "day IN (") {
			t.Errorf("cql3's side of the trial's cost: %q", got)
		}
		type layout struct{ Viewport, PageWidth float64 }
		got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[layout](`({Viewport: document.documentElement.clientWidth, PageWidth: document.documentElement.scrollWidth})`))
		if err != nil || got.PageWidth > got.Viewport {
			t.Errorf("at %d px: %+v %v", width, got, err)
		}
		b.Shot("learn-query-first-node-" + strconv.Itoa(width))
	}
}
