package models_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// TestBrowserInspectorCQL shows the storage inspector on the cql3 backend in headless Chromium:
// a timeline partition as CQL rows and as its wide row, saved to
// artifacts/screenshots/inspector-cql3.png.
func TestBrowserInspectorCQL(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	app := teachkit.NewApp(t, st)
	for _, name := range []string{"jericevans", "rita"} {
		if _, err := app.Social.SignUp(webkit.BG(), name, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := app.Social.Follow(webkit.BG(), "jericevans", "rita"); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if _, err := app.Social.Post(webkit.BG(), "rita", fmt.Sprintf("rita's tweet %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	shots := webkit.ScreenshotDir(t)

	ctx := webkit.Browser(t, 1400, 900, 60*time.Second)

	// Pick the table and type the username in the form, as a reader would.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.Srv.URL+"/models/inspect"),
		chromedp.WaitVisible(chromedp.CSS("#inspect-form")),
		chromedp.SetValue(chromedp.CSS("input[name=user]"), "jericevans"),
		chromedp.Click(chromedp.CSS("#inspect-submit")),
		chromedp.WaitVisible(chromedp.CSS("#widerow-notation")),
		chromedp.Click(chromedp.CSS("#storage-ops summary")),
	); err != nil {
		t.Fatalf("inspector: %v", err)
	}
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#widerow-notation").innerText`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(wide, "'jericevans' /* row key */: {") || strings.Count(wide, "/* row marker") != 4 {
		t.Fatalf("wide row:\n%s", wide)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shots, "inspector-cql3.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
