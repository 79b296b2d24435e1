package models_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium, the partition lessons on widerow with live figures: reached from the models
// page, the one hot !PUBLIC! row is the widest of the store, and its link opens that row in
// the storage inspector; screenshot partitions.png.
func TestBrowserPartitions(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	teachkit.PostMany(t, app, "star", 2, 9)
	if _, err := app.Social.SignUp(webkit.BG(), "quiet", "password1"); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Social.Post(webkit.BG(), "quiet", "one more"); err != nil {
		t.Fatal(err)
	}
	b := webkit.NewTab(t, 1280, 900, 60*time.Second)
	b.Do("partitions", chromedp.Navigate(app.Srv.URL+"/models"), chromedp.Click(chromedp.CSS("#link-partitions")),
		chromedp.WaitVisible(chromedp.CSS("#widest-rows")))
	got := b.Text("main")
	for _, w := range []string{"the public line is one row, Twissandra.Userline[!PUBLIC!], holding 10 columns",
		"Every post writes one more", "the hot partition", "(@star)"} {
		if !strings.Contains(got, w) {
			t.Errorf("the page lacks %q:\n%s", w, got)
		}
	}
	if first := b.Text("#widest-rows tr:nth-child(2)"); !strings.HasPrefix(first, "Twissandra.Userline\t!PUBLIC! (the public line)\t10\t") {
		t.Errorf("the widest row is %q, want the public line's 10 columns", first)
	}
	b.Shot("partitions")
	b.Do("inspect !PUBLIC!", chromedp.Click(chromedp.CSS("#widest-rows tr:nth-child(2) a")), chromedp.WaitVisible(chromedp.CSS("#row-notation")))
	if row := b.Text("#row-notation"); !strings.Contains(row, `"!PUBLIC!" /* row key */`) || strings.Count(row, "/* timestamp") != 10 {
		t.Errorf("the inspector on the public line:\n%s", row)
	}
}

// In Chromium on a real node, the cql3 backend's day buckets of the public line with their
// bars; screenshot partitions-cql3.png.
func TestBrowserPartitionsCQL(t *testing.T) {
	st, store := webkit.CQL3Stores(t)
	app := teachkit.NewApp(t, st)
	teachkit.PostMany(t, app, "star", 2, 9)
	b := webkit.NewTab(t, 1280, 900, 60*time.Second)
	b.Do("partitions", chromedp.Navigate(app.Srv.URL+"/models"), chromedp.Click(chromedp.CSS("#link-partitions")),
		chromedp.WaitVisible(chromedp.CSS("#public-days")))
	got := b.Text("main")
	for _, w := range []string{"one partition of public_line per day", "9 posts in the last 1 day",
		time.Now().UTC().Format(time.DateOnly) + "\t9", "a page that reaches back past the start of a day reads the day before"} {
		if !strings.Contains(got, w) {
			t.Errorf("the page lacks %q:\n%s", w, got)
		}
	}
	// The bar is a <meter>: the page's policy allows no inline style to size a bar with.
	bar, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`(m => m.value + "/" + m.max + " " + (m.getBoundingClientRect().width > 50))(document.querySelector("#public-days meter"))`))
	if err != nil || bar != "9/9 true" {
		t.Errorf("the newest day's bar: %q, %v", bar, err)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	if table := b.Text("#widest-rows"); !strings.Contains(table, fmt.Sprintf("%s.public_line\t%s\t9\t", store.Keyspace(), today)) {
		t.Errorf("the widest partitions lack today's public_line bucket of 9 rows:\n%s", table)
	}
	b.Shot("partitions-cql3")
	b.Do("inspect today's bucket", chromedp.Click(chromedp.CSS("#public-days a")), chromedp.WaitVisible(chromedp.CSS("main")))
	if got := b.Text("main"); !strings.Contains(got, "public_line") || strings.Count(got, "post ") < 9 {
		t.Errorf("the inspector on today's bucket:\n%s", got)
	}
}

// In Chromium in compare mode (widerow answering, cql3 on a real node): the one !PUBLIC! row
// and the day bucket side by side, both counting every post; screenshot partitions-compare.png.
func TestBrowserPartitionsCompare(t *testing.T) {
	app := teachkit.NewApp(t, webkit.CompareStores(t))
	teachkit.PostMany(t, app, "star", 2, 5)
	b := webkit.NewTab(t, 1280, 900, 60*time.Second)
	b.Do("partitions", chromedp.Navigate(app.Srv.URL+"/models/partitions"), chromedp.WaitVisible(chromedp.CSS("#public-days-cql3")))
	if got := b.Text("#public-layout"); !strings.Contains(got, "the public line is one row, Twissandra.Userline[!PUBLIC!], holding 5 columns") {
		t.Errorf("widerow's public line:\n%s", got)
	}
	if got := b.Text("#public-days-cql3"); !strings.Contains(got, time.Now().UTC().Format(time.DateOnly)+"\t5") {
		t.Errorf("cql3's day buckets:\n%s", got)
	}
	if got := b.Text("#widest-rows-cql3"); !strings.Contains(got, ".timeline\tstar\t5") {
		t.Errorf("cql3's widest partitions:\n%s", got)
	}
	b.Shot("partitions-compare")
}
