package ttl_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium, at 390 and 1280 px, on the node: a run of the TTL lesson with a note of TTL 0,
// waited for, shows its statements and the row still read after the reading expired; the page
// answers 200 with no CSP violation and nothing wider than the window. Screenshots
// ttl-run-<width>.png.
func TestBrowserTTLLessonOnTheNode(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	app := teachkit.NewApp(t, st)
	for _, width := range []int{390, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			b := webkit.NewTab(t, max(width, 500), 900, 120*time.Second)
			b.Do("watch CSP", webkit.CSPWatch())
			if width < 500 {
				b.Do("emulate a phone", chromedp.EmulateViewport(int64(width), 844))
			}
			b.Do("the lesson", chromedp.Navigate(app.Srv.URL+"/learn/ttl"), chromedp.WaitVisible(chromedp.CSS("#ttl-form")))
			b.Health()
			b.Do("a run", chromedp.SetValue(chromedp.CSS("#ttl-ttl"), "1"), chromedp.SetValue(chromedp.CSS("#ttl-update"), "ttl0"),
				chromedp.Click(chromedp.CSS("#ttl-submit")), chromedp.WaitVisible(chromedp.CSS("#ttl-verdict")))
			if got := b.Text("#ttl-verdict"); !strings.Contains(got, "USING TTL 0 gave the note no TTL") || !strings.Contains(got, "the row still read") {
				t.Errorf("the verdict: %q", got)
			}
			if got := b.Text("#ttl-statements"); !strings.Contains(got, "UPDATE") || !strings.Contains(got, "DELETE FROM") {
				t.Errorf("the statements: %q", got)
			}
			b.Health()
			b.Shot(fmt.Sprintf("ttl-run-%d", width))
		})
	}
}
