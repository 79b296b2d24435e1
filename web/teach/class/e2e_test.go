package class_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// In Chromium at 1280 and 390 px: the instructor signs in with the token on the page's form,
// reads the roster (a learner's lessons visited and last action), which fits the viewport, and
// resets the class by typing its name. Screenshots: artifacts/screenshots/instructor-*.png.
func TestInstructorPageInChromium(t *testing.T) {
	for _, width := range []int{1280, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			st := webkit.WithClasses(webkit.MemoryStores(), token)
			app := teachkit.NewApp(t, st)
			accounts := makeAccounts(t, app.Client(t), "class1", 2)
			ann := app.Client(t)
			logIn(t, ann, accounts[0])
			slug := frame.Course()[0].Slug
			ann.LessonPage("/learn/" + slug)

			tab := webkit.NewTab(t, width, 900, 60*time.Second)
			base := app.Srv.URL
			tab.Do("sign in as the instructor", webkit.CSPWatch(),
				chromedp.Navigate(base+"/instructor"),
				chromedp.SendKeys(chromedp.CSS("#instructor-token"), token),
				chromedp.Click(chromedp.CSS("#instructor-login-button")),
				chromedp.WaitVisible(chromedp.CSS("#class-pick")))
			tab.Do("show the class",
				chromedp.SendKeys(chromedp.CSS("#class-name"), "class1"),
				chromedp.Click(chromedp.CSS("#class-show")),
				chromedp.WaitVisible(chromedp.CSS("#roster")))
			tab.Health()
			row := tab.Text("#learner-class1_001")
			if !strings.Contains(row, fmt.Sprintf("1 of %d", len(frame.Course()))) || !strings.Contains(row, "lesson "+slug) {
				t.Errorf("ann's row: %q", row)
			}
			tab.Shot(fmt.Sprintf("instructor-roster-%d", width))
			tab.Do("reset the class",
				chromedp.SendKeys(chromedp.CSS("#reset-confirm"), "class1"),
				chromedp.Click(chromedp.CSS("#reset-button")))
			tab.WaitFor(`(document.querySelector(".flash") || {}).innerText?.includes("Class class1 reset") === true`)
			tab.Health()
			if row := tab.Text("#learner-class1_001"); !strings.Contains(row, "0 of") || !strings.Contains(row, "none yet") {
				t.Errorf("ann's row after the reset: %q", row)
			}
			tab.Shot(fmt.Sprintf("instructor-reset-%d", width))
		})
	}
}
