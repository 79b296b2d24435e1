package course_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// In Chromium, the course walked from its start page to its last lesson by the rel="next"
// links: on widerow and in compare mode (widerow with cql3 on the real node), each at 1280 and
// at 390 px. Every lesson is the one the course lists, numbered "Lesson N of M", with its
// rel="prev" and rel="next" links; its footer says what it cost the store; nothing scrolls
// sideways; and the console reports no error and no CSP violation.
// Screenshots: artifacts/screenshots/course-*.
func TestCourseWalk(t *testing.T) {
	for _, run := range []struct {
		backend string
		width   int
	}{{"widerow", 1280}, {"widerow", 390}, {"compare", 1280}, {"compare", 390}} {
		t.Run(fmt.Sprintf("%s/%d", run.backend, run.width), func(t *testing.T) {
			var st webkit.Stores
			if run.backend == "compare" {
				st = webkit.CompareStores(t)
			} else {
				st = webkit.WiderowStores(t)
			}
			walkCourse(t, teachkit.NewApp(t, st), run.backend, run.width)
		})
	}
}

func walkCourse(t *testing.T, app *webkit.App, backend string, width int) {
	b := webkit.NewTab(t, width, 900, 4*time.Minute)
	console := b.WatchConsole()
	b.Do("the course's start page", chromedp.EmulateViewport(int64(width), 900),
		chromedp.Navigate(app.Srv.URL+"/learn"), chromedp.WaitVisible(chromedp.CSS("#course")))
	lessons := frame.Course()
	for i, l := range lessons {
		if l.N != i+1 {
			t.Fatalf("lesson %s is numbered %d in place %d: the course is numbered 1 to %d", l.Slug, l.N, i+1, len(lessons))
		}
	}
	next := "#start"
	for i, l := range lessons {
		b.Do(fmt.Sprintf("lesson %d (%s) by rel=next from the one before", l.N, l.Slug),
			chromedp.Click(chromedp.CSS(next)), chromedp.WaitVisible(chromedp.CSS("#lesson-"+l.Slug)))
		b.WaitFor(`document.readyState === "complete"`) // its width is read with its stylesheets
		type page struct {
			Title, Ops, Number string
			Width, PageWidth   float64
			Prev, Next         string
		}
		got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[page](`(() => ({
			Title: document.querySelector("article.lesson h1").innerText,
			Ops: (document.querySelector("#storage-ops summary")||{}).innerText||"",
			Number: document.querySelector(".lesson-number").innerText,
			Width: document.documentElement.clientWidth,
			PageWidth: document.documentElement.scrollWidth,
			Prev: (document.querySelector('a[rel="prev"]')||{getAttribute: () => ""}).getAttribute("href")||"",
			Next: (document.querySelector('a[rel="next"]')||{getAttribute: () => ""}).getAttribute("href")||"",
		}))()`))
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != l.Title || !strings.HasPrefix(got.Number, fmt.Sprintf("Lesson %d of %d", l.N, len(lessons))) {
			t.Errorf("lesson %d: title %q, %q; want %q, lesson %d of %d", l.N, got.Title, got.Number, l.Title, l.N, len(lessons))
		}
		if !strings.HasPrefix(got.Ops, "What this page cost: ") || !strings.Contains(got.Ops, "(backend: widerow)") {
			t.Errorf("lesson %d (%s) does not say what it cost the store: %q", l.N, l.Slug, got.Ops)
		}
		if got.PageWidth > got.Width+0.5 {
			t.Errorf("lesson %d (%s) at %d px scrolls sideways: %v > %v", l.N, l.Slug, width, got.PageWidth, got.Width)
		}
		if i > 0 && got.Prev != "/learn/"+lessons[i-1].Slug {
			t.Errorf("lesson %d: rel=prev %q", l.N, got.Prev)
		}
		if want := ""; i+1 < len(lessons) {
			if want = "/learn/" + lessons[i+1].Slug; got.Next != want {
				t.Errorf("lesson %d: rel=next %q, want %q", l.N, got.Next, want)
			}
		} else if got.Next != "" {
			t.Errorf("the last lesson links on to %q", got.Next)
		}
		img, err := chromedp.Run(b.Ctx, chromedp.FullScreenshot(80))
		if err != nil {
			t.Fatal(err)
		}
		saveShot(t, fmt.Sprintf("course-%s-%d-%02d-%s", backend, width, l.N, l.Slug), img)
		next = "#lesson-next"
	}
	if problems := console(); len(problems) > 0 {
		t.Errorf("walking the course on %s at %d px, the console:\n%s", backend, width, strings.Join(problems, "\n"))
	}
}

// saveShot saves a screenshot under artifacts/screenshots, named for what it holds (.png or
// .jpg: Chromium answers a screenshot of quality under 100 as JPEG).
func saveShot(t *testing.T, name string, img []byte) {
	t.Helper()
	ext := ".jpg"
	if bytes.HasPrefix(img, []byte("\x89PNG")) {
		ext = ".png"
	}
	if err := os.WriteFile(filepath.Join(webkit.ScreenshotDir(t), name+ext), img, 0o644); err != nil {
		t.Fatal(err)
	}
}
