package course_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// At 390 px (a phone) the celebrity page's plot and the generations page's diagrams fit the
// viewport: nothing scrolls sideways, and no picture reaches past the right edge (the plot is
// 940 px wide, the Chebotko diagram over 700), save a diagram at its natural size inside its
// .diagram-wrap, which fits the viewport and scrolls sideways itself (TestFiguresReadableAt390px
// reads its text). The celebrity lesson keeps its figures in a closed <details>, which the address's
// fragment opens. Screenshots: artifacts/screenshots/fit-*-390.png.
func TestPicturesFitAt390px(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	b := webkit.NewTab(t, 390, 844, 60*time.Second)
	type fit struct {
		Viewport, PageWidth float64
		Pictures, Outside   int
	}
	for _, tc := range []struct{ name, path, pictures string }{
		{"celebrity", "/models/celebrity", "#celebrity-plot"},
		{"celebrity lesson", "/learn/celebrity#cl-sim-plot", "#cl-sim-plot"},
		{"generations", "/models/generations", "#chebotko-diagram, #workflow-diagram"},
	} {
		b.Do(tc.name, chromedp.EmulateViewport(390, 844), chromedp.Navigate(app.Srv.URL+tc.path), chromedp.WaitVisible(chromedp.CSS(tc.pictures)))
		got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[fit](`(() => {
			const vw = document.documentElement.clientWidth;
			const pics = [...document.querySelectorAll(`+"`"+tc.pictures+"`"+`)];
			return {Viewport: vw, PageWidth: document.documentElement.scrollWidth, Pictures: pics.length,
				Outside: pics.map(p => p.closest(".diagram-wrap") || p)
					.filter(p => p.getBoundingClientRect().right > vw + 0.5 || p.getBoundingClientRect().width < 100).length};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if got.Viewport != 390 || got.PageWidth > got.Viewport || got.Pictures == 0 || got.Outside != 0 {
			t.Errorf("%s at 390 px: %+v", tc.path, got)
		}
		b.Shot("fit-" + tc.name + "-390")
	}
}
