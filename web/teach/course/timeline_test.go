package course_test

import (
	"html"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/course"
	"twissandra/web/teach/frame"
)

// Every release of the timeline links at least one lesson that shows its change, each a lesson
// of the course whose page answers; the releases are in order, 1.1, 2.1 and 4.0 among them.
func TestTimelineReleasesLinkLessons(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	body := c.Get("/learn/timeline").Body
	var names []string
	for _, v := range course.Versions {
		names = append(names, v.Name)
		lessons := 0
		for _, l := range v.Here {
			if l.Lesson == "" {
				continue
			}
			if !frame.IsLesson(l.Lesson) {
				t.Errorf("%s links %q, no lesson of the course", v.Name, l.Lesson)
				continue
			}
			lessons++
			if r := c.Get(string(l.URL)); r.Status != http.StatusOK {
				t.Errorf("%s links %s: %d", v.Name, l.URL, r.Status)
			}
		}
		if lessons == 0 {
			t.Errorf("%s links no lesson", v.Name)
		}
		_, item, _ := strings.Cut(body, `<li id="`+v.ID+`">`)
		item, _, _ = strings.Cut(item, `</ol>`)
		item, _, _ = strings.Cut(item, `<li id="v`) // the next release's
		item = html.UnescapeString(item)
		for _, l := range v.Here {
			if !strings.Contains(item, `href="`+string(l.URL)+`"`) || !strings.Contains(item, l.Text()) {
				t.Errorf("%s: the page does not link %s as %q", v.Name, l.URL, l.Text())
			}
		}
	}
	for _, want := range []string{"1.1", "2.1", "4.0"} {
		if !slices.Contains(names, want) {
			t.Errorf("no release %s on the timeline: %v", want, names)
		}
	}
	version := regexp.MustCompile(`^(\d+)\.(\d+)$`)
	key := func(n string) [2]int {
		m := version.FindStringSubmatch(n)
		if m == nil {
			t.Fatalf("release %q", n)
		}
		var k [2]int
		for i := range k {
			for _, d := range m[i+1] {
				k[i] = k[i]*10 + int(d-'0')
			}
		}
		return k
	}
	if !slices.IsSortedFunc(names, func(a, b string) int {
		ka, kb := key(a), key(b)
		if ka[0] != kb[0] {
			return ka[0] - kb[0]
		}
		return ka[1] - kb[1]
	}) {
		t.Errorf("the releases are out of order: %v", names)
	}
}
