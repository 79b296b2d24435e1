package consistency_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium, at 390 and 1280 px: the consistency lesson's step with C stopped (the read at ALL
// refused as Unavailable, a hint kept on A), then the trials of every pair on that ring: the chart
// draws nine bars, the five with ALL unavailable, six of levels that overlap and none of those
// above the axis. Every page answers
// 200 with no CSP violation and nothing wider than the window. Screenshots
// consistency-<step|trials>-<width>.png.
func TestBrowserConsistencyLesson(t *testing.T) {
	for _, width := range []int{390, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			app := teachkit.NewApp(t, webkit.WiderowStores(t))
			b := webkit.NewTab(t, max(width, 500), 900, 120*time.Second)
			b.Do("watch CSP", webkit.CSPWatch())
			if width < 500 {
				b.Do("emulate a phone", chromedp.EmulateViewport(int64(width), 844))
			}
			b.Do("the lesson", chromedp.Navigate(app.Srv.URL+"/learn/consistency"), chromedp.WaitVisible(chromedp.CSS("#consistency-form")))
			b.Health()
			b.Do("a step with C stopped", chromedp.Click(chromedp.CSS("#consistency-stop-c")),
				chromedp.SetValue(chromedp.CSS("#consistency-read"), "ALL"),
				chromedp.Click(chromedp.CSS("#consistency-submit")), chromedp.WaitVisible(chromedp.CSS("#consistency-verdict")))
			if got := b.Text("#consistency-verdict"); !strings.Contains(got, "The write at ONE answered at") || !strings.Contains(got, "The read at ALL failed: UnavailableException") {
				t.Errorf("the verdict: %q", got)
			}
			if got := b.Text("#consistency-replicas"); !strings.Contains(got, "hints for C") {
				t.Errorf("the replicas' table: %q", got)
			}
			b.Health()
			b.Shot(fmt.Sprintf("consistency-step-%d", width))
			// The trials' form keeps the step's ring: C stopped.
			b.Do("the trials", chromedp.SetValue(chromedp.CSS("#trials-count"), "20000"),
				chromedp.Click(chromedp.CSS("#trials-submit")), chromedp.WaitVisible(chromedp.CSS("#trials-chart")))
			type bars struct{ Bars, Overlap, OverlapTall, Tall, Unavailable int }
			got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bars](`(() => {
				const all = [...document.querySelectorAll("#trials-chart .trial-bar rect")];
				const tall = r => r.getBoundingClientRect().height > 2;
				const ov = [...document.querySelectorAll("#trials-chart .trial-bar.overlap rect")];
				return {Bars: all.length, Overlap: ov.length, OverlapTall: ov.filter(tall).length, Tall: all.filter(tall).length,
					Unavailable: document.querySelectorAll("#trials-chart .trial-bar.unavailable").length};
			})()`))
			if err != nil || got.Bars != 9 || got.Overlap != 6 || got.OverlapTall != 0 || got.Tall == 0 || got.Unavailable != 5 {
				t.Errorf("the chart: %+v, %v", got, err)
			}
			b.Health()
			b.Shot(fmt.Sprintf("consistency-trials-%d", width))
		})
	}
}
