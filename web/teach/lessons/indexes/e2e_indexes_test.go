package indexes_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium, at 390 and 1280 px, on the node: the lesson's form writes the learner's user and
// finds it four ways; the page after it shows every way's statements and answers 200 with no CSP
// violation and nothing wider than the window. Screenshots indexes-<width>.png.
func TestBrowserIndexesLesson(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	st.IndexLab.(interface{ SetIndexBudget(int) }).SetIndexBudget(100)
	app := teachkit.NewApp(t, st)
	for _, width := range []int{390, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			b := webkit.NewTab(t, max(width, 500), 900, 120*time.Second)
			b.Do("watch CSP", webkit.CSPWatch())
			if width < 500 {
				b.Do("emulate a phone", chromedp.EmulateViewport(int64(width), 844))
			}
			b.Do("the lesson", chromedp.Navigate(app.Srv.URL+"/learn/indexes"), chromedp.WaitVisible(chromedp.CSS("#ways-form")))
			b.Health()
			b.Do("find a user four ways", chromedp.SetValue(chromedp.CSS("#ways-name"), "ann"),
				chromedp.Click(chromedp.CSS("#ways-submit")), chromedp.WaitVisible(chromedp.CSS("#ways-run")))
			for _, way := range []string{"table", "2i", "mv", "sai"} {
				if got := b.Text("#way-" + way); !strings.Contains(got, "The read by name: 1 row") {
					t.Errorf("%s: %q", way, got)
				}
			}
			b.Health()
			b.Shot(fmt.Sprintf("indexes-%d", width))
		})
	}
}
