package course_test

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// The README and docs/teaching.md state the course as the code has it: the count of lessons,
// the table of lessons in order (number, slug), and each "(`/learn/<slug>`, lesson N)" heading.
func TestDocsStateTheCourse(t *testing.T) {
	t.Parallel()
	teachkit.NewApp(t, webkit.MemoryStores()) // publishes the course
	course := frame.Course()
	if len(course) == 0 {
		t.Fatal("no course published")
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	readme, teaching := read("../../../README.md"), read("../../../docs/teaching.md")
	counts := regexp.MustCompile(`(?:course of|` + "`/learn`" + `:) (\d+) lessons`)
	for name, doc := range map[string]string{"README.md": readme, "docs/teaching.md": teaching} {
		ms := counts.FindAllStringSubmatch(doc, -1)
		if len(ms) == 0 {
			t.Errorf("%s states no count of lessons", name)
		}
		for _, m := range ms {
			if n, _ := strconv.Atoi(m[1]); n != len(course) {
				t.Errorf("%s: %q, but the course has %d lessons", name, m[0], len(course))
			}
		}
	}
	rows := regexp.MustCompile("(?m)^\\| (\\d+) \\| [^|]+ \\| `/learn/([\\w-]+)` \\|$").FindAllStringSubmatch(teaching, -1)
	if len(rows) != len(course) {
		t.Errorf("docs/teaching.md lists %d lessons, the course has %d", len(rows), len(course))
	}
	for i, m := range rows {
		if i < len(course) && (m[1] != strconv.Itoa(course[i].N) || m[2] != course[i].Slug) {
			t.Errorf("docs/teaching.md's lesson %s is /learn/%s; the course's lesson %d is /learn/%s", m[1], m[2], course[i].N, course[i].Slug)
		}
	}
	for _, m := range regexp.MustCompile("\\(`/learn/([\\w-]+)`, lesson (\\d+)\\)").FindAllStringSubmatch(teaching, -1) {
		if want := fmt.Sprint(frame.LessonNumber(m[1])); m[2] != want {
			t.Errorf("docs/teaching.md: %s, but /learn/%s is lesson %s", m[0], m[1], want)
		}
	}
	// "lesson N (`/learn/<slug>`)" in docs/celebrity.md
	for _, m := range regexp.MustCompile("lesson (\\d+) \\(`/learn/([\\w-]+)`\\)").FindAllStringSubmatch(read("../../../docs/celebrity.md"), -1) {
		if want := fmt.Sprint(frame.LessonNumber(m[2])); m[1] != want {
			t.Errorf("docs/celebrity.md: %s, but /learn/%s is lesson %s", m[0], m[2], want)
		}
	}
}
