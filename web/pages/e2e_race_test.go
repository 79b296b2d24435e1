package pages

import (
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// In Chromium on the cql3 backend (a real node): 48 concurrent sign-ups of one name. By
// read-then-write more than one is welcomed (every racer's read goes to the node and back
// before any write lands); with INSERT ... IF NOT EXISTS exactly one. Screenshot race.png.
func TestBrowserUniquenessRace(t *testing.T) {
	st, _ := cql3Stores(t)
	app := newApp(t, st)
	b := newTab(t, 1280, 900, 90*time.Second)
	count := func(sel string) int {
		t.Helper()
		n, err := strconv.Atoi(b.text(sel))
		if err != nil {
			t.Fatalf("%s reads %q", sel, b.text(sel))
		}
		return n
	}
	b.do("race", chromedp.Navigate(app.srv.URL+"/models"), chromedp.Click(chromedp.CSS("#link-race")),
		chromedp.WaitVisible(chromedp.CSS("#race-form")),
		chromedp.SetValue(chromedp.CSS("#race-racers"), "48"),
		chromedp.Click(chromedp.CSS("#race-submit")),
		chromedp.WaitVisible(chromedp.CSS("#race-result")))
	if n := count("#lwt-winners"); n != 1 {
		t.Errorf("with the LWT %d winners, want 1", n)
	}
	if n := count("#rtw-winners"); n < 2 {
		t.Errorf("read-then-write on a real node welcomed %d of 48; the race was not observed", n)
	}
	b.shot("race")
}
