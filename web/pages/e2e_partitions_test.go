package pages

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// In Chromium, the partition lessons on both models with live figures: widerow's one hot
// !PUBLIC! row, and cql3's day buckets on a real node; screenshots partitions-widerow.png and
// partitions-cql3.png.
func TestBrowserPartitions(t *testing.T) {
	cql, _ := cql3Stores(t)
	for _, tc := range []struct {
		name  string
		st    stores
		wants []string
	}{
		{"widerow", widerowStores(t), []string{"the public line is one row, Twissandra.Userline[!PUBLIC!], holding 9 columns", "a hot and unbounded partition", "(@star)"}},
		{"cql3", cql, []string{"one partition of public_line per day", "9 posts in the last 1 day", time.Now().UTC().Format(time.DateOnly) + "\t9"}},
	} {
		app := newApp(t, tc.st)
		postMany(t, app, "star", 2, 9)
		b := newTab(t, 1280, 900, 60*time.Second)
		b.do(tc.name, chromedp.Navigate(app.srv.URL+"/models"), chromedp.Click(chromedp.CSS("#link-partitions")),
			chromedp.WaitVisible(chromedp.CSS("#widest-rows")))
		got := b.text("main")
		for _, w := range tc.wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the page lacks %q:\n%s", tc.name, w, got)
			}
		}
		b.shot("partitions-" + tc.name)
	}
}
