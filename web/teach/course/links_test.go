package course_test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

var hrefPattern = regexp.MustCompile(`\shref="([^"]*)"`)

// Every internal link of every course page (the start page, each lesson, the glossary, the
// timeline and the departures page) answers below 400 to a GET, anonymously and signed in, on
// the memory and widerow backends; and a lesson's sign-in link comes back to the lesson.
func TestCourseLinks(t *testing.T) {
	t.Parallel()
	for name, st := range map[string]func(t *testing.T) webkit.Stores{
		"memory":  func(*testing.T) webkit.Stores { return webkit.MemoryStores() },
		"widerow": func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			app := teachkit.NewApp(t, st(t))
			signedIn := app.Client(t)
			signedIn.SignUp("learner")
			// A tweet, and the blog, so that the pages link to what they show.
			signedIn.Submit("/learn/twissandra/post", url.Values{"body": {"a tweet to link to"}}, "/learn/twissandra")
			signedIn.Submit("/learn/blog/load", nil, "/learn/blog")
			pages := []string{"/learn", "/learn/glossary", "/learn/timeline", "/learn/departures"}
			for _, l := range frame.Course() {
				pages = append(pages, "/learn/"+l.Slug)
			}
			for who, c := range map[string]*webkit.Client{"anonymous": app.Client(t), "signed in": signedIn} {
				crawlCourse(t, c, who, pages)
			}
		})
	}
}

// crawlCourse gets each page, then each same-origin link the pages hold, once.
func crawlCourse(t *testing.T, c *webkit.Client, who string, pages []string) {
	t.Helper()
	lessons := map[string]bool{}
	for _, l := range frame.Course() {
		lessons["/learn/"+l.Slug] = true
	}
	linkedFrom := map[string]string{}
	var links []string
	for _, p := range pages {
		r := c.Get(p)
		if r.Status != http.StatusOK {
			t.Errorf("%s: GET %s: %d", who, p, r.Status)
			continue
		}
		if _, content, _ := strings.Cut(r.Body, "<main"); lessons[p] {
			for _, m := range hrefPattern.FindAllStringSubmatch(content, -1) {
				u, err := url.Parse(html.UnescapeString(m[1]))
				if err == nil && u.Path == "/login" && u.Query().Get("next") != p {
					t.Errorf("%s: %s links to %q: a sign-in that does not come back to the lesson", who, p, m[1])
				}
			}
		}
		for _, m := range hrefPattern.FindAllStringSubmatch(r.Body, -1) {
			href := html.UnescapeString(m[1])
			u, err := url.Parse(href)
			if err != nil {
				t.Errorf("%s: %s links to %q: %v", who, p, href, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" || u.Opaque != "" {
				continue // another site's
			}
			if u.Path == "" && u.RawQuery == "" {
				continue // an anchor of the page itself
			}
			u.Fragment = ""
			base, _ := url.Parse(p)
			target := base.ResolveReference(u).String()
			if _, seen := linkedFrom[target]; !seen {
				linkedFrom[target] = p
				links = append(links, target)
			}
		}
	}
	if len(links) < 30 {
		t.Errorf("%s: only %d links on %d pages", who, len(links), len(pages))
	}
	for _, l := range links {
		if r := c.Get(l); r.Status >= 400 {
			t.Errorf("%s: %s links to %s, which answers %d", who, linkedFrom[l], l, r.Status)
		}
	}
}

// The course ends at its last lesson, and only there: that page recaps every lesson (its title
// and its sentence, from the course's list) and says where to go next; no other lesson says the
// course ends.
func TestCourseEnd(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	ls := frame.Course()
	for i, l := range ls {
		body := c.LessonPage("/learn/" + l.Slug)
		if i+1 < len(ls) {
			webkit.MustNotContain(t, body, `id="course-end"`, "That is the course", "the end of the course")
			continue
		}
		_, end, ok := strings.Cut(body, `id="course-end"`)
		if !ok {
			t.Fatalf("the last lesson, %s, has no end of the course:\n%s", l.Slug, body)
		}
		for _, r := range ls {
			webkit.MustContain(t, end, fmt.Sprintf(`href="/learn/%s">%s</a>`, r.Slug, r.Title), r.Summary)
		}
		webkit.MustContain(t, end, `id="course-next"`, `href="/learn/glossary"`, `href="/models"`)
	}
}
