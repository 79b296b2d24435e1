package paths_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium, at 390 and 1280 px: the lesson, a write, then a flush, whose page shows the
// figures before and after and the new table file in L0. Every page answers 200 with no CSP
// violation and nothing wider than the window. Screenshots paths-<now|flush>-<width>.png.
func TestBrowserPathsLesson(t *testing.T) {
	for _, width := range []int{390, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			app := teachkit.NewApp(t, webkit.WiderowStores(t))
			b := webkit.NewTab(t, max(width, 500), 900, 60*time.Second)
			b.Do("watch CSP", webkit.CSPWatch())
			if width < 500 {
				b.Do("emulate a phone", chromedp.EmulateViewport(int64(width), 844))
			}
			b.Do("the lesson", chromedp.Navigate(app.Srv.URL+"/learn/paths"), chromedp.WaitVisible(chromedp.CSS("#paths-form")))
			b.Health()
			b.Shot(fmt.Sprintf("paths-now-%d", width))
			b.Do("a write", chromedp.Click(chromedp.CSS("#paths-write")), chromedp.WaitVisible(chromedp.CSS("#paths-summary")))
			b.Do("a flush", chromedp.Click(chromedp.CSS("#paths-flush")), chromedp.WaitVisible(chromedp.CSS("#paths-tables")))
			if got := b.Text("#paths-summary"); !strings.Contains(got, "The flush wrote the memtable to a table file") {
				t.Errorf("the summary: %q", got)
			}
			if got := b.Text("#paths-tables"); !strings.Contains(got, ".sst in L") {
				t.Errorf("the tables: %q", got)
			}
			b.Health()
			b.Shot(fmt.Sprintf("paths-flush-%d", width))
		})
	}
}
