package pages

import (
	"os"
	"path/filepath"
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
		ctx := browser(t, 1280, 900, 60*time.Second)
		if err := chromedp.Do(ctx, chromedp.Navigate(app.srv.URL+"/models"), chromedp.Click(chromedp.CSS("#link-partitions")),
			chromedp.WaitVisible(chromedp.CSS("#widest-rows"))); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("main").innerText`))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, w := range tc.wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the page lacks %q:\n%s", tc.name, w, got)
			}
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(screenshotDir(t), "partitions-"+tc.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
