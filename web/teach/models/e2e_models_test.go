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

// TestBrowserModelsAndInspector shows the models page and the storage inspector in headless
// Chromium, on widerow: carol's home timeline row as the seeds write rows, with the footer's
// operations open. Screenshots models.png and inspector.png.
func TestBrowserModelsAndInspector(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	for _, name := range []string{"bob", "carol"} {
		if _, err := app.Social.SignUp(webkit.BG(), name, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := app.Social.Follow(webkit.BG(), "carol", "bob"); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if _, err := app.Social.Post(webkit.BG(), "bob", fmt.Sprintf("bob tweet %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	base := app.Srv.URL
	b := webkit.NewTab(t, 1280, 900, 60*time.Second)
	b.Do("models", chromedp.Navigate(base+"/models"), chromedp.WaitVisible(chromedp.CSS("#schema-cql")))
	b.Shot("models")
	b.Do("inspector", chromedp.Navigate(base+"/models/inspect?cf_path=Twissandra.Timeline&user=carol&reversed=1&count=5"),
		chromedp.WaitVisible(chromedp.CSS("#row-notation")), chromedp.Click(chromedp.CSS("#storage-ops summary")))
	if row := b.Text("#row-notation"); !strings.Contains(row, "Timeline = {") || !strings.Contains(row, "UTC */") {
		t.Fatalf("inspector row:\n%s", row)
	}
	b.Shot("inspector")
}
