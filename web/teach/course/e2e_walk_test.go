package course_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// The course walked in Chromium at 390 and 1280 px (one browser, the phone first): in every lesson that has an
// exercise (as GET /api/v1/course lists them, on widerow, whose simulated ring has its own), the
// first one answered wrong (another choice, or the model answer altered, as the API grades it
// "incorrect"), which shows "Not quite", the store's answer, and what the grading cost in the
// footer; then right, with the answer the page gave, which shows it passed. No page is wider
// than the viewport, and /learn ticks every lesson visited and passed. Screenshots:
// artifacts/screenshots/walk-<lesson>-1280.png and -390.png.
func TestCourseWalkEveryLessonWrongThenRightInChromium(t *testing.T) {
	b := webkit.NewTab(t, 1280, 900, 4*time.Minute)
	b.Do("watch CSP", webkit.CSPWatch())
	for _, width := range []int{390, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			app := teachkit.NewApp(t, webkit.WiderowStores(t))
			teachkit.PostMany(t, app, "author", 2, 1) // the fan-out question's newest tweet
			c := app.Client(t)
			b.Do("viewport", chromedp.EmulateViewport(int64(width), 900))
			walked := 0
			for _, l := range listedCourse(t, c) {
				if len(l.Exercises) == 0 {
					continue
				}
				ex := l.Exercises[0]
				_, wrong := modelAndWrong(t, c, ex)
				sel := "#ex-" + ex.ID
				answer := func(a string) {
					t.Helper()
					if len(ex.Choices) > 0 {
						b.Do(ex.ID+": choose "+a, chromedp.Click(chromedp.CSS(sel+" input[value="+strconv.Quote(a)+"]")), chromedp.Click(chromedp.CSS(sel+"-check")))
						return
					}
					b.Do(ex.ID+": answer "+a, chromedp.SendKeys(chromedp.CSS(sel+"-answer"), a), chromedp.Click(chromedp.CSS(sel+"-check")))
				}
				b.Do(l.Slug, chromedp.Navigate(app.Srv.URL+l.URL), chromedp.WaitVisible(chromedp.CSS(sel)))
				if strings.Contains(b.Text(sel), "Not quite") {
					t.Fatalf("%s: the answer shows before the question is answered", ex.ID)
				}
				answer(wrong)
				b.WaitFor(`document.querySelector("` + sel + `-verdict[data-verdict=incorrect]") !== null`)
				b.Health()
				verdict, model := b.Text(sel+"-verdict"), b.Text(sel+"-model")
				if !strings.Contains(verdict, "Not quite") || !strings.Contains(verdict, wrong) || model == "" {
					t.Errorf("%s: the wrong answer %q's verdict: %q (model %q)", ex.ID, wrong, verdict, model)
				}
				if footer := b.Text("#action-ops"); !strings.Contains(footer, "What your answer cost") {
					t.Errorf("%s: the footer: %q", ex.ID, footer)
				}
				b.Shot(fmt.Sprintf("walk-%s-%d", l.Slug, width))
				answer(model)
				b.WaitFor(`document.querySelector("` + sel + `-verdict[data-verdict=correct]") !== null`)
				b.Health()
				if v := b.Text(sel + "-verdict"); !strings.Contains(v, "Correct.") {
					t.Errorf("%s: the right answer %q's verdict: %q", ex.ID, model, v)
				}
				if b.Text(sel+"-passed") == "" {
					t.Errorf("%s: no passed badge after the right answer", ex.ID)
				}
				walked++
			}
			b.Do("the course", chromedp.Navigate(app.Srv.URL+"/learn"), chromedp.WaitVisible(chromedp.CSS("#course")))
			b.Health()
			for _, l := range listedCourse(t, c) {
				if len(l.Exercises) == 0 {
					continue
				}
				if !strings.Contains(b.Text("#visited-"+l.Slug), "visited") || !strings.HasPrefix(b.Text("#passed-"+l.Slug), "1/") {
					t.Errorf("/learn's ticks of %s: %q %q", l.Slug, b.Text("#visited-"+l.Slug), b.Text("#passed-"+l.Slug))
				}
			}
			if walked == 0 {
				t.Error("no lesson has an exercise")
			}
		})
	}
}
