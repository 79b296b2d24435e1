package course_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium, at 1280 and at 390 px, on widerow: a learner signs up, then walks lessons 1 to 7
// by their rel="next" links and does each one's live part: writes a column and a super column,
// stores the seeds' names (the comparators' table stays side by side at 390 px) and the UUIDs,
// slices, writes with chosen timestamps, plays the replicas past gc_grace, posts a tweet and
// sees where it went, loads the blog, pages a tag between two dates, and races sign-ups. Every
// page answers 200 with no CSP violation and nothing wider than the window. Screenshots
// lessons-a-<slug>-<width>.png.
func TestBrowserLessonsOneToSeven(t *testing.T) {
	for _, width := range []int{390, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			app := teachkit.NewApp(t, webkit.WiderowStores(t))
			b := webkit.NewTab(t, max(width, 500), 900, 120*time.Second)
			b.Do("watch CSP", webkit.CSPWatch())
			if width < 500 {
				// A window cannot be narrower than 500 px in headless Chromium: emulate a phone.
				b.Do("emulate a phone", chromedp.EmulateViewport(int64(width), 844))
			}
			shot := func(slug string) { b.Shot(fmt.Sprintf("lessons-a-%s-%d", slug, width)) }
			next := func(slug string) {
				t.Helper()
				b.Do("next to "+slug, chromedp.Click(chromedp.CSS(`a[rel="next"]#lesson-next`)), chromedp.WaitVisible(chromedp.CSS("#lesson-"+slug)))
				b.Health()
			}
			b.Do("sign up", chromedp.Navigate(app.Srv.URL+"/login"), chromedp.WaitVisible(chromedp.CSS("#signup-form")),
				chromedp.SendKeys(chromedp.CSS("#signup-username"), "learner"),
				chromedp.SendKeys(chromedp.CSS("#signup-password"), "password1"),
				chromedp.SendKeys(chromedp.CSS("#signup-password2"), "password1"),
				chromedp.Click(chromedp.CSS("#signup-submit")), chromedp.WaitVisible(chromedp.CSS(".me")))

			// 1. The pieces.
			b.Do("lesson 1", chromedp.Navigate(app.Srv.URL+"/learn/primer"), chromedp.WaitVisible(chromedp.CSS("#primer-form")))
			b.Health()
			b.Do("a column", chromedp.Click(chromedp.CSS("#primer-submit")), chromedp.WaitVisible(chromedp.CSS("#primer-triple")))
			if got := b.Text("#primer-triple"); !strings.Contains(got, `name: "emailAddress"`) || !strings.Contains(got, "timestamp: 1") {
				t.Errorf("the column's triple: %q", got)
			}
			b.Do("a super column", chromedp.Click(chromedp.CSS("#primer-super-submit")),
				chromedp.WaitVisible(chromedp.Search(`//section[@id="primer-row-super"]//span[contains(., "John")]`)))
			if got := b.Text("#primer-row-super"); !strings.Contains(got, `"John": {`) || !strings.Contains(got, `"street": "Howard street"`) {
				t.Errorf("the AddressBook row: %q", got)
			}
			b.Health()
			shot("primer")

			// 2. Comparators and slices: the table keeps its six columns side by side, inside its
			// .table-wrap, which fits the viewport (at 390 px the table scrolls sideways in it).
			next("slices")
			b.Do("the seeds' names", chromedp.Click(chromedp.CSS("#lab-submit")), chromedp.WaitVisible(chromedp.CSS("#lab-order")))
			type side struct {
				Cells, SameTop, Increasing, Outside int
				Order                               string
			}
			got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[side](`(() => {
				const vw = document.documentElement.clientWidth;
				const row = document.querySelectorAll("#lab-order tr")[1];
				const cells = [...row.cells].map(c => c.getBoundingClientRect());
				const all = [document.querySelector("#lab-order").closest(".table-wrap").getBoundingClientRect()];
				return {Cells: cells.length,
					SameTop: cells.filter(r => Math.abs(r.top - cells[0].top) < 1).length,
					Increasing: cells.filter((r, i) => i === 0 || r.left > cells[i-1].left).length,
					Outside: all.filter(r => r.left < -0.5 || r.right > vw + 0.5).length,
					Order: [...document.querySelectorAll("#lab-order tr")].slice(1).map(r => r.cells[3].querySelector("code")).filter(c => c).map(c => c.innerText).join(" ")};
			})()`))
			if err != nil || got.Cells != 6 || got.SameTop != 6 || got.Increasing != 6 || got.Outside != 0 || got.Order != "3 123 976 832416" {
				t.Errorf("the comparators' table at %d px: %+v, %v", width, got, err)
			}
			b.Health()
			b.Do("the UUIDs", chromedp.Click(chromedp.CSS("#lab-uuids")),
				chromedp.WaitVisible(chromedp.Search(`//p[@id="lab-lexical" and contains(., "is first under LexicalUUIDType")]`)))
			if got := b.Text("#lab-lexical"); !strings.Contains(got, "80000000-0000-1000-8000-000000000000 is first under LexicalUUIDType") {
				t.Errorf("the LexicalUUIDType note: %q", got)
			}
			b.Do("slice", chromedp.SetValue(chromedp.CSS("#lab-cmp"), "LongType"), chromedp.SetValue(chromedp.CSS("#lab-start"), "900"),
				chromedp.SetValue(chromedp.CSS("#lab-count"), "2"), chromedp.Click(chromedp.CSS("#slice-submit")), chromedp.WaitVisible(chromedp.CSS("#lab-slice")))
			if got := b.Text("#lab-slice"); got != "Returned 2: 976, 832416" {
				t.Errorf("the slice: %q", got)
			}
			b.Health()
			shot("slices")

			// 3. Time: last write wins, then the replicas past gc_grace.
			next("time")
			b.Do("writes and a delete", chromedp.Click(chromedp.CSS("#lww-del")), chromedp.Click(chromedp.CSS("#lww-submit")), chromedp.WaitVisible(chromedp.CSS("#lww-diagram")))
			if got := b.Text("#lww-verdict"); !strings.HasPrefix(got, "Both replicas read nothing") {
				t.Errorf("the verdict: %q", got)
			}
			b.Do("the replicas, late", chromedp.Click(chromedp.CSS("#replicas-late")), chromedp.WaitVisible(chromedp.CSS("#replicas-verdict")))
			if got := b.Text("#replicas-verdict"); !strings.HasPrefix(got, "The deleted column is back") {
				t.Errorf("the replicas' verdict: %q", got)
			}
			b.Health()
			shot("time")

			// 4. A tweet and where it went.
			next("twissandra")
			b.Do("post", chromedp.SendKeys(chromedp.CSS("#twissandra-body"), "where does this live?"), chromedp.Click(chromedp.CSS("#twissandra-submit")),
				chromedp.WaitVisible(chromedp.CSS("#places-user-widerow")))
			if got := b.Text("#where"); !strings.Contains(got, "Your tweet") || !strings.Contains(got, "Twissandra.Username") || !strings.Contains(got, "the public line") {
				t.Errorf("where the tweet lives: %q", got)
			}
			b.Health()
			shot("twissandra")

			// 5. The blog.
			next("blog")
			b.Do("load the blog", chromedp.Click(chromedp.CSS("#blog-load")), chromedp.WaitVisible(chromedp.CSS("#places-comments-widerow")))
			if got := b.Text("#places-comments-widerow"); !strings.Contains(got, "BloggyAppy.Comments") {
				t.Errorf("the comments' places: %q", got)
			}
			b.Health()
			shot("blog")

			// 6. TimeUUIDs.
			next("timeuuid")
			b.Do("slice between two dates", chromedp.Click(chromedp.CSS("#paging-submit")))
			b.WaitFor(`location.search.includes("from=") && document.readyState === "complete" && !!document.querySelector("#paging-entries")`)
			if got := b.Text("#paging-entries"); !strings.Contains(got, "Scream is the best movie ever") {
				t.Errorf("the entries between two dates: %q", got)
			}
			b.Health()
			shot("timeuuid")

			// 7. The race.
			next("unique")
			b.Do("race", chromedp.SetValue(chromedp.CSS("#race-racers"), "16"), chromedp.Click(chromedp.CSS("#race-submit")), chromedp.WaitVisible(chromedp.CSS("#race-result")))
			if got := b.Text("#lwt-winners"); got != "1" {
				t.Errorf("LWT winners: %q", got)
			}
			b.Health()
			shot("unique")
		})
	}
}
