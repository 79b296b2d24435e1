package pages

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// In Chromium: the learner types the seeds' names, sees them under the six comparators side by
// side, slices them reversed under LongType, then writes one column twice and deletes it, and
// sees which write wins in both orders. Screenshots lab.png and lab-lww.png.
func TestBrowserComparatorLab(t *testing.T) {
	app := newApp(t, widerowStores(t))
	shots := screenshotDir(t)
	ctx := browser(t, 1280, 900, 60*time.Second)
	step := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("`+sel+`")||{}).innerText||""`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	shot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	step("open", chromedp.Navigate(app.srv.URL+"/models"), chromedp.Click(chromedp.CSS("#link-lab")), chromedp.WaitVisible(chromedp.CSS("#lab-form")))
	step("slice", chromedp.SetValue(chromedp.CSS("#lab-names"), "3, 123, 976, 832416"),
		chromedp.SetValue(chromedp.CSS("#lab-start"), "1000"), chromedp.SetValue(chromedp.CSS("#lab-count"), "3"),
		chromedp.Click(chromedp.CSS("#lab-reversed")), chromedp.Click(chromedp.CSS("#lab-submit")),
		chromedp.WaitVisible(chromedp.Search(`//p[@id="lab-slice" and starts-with(., "Returned 3")]`)))
	order := text("#lab-order")
	// The table's first data row: BytesType "123", AsciiType "123", UTF8Type "123", LongType 3.
	firstRow := strings.Split(order, "\n")
	if !strings.Contains(order, "LongType") || !strings.Contains(strings.Join(firstRow, " "), `"123"`) {
		t.Errorf("order table:\n%s", order)
	}
	if got := text("#lab-slice"); got != "Returned 3: 976, 123, 3" {
		t.Errorf("reversed LongType slice from 1000: %q", got)
	}
	shot("lab")

	step("lww", chromedp.SetValue(chromedp.CSS("#lww-t1"), "200"), chromedp.SetValue(chromedp.CSS("#lww-t2"), "100"),
		chromedp.Click(chromedp.CSS("#lww-submit")), chromedp.WaitVisible(chromedp.Search(`//p[@id="lww-verdict" and contains(., "first")]`)))
	if v := text("#lww-verdict"); !strings.Contains(v, `Both replicas read "first"`) {
		t.Errorf("verdict: %q", v)
	}
	step("delete", chromedp.Click(chromedp.CSS("#lww-del")), chromedp.Click(chromedp.CSS("#lww-submit")),
		chromedp.WaitVisible(chromedp.Search(`//p[@id="lww-verdict" and contains(., "read nothing")]`)))
	if v := text("#lww-results"); !strings.Contains(v, "tombstone") || !strings.Contains(v, "NotFoundException") {
		t.Errorf("after the delete: %q", v)
	}
	shot("lab-lww")
}
