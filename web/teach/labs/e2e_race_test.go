package labs_test

import (
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium, from the Models page: 48 concurrent sign-ups of one name. On widerow each racer
// has a sign-up's window between its read and its write (the form's default), and most are
// welcomed; on cql3 (a real node, with TWISSANDRA_CQL_HOSTS) nothing runs there, and
// read-then-write still welcomes more than one, because every racer's read goes to the node and
// back before any write lands. With the lightweight transaction exactly one wins on both. The
// form's redirect brings the learner back to the page's result. Screenshots race.png and
// race_cql3.png.
func TestBrowserUniquenessRace(t *testing.T) {
	backends := []struct {
		name, shot string
		stores     func(t *testing.T) webkit.Stores
		bare       bool // untick the hash: nothing between read and write
	}{
		{"widerow", "race", func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) }, false},
	}
	if os.Getenv("TWISSANDRA_CQL_HOSTS") != "" {
		backends = append(backends, struct {
			name, shot string
			stores     func(t *testing.T) webkit.Stores
			bare       bool
		}{"cql3", "race_cql3", func(t *testing.T) webkit.Stores { st, _ := webkit.CQL3Stores(t); return st }, true})
	}
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			app := teachkit.NewApp(t, be.stores(t))
			b := webkit.NewTab(t, 1280, 900, 90*time.Second)
			count := func(sel string) int {
				t.Helper()
				n, err := strconv.Atoi(b.Text(sel))
				if err != nil {
					t.Fatalf("%s reads %q", sel, b.Text(sel))
				}
				return n
			}
			b.Do("open the race", chromedp.Navigate(app.Srv.URL+"/models"), chromedp.Click(chromedp.CSS("#link-race")),
				chromedp.WaitVisible(chromedp.CSS("#race-form")),
				chromedp.SetValue(chromedp.CSS("#race-name"), "rita"),
				chromedp.SetValue(chromedp.CSS("#race-racers"), "48"))
			if be.bare {
				b.Do("untick the hash", chromedp.Click(chromedp.CSS("#race-hash")))
			}
			b.Do("race", chromedp.Click(chromedp.CSS("#race-submit")), chromedp.WaitVisible(chromedp.CSS("#race-result")))
			for _, sel := range []string{"#race-rtw", "#race-lwt"} {
				if got := b.Text(sel); !regexp.MustCompile(`The store names racer \d+`).MatchString(got) {
					t.Errorf("%s names no racer: %q", sel, got)
				}
			}
			if n := count("#lwt-winners"); n != 1 {
				t.Errorf("with the LWT %d winners, want 1", n)
			}
			rtw := count("#rtw-winners")
			switch {
			case rtw < 1 || rtw > 48:
				t.Errorf("read-then-write welcomed %d of 48", rtw)
			case rtw > 1:
				if lost := "the other " + strconv.Itoa(rtw-1) + " account"; !regexp.MustCompile(regexp.QuoteMeta(lost)).MatchString(b.Text("#race-rtw")) {
					t.Errorf("%d welcomed, but the page does not say %q: %q", rtw, lost, b.Text("#race-rtw"))
				}
			}
			if !be.bare && rtw <= 24 {
				t.Errorf("with a sign-up's window read-then-write welcomed %d of 48, not most", rtw)
			}
			if be.bare && rtw < 2 {
				t.Errorf("read-then-write on a real node welcomed %d of 48; the race was not observed", rtw)
			}
			if want := "running " + be.name + " store"; !regexp.MustCompile(want).MatchString(b.Text(".lead")) {
				t.Errorf("the page does not name the backend: %q", b.Text(".lead"))
			}
			b.Shot(be.shot)
		})
	}
}
