package collections_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium, at 390 and 1280 px, on the node: the address book written whole again in every
// form, the engine's super column beside them; the map and the user type lose the state, the
// rows and the super column keep it. The page answers 200 with no CSP violation and nothing
// wider than the window. Screenshots collections-<width>.png.
func TestBrowserCollectionsLesson(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	for _, width := range []int{390, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			app := teachkit.NewApp(t, st)
			b := webkit.NewTab(t, max(width, 500), 900, 120*time.Second)
			b.Do("watch CSP", webkit.CSPWatch())
			if width < 500 {
				b.Do("emulate a phone", chromedp.EmulateViewport(int64(width), 844))
			}
			b.Do("the lesson", chromedp.Navigate(app.Srv.URL+"/learn/collections"), chromedp.WaitVisible(chromedp.CSS("#coll-form")))
			b.Health()
			b.Do("write John again whole", chromedp.Click(chromedp.CSS("#coll-change-whole")),
				chromedp.Click(chromedp.CSS("#coll-submit")), chromedp.WaitVisible(chromedp.CSS("#coll-frozen")))
			got := b.Text("#result")
			for _, want := range []string{"and deleted address['state']", "and deleted address.state", "The change wrote 3 subcolumns."} {
				if !strings.Contains(got, want) {
					t.Errorf("the result lacks %q", want)
				}
			}
			b.Health()
			b.Shot(fmt.Sprintf("collections-%d", width))
		})
	}
}
