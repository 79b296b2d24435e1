package models_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/models"
)

// At 390 px (a phone) the models page cuts off no column of the mapping table: every cell lies
// inside the viewport, and nothing scrolls sideways. Screenshot: artifacts/screenshots/models-390.png.
func TestModelsAt390px(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	ctx := webkit.Browser(t, 390, 844, 60*time.Second)
	// A window cannot be narrower than 500 px in headless Chromium: emulate the phone's viewport.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(app.Srv.URL+"/models"), chromedp.WaitVisible(chromedp.CSS("table.mapping"))); err != nil {
		t.Fatal(err)
	}
	// The cells outside the viewport, and how far the page scrolls sideways.
	type layout struct {
		Cells, Outside, Labelled int
		Viewport, PageWidth      float64
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[layout](`(() => {
		const vw = document.documentElement.clientWidth;
		const cells = [...document.querySelectorAll("table.mapping td")];
		const outside = cells.filter(td => { const r = td.getBoundingClientRect(); return r.left < -0.5 || r.right > vw + 0.5; });
		const labelled = cells.filter(td => getComputedStyle(td, "::before").content.includes(td.dataset.label || "\u0000"));
		return {Cells: cells.length, Outside: outside.length, Labelled: labelled.length, Viewport: vw,
			PageWidth: document.documentElement.scrollWidth};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Viewport != 390 || got.Cells < 6*len(models.Mappings) || got.Outside != 0 || got.Labelled != got.Cells || got.PageWidth > got.Viewport {
		t.Fatalf("at 390 px: %+v", got)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(webkit.ScreenshotDir(t), "models-390.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
