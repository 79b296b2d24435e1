package teach

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserModelsAndInspector shows the models page and the storage inspector in headless
// Chromium, on widerow: carol's home timeline row as the seeds write rows, with the footer's
// operations open. Screenshots models.png and inspector.png.
func TestBrowserModelsAndInspector(t *testing.T) {
	app := newApp(t, widerowStores(t))
	for _, name := range []string{"bob", "carol"} {
		if _, err := app.social.SignUp(bg(), name, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := app.social.Follow(bg(), "carol", "bob"); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if _, err := app.social.Post(bg(), "bob", fmt.Sprintf("bob tweet %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	base := app.srv.URL
	b := newTab(t, 1280, 900, 60*time.Second)
	b.do("models", chromedp.Navigate(base+"/models"), chromedp.WaitVisible(chromedp.CSS("#schema-cql")))
	b.shot("models")
	b.do("inspector", chromedp.Navigate(base+"/models/inspect?cf_path=Twissandra.Timeline&user=carol&reversed=1&count=5"),
		chromedp.WaitVisible(chromedp.CSS("#row-notation")), chromedp.Click(chromedp.CSS("#storage-ops summary")))
	if row := b.text("#row-notation"); !strings.Contains(row, "Timeline = {") || !strings.Contains(row, "UTC */") {
		t.Fatalf("inspector row:\n%s", row)
	}
	b.shot("inspector")
}
