package pages

import (
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
	b := newTab(t, 1280, 900, 60*time.Second)
	b.do("open", chromedp.Navigate(app.srv.URL+"/models"), chromedp.Click(chromedp.CSS("#link-lab")), chromedp.WaitVisible(chromedp.CSS("#lab-form")))
	b.do("slice", chromedp.SetValue(chromedp.CSS("#lab-names"), "3, 123, 976, 832416"),
		chromedp.SetValue(chromedp.CSS("#lab-start"), "1000"), chromedp.SetValue(chromedp.CSS("#lab-count"), "3"),
		chromedp.Click(chromedp.CSS("#lab-reversed")), chromedp.Click(chromedp.CSS("#lab-submit")),
		chromedp.WaitVisible(chromedp.Search(`//p[@id="lab-slice" and starts-with(., "Returned 3")]`)))
	// The table's first data row: BytesType, AsciiType and UTF8Type's "123" beside LongType's 3,
	// and nothing under the UUID types.
	first, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("#lab-order tr")[1].cells].map(c => c.innerText.split("\n")[0]).join("|")`))
	if err != nil || first != `"123"|"123"|"123"|3||` {
		t.Errorf("the order table's first row: %q, %v", first, err)
	}
	if got := b.text("#lab-slice"); got != "Returned 3: 976, 123, 3" {
		t.Errorf("reversed LongType slice from 1000: %q", got)
	}
	b.shot("lab")

	b.do("lww", chromedp.SetValue(chromedp.CSS("#lww-t1"), "200"), chromedp.SetValue(chromedp.CSS("#lww-t2"), "100"),
		chromedp.Click(chromedp.CSS("#lww-submit")), chromedp.WaitVisible(chromedp.Search(`//p[@id="lww-verdict" and contains(., "first")]`)))
	if v := b.text("#lww-verdict"); !strings.Contains(v, `Both replicas read "first"`) {
		t.Errorf("verdict: %q", v)
	}
	b.do("delete", chromedp.Click(chromedp.CSS("#lww-del")), chromedp.Click(chromedp.CSS("#lww-submit")),
		chromedp.WaitVisible(chromedp.Search(`//p[@id="lww-verdict" and contains(., "read nothing")]`)))
	if v := b.text("#lww-results"); !strings.Contains(v, "tombstone") || !strings.Contains(v, "NotFoundException") {
		t.Errorf("after the delete: %q", v)
	}
	b.shot("lab-lww")
}
