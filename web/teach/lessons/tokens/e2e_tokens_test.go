package tokens_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium, at 1280 and 390 px, on widerow: from lesson 13's rel="next", lesson 14 places the
// signed-in learner's name on a ring of 5 nodes; the learner types another key, 8 nodes and a
// ReplicationFactor of 3, and the ring is redrawn with 8 nodes, 3 of them replicas, the key's
// diamond and the arc to its owner; the footer names the token call. Every page answers 200 with
// no CSP violation and nothing wider than the window. Screenshots lesson-tokens-<width>.png.
func TestBrowserTokensLesson(t *testing.T) {
	for _, width := range []int{390, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			app := teachkit.NewApp(t, webkit.WiderowStores(t))
			b := webkit.NewTab(t, max(width, 500), 900, 90*time.Second)
			b.Do("watch CSP", webkit.CSPWatch())
			if width < 500 {
				b.Do("emulate a phone", chromedp.EmulateViewport(int64(width), 844))
			}
			b.Do("sign up", chromedp.Navigate(app.Srv.URL+"/login"), chromedp.WaitVisible(chromedp.CSS("#signup-form")),
				chromedp.SendKeys(chromedp.CSS("#signup-username"), "learner"),
				chromedp.SendKeys(chromedp.CSS("#signup-password"), "password1"),
				chromedp.SendKeys(chromedp.CSS("#signup-password2"), "password1"),
				chromedp.Click(chromedp.CSS("#signup-submit")), chromedp.WaitVisible(chromedp.CSS(".me")))
			b.Do("lesson 13", chromedp.Navigate(app.Srv.URL+"/learn/compare"), chromedp.WaitVisible(chromedp.CSS("#lesson-compare")))
			b.Do("on to lesson 14", chromedp.Click(chromedp.CSS(`a[rel="next"]#lesson-next`)), chromedp.WaitVisible(chromedp.CSS("#ring-widerow")))
			b.Health()
			type ring struct {
				Key                    string
				Nodes, Replicas, Diams int
				Arc                    bool
			}
			read := func() ring {
				r, err := chromedp.Run(b.Ctx, chromedp.Evaluate[ring](`(() => ({
					Key: document.querySelector("#ring-key").value,
					Nodes: document.querySelectorAll("#ring-widerow .ring-node").length,
					Replicas: document.querySelectorAll("#ring-widerow .ring-replica").length,
					Diams: document.querySelectorAll("#ring-widerow .ring-key polygon").length,
					Arc: !!document.querySelector("#ring-widerow path.ring-arc"),
				}))()`))
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			if got := read(); got != (ring{Key: "learner", Nodes: 5, Replicas: 1, Diams: 1, Arc: true}) {
				t.Errorf("the first ring: %+v", got)
			}
			b.Do("place another key", chromedp.SetValue(chromedp.CSS("#ring-key"), "ericflo"), chromedp.SetValue(chromedp.CSS("#ring-nodes"), "8"),
				chromedp.SetValue(chromedp.CSS("#ring-rf"), "3"), chromedp.Click(chromedp.CSS("#ring-submit")))
			b.WaitFor(`document.querySelectorAll("#ring-widerow .ring-node").length === 8`)
			b.Health()
			if got := read(); got != (ring{Key: "ericflo", Nodes: 8, Replicas: 3, Diams: 1, Arc: true}) {
				t.Errorf("the ring of 8: %+v", got)
			}
			// The footer is folded: its operations are in the document, not on the screen.
			footer, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`document.querySelector("#storage-ops").textContent`))
			if got := footer; err != nil || !containsAll(got, "token(\"ericflo\")", "no call to a node") {
				t.Errorf("the footer: %q", got)
			}
			b.Shot(fmt.Sprintf("lesson-tokens-%d", width))
		})
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
