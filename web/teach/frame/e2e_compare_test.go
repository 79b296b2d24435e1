package frame_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium, on widerow with cql3 in compare mode: a sign-up, a follow and a post each show,
// on the page after their redirect, what they cost both models side by side, the post's
// fan-out size included; screenshots in artifacts/screenshots/compare-*.png.
func TestBrowserCompareMode(t *testing.T) {
	app := teachkit.NewApp(t, webkit.CompareStores(t))
	base := app.Srv.URL
	for _, name := range []string{"bob", "fan1", "fan2"} {
		if _, err := app.Social.SignUp(webkit.BG(), name, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	for _, fan := range []string{"fan1", "fan2"} {
		if err := app.Social.Follow(webkit.BG(), fan, "bob"); err != nil {
			t.Fatal(err)
		}
	}
	b := webkit.NewTab(t, 1280, 900, 90*time.Second)
	// both checks that the action's record shows both models, with what each wrote.
	both := func(action string, widerow, cql3 []string) {
		t.Helper()
		b.Do(action, chromedp.WaitVisible(chromedp.Search(`//details[@id="action-ops"]/summary[contains(., "What your `+action+` cost")]`)),
			chromedp.WaitVisible(chromedp.CSS(`#action-ops #secondary-ops`)))
		primary := b.Text(`#action-ops .ops-model[data-model="widerow"]`)
		secondary := b.Text(`#action-ops #secondary-ops`)
		if !strings.Contains(b.Text("#action-ops summary"), "What your "+action+" cost") {
			t.Fatalf("%s: %q", action, b.Text("#action-ops summary"))
		}
		for _, w := range widerow {
			if !strings.Contains(primary, w) {
				t.Errorf("%s: widerow's side lacks %q:\n%s", action, w, primary)
			}
		}
		for _, w := range cql3 {
			if !strings.Contains(secondary, w) {
				t.Errorf("%s: cql3's side lacks %q:\n%s", action, w, secondary)
			}
		}
		if n := b.Text("#divergences"); n != "" {
			t.Errorf("%s: the models disagree: %s", action, n)
		}
	}

	b.Do("sign up", chromedp.Navigate(base+"/login"),
		chromedp.SendKeys(chromedp.CSS("#signup-username"), "ann"),
		chromedp.SendKeys(chromedp.CSS("#signup-password"), "password1"),
		chromedp.SendKeys(chromedp.CSS("#signup-password2"), "password1"),
		chromedp.Click(chromedp.CSS("#signup-submit")))
	both("sign-up", []string{"insert_if_absent", "Twissandra.Username['ann']", "batch_mutate"}, []string{"INSERT INTO", "IF NOT EXISTS"})
	b.Shot("compare-signup")

	b.Do("follow", chromedp.Navigate(base+"/users/bob"), chromedp.Click(chromedp.CSS("#follow")))
	both("follow of bob", []string{"batch_mutate"}, []string{"BATCH"})

	// ann logs out; bob posts from his home page: three timelines and two lines in each model.
	b.Do("log out", chromedp.Click(chromedp.CSS("#logout")),
		chromedp.WaitVisible(chromedp.Search(`//p[contains(@class,"flash") and contains(., "You are signed out")]`)))
	b.Do("log in bob", chromedp.Navigate(base+"/login"),
		chromedp.SendKeys(chromedp.CSS("#login-username"), "bob"),
		chromedp.SendKeys(chromedp.CSS("#login-password"), "password1"),
		chromedp.Click(chromedp.CSS("#login-submit")),
		chromedp.WaitVisible(chromedp.Search(`//p[contains(@class,"flash") and contains(., "Welcome back, bob")]`)))
	b.Do("post", chromedp.SendKeys(chromedp.CSS("#body"), "hello, two models"),
		chromedp.Click(chromedp.CSS("#post-form button[type=submit]")))
	both("post", []string{"fan-out: the tweet went to 6 lines", "Timeline: 4 rows"}, []string{"INSERT INTO"})
	b.Shot("compare-post")

	// Where does the tweet live? In both models at once: 6 places in each (the tweet, the
	// userline, the public line, bob's timeline and his three followers' timelines).
	b.Do("where", chromedp.Click(chromedp.Search(`//li[contains(@class,"tweet") and contains(., "hello, two models")]//a[contains(@class,"where")]`)),
		chromedp.WaitVisible(chromedp.CSS("#where-cql3")))
	wide, cql := b.Text("#where-widerow"), b.Text("#where-cql3")
	for _, want := range []string{"7 of 7 places hold it", "Twissandra.Userline[\"!PUBLIC!\"]", "Twissandra.Tweet[", "follower fan1's timeline"} {
		if !strings.Contains(wide, want) {
			t.Errorf("widerow's places lack %q:\n%s", want, wide)
		}
	}
	for _, want := range []string{"7 of 7 places hold it", "public_line WHERE day = '", "timeline WHERE username = 'ann'", "tweet_id"} {
		if !strings.Contains(cql, want) {
			t.Errorf("cql3's places lack %q:\n%s", want, cql)
		}
	}
	b.Shot("compare-where")
}
