package course_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium at 1280 and 390 px: a learner answers an exercise of lesson 2 wrong (the
// numbers' order, under BytesType), sees the store's answer, why, and what the grading cost in
// the footer, tries again with it and passes; then a choice of lesson 3 wrong, then right; and
// /learn ticks both. No page is wider than the viewport. Screenshots:
// artifacts/screenshots/exercise-*-1280.png and -390.png.
func TestExerciseWrongThenRightInChromium(t *testing.T) {
	for _, width := range []int{1280, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			app := teachkit.NewApp(t, webkit.MemoryStores())
			b := webkit.NewTab(t, width, 900, 2*time.Minute)
			b.Do("watch CSP", webkit.CSPWatch(), chromedp.EmulateViewport(int64(width), 900))
			shot := func(name string) { b.Shot(fmt.Sprintf("exercise-%s-%d", name, width)) }

			b.Do("lesson 2", chromedp.Navigate(app.Srv.URL+"/learn/slices"), chromedp.WaitVisible(chromedp.CSS("#ex-slices-1")))
			if strings.Contains(b.Text("#ex-slices-1"), "Not quite") {
				t.Fatal("the answer shows before the question is answered")
			}
			b.Do("answer wrong", chromedp.SendKeys(chromedp.CSS("#ex-slices-1-answer"), "3, 123, 976"), chromedp.Click(chromedp.CSS("#ex-slices-1-check")))
			b.WaitFor(`document.querySelector("#ex-slices-1-verdict") !== null`)
			b.Health()
			shot("wrong")
			verdict := b.Text("#ex-slices-1-verdict")
			model := b.Text("#ex-slices-1-model")
			if !strings.Contains(verdict, "Not quite") || model == "" || !strings.Contains(verdict, "BytesType") {
				t.Fatalf("the wrong answer's verdict: %q (model %q)", verdict, model)
			}
			if footer := b.Text("#action-ops"); !strings.Contains(footer, "What your answer cost") || !strings.Contains(footer, "get_slice") {
				t.Errorf("the footer: %q", footer)
			}
			b.Do("try again", chromedp.SendKeys(chromedp.CSS("#ex-slices-1-answer"), model), chromedp.Click(chromedp.CSS("#ex-slices-1-check")))
			b.WaitFor(`document.querySelector("#ex-slices-1-verdict[data-verdict=correct]") !== null`)
			b.Health()
			shot("right")
			if !strings.Contains(b.Text("#ex-slices-1"), "passed") {
				t.Error("no passed badge after the right answer")
			}

			b.Do("lesson 3", chromedp.Navigate(app.Srv.URL+"/learn/time"), chromedp.WaitVisible(chromedp.CSS("#ex-time-2")))
			b.Do("choose wrong", chromedp.Click(chromedp.CSS(`#ex-time-2 input[value=yes]`)), chromedp.Click(chromedp.CSS("#ex-time-2-check")))
			b.WaitFor(`document.querySelector("#ex-time-2-verdict[data-verdict=incorrect]") !== null`)
			right := b.Text("#ex-time-2-model")
			b.Do("choose right", chromedp.Click(chromedp.CSS(`#ex-time-2 input[value=`+right+`]`)), chromedp.Click(chromedp.CSS("#ex-time-2-check")))
			b.WaitFor(`document.querySelector("#ex-time-2-verdict[data-verdict=correct]") !== null`)
			b.Health()

			b.Do("the course", chromedp.Navigate(app.Srv.URL+"/learn"), chromedp.WaitVisible(chromedp.CSS("#course")))
			b.Health()
			shot("learn")
			if !strings.Contains(b.Text("#visited-slices"), "visited") || !strings.Contains(b.Text("#passed-slices"), "1/3") || !strings.Contains(b.Text("#passed-time"), "1/2") {
				t.Errorf("the ticks: %q", b.Text("#course"))
			}
		})
	}
}
