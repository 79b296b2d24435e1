package pages

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"twissandra/internal/testkit/webkit"
)

// In Chromium, at 1280 and 390 px: the first Tab of a page reaches the "Skip to content" link,
// which then shows inside the window (it is out of sight until then), and following it takes
// the next Tab into the page's content, past the header's links (/login: its first field).
func TestBrowserSkipLink(t *testing.T) {
	app := newApp(t, webkit.MemoryStores())
	shots := webkit.ScreenshotDir(t)
	for _, width := range []int{1280, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			ctx := webkit.Browser(t, width, 800, 60*time.Second)
			eval := func(js string) string {
				t.Helper()
				v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			// A window cannot be narrower than 500 px in headless Chromium: emulate the viewport.
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), 800), chromedp.Navigate(app.Srv.URL+"/login"), chromedp.WaitVisible(chromedp.CSS("#login-username"))); err != nil {
				t.Fatal(err)
			}
			if b := eval(`String(document.querySelector('.skip-link').getBoundingClientRect().bottom)`); b != "0" && !strings.HasPrefix(b, "-") {
				t.Errorf("the skip link shows before it has the focus (its bottom at %s px)", b)
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
				t.Fatal(err)
			}
			focused := eval(`document.activeElement.className + ' ' + document.activeElement.getAttribute('href') + ' ' +
				(r => r.top >= 0 && r.bottom <= innerHeight && r.width > 0)(document.activeElement.getBoundingClientRect())`)
			if focused != "skip-link #content true" {
				t.Errorf("the first Tab reached %q (class, href, shown)", focused)
			}
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(shots, fmt.Sprintf("skip-link-%d.png", width)), png, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent(kb.Tab)); err != nil {
				t.Fatal(err)
			}
			if got := eval(`location.hash + ' ' + document.activeElement.id`); got != "#content login-username" {
				t.Errorf("after the skip link, the hash and the next Tab's element: %q", got)
			}
		})
	}
}
