package slices_test

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/labs"
)

// Lesson 2: the comparator lab in the lesson, its forms coming back to it; the four UUIDs of the
// vectors in one click, LexicalUUIDType's order explained.
func TestLessonSlices(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	body := c.LessonPage("/learn/slices")
	webkit.MustContain(t, body, `<code><ColumnFamily Name="Timeline" CompareWith="LongType"/></code>`, `id="lab-form"`, `id="slice-form"`,
		`name="back" value="/learn/slices"`, `id="lab-uuids"`)
	body = html.UnescapeString(c.Submit("/models/lab/insert", url.Values{"names": {labs.SeedNames}, "back": {"/learn/slices"}}, "/learn/slices#lab-rows").Body)
	if got := strings.Join(teachkit.LabColumn(t, body, 3), " "); got != "3 123 976 832416" {
		t.Errorf("LongType in the lesson: %s", got)
	}
	if got := strings.Join(teachkit.LabColumn(t, body, 2), " "); got != `"123" "3" "832416" "976"` {
		t.Errorf("UTF8Type in the lesson: %s", got)
	}
	body = html.UnescapeString(c.Submit("/models/lab/insert", url.Values{"names": {labs.UuidNames}, "back": {"/learn/slices"}}, "/learn/slices#lab-rows").Body)
	webkit.MustContain(t, body, "Your row shows it: <code>80000000-0000-1000-8000-000000000000</code> is first under LexicalUUIDType.")
	body = html.UnescapeString(c.Submit("/models/lab/slice", url.Values{"cmp": {"LongType"}, "start": {"900"}, "count": {"2"}, "back": {"/learn/slices"}}, "/learn/slices#slice").Body)
	webkit.MustContain(t, body, "Returned 2: <code>976</code>, <code>832416</code>", "What your slice cost", "get_slice Scratch.Longs['lab-")
}
