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

// A slice that returns nothing from a row that holds names says why, in the comparator's order:
// as UTF8Type strings, "100" and "1000" both sort before "123", so none of the seeds' names lies
// between them; as LongType numbers, 123 and 976 do. An empty row says it is empty.
func TestLessonSlicesSaysWhyASliceIsEmpty(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.WiderowStores(t)).Client(t)
	slice := func(cmp, start, finish string, reversed bool) string {
		t.Helper()
		form := url.Values{"cmp": {cmp}, "start": {start}, "finish": {finish}, "count": {"10"}, "back": {"/learn/slices"}}
		if reversed {
			form.Set("reversed", "1")
		}
		return html.UnescapeString(c.Submit("/models/lab/slice", form, "/learn/slices#slice").Body)
	}
	body := slice("UTF8Type", "100", "1000", false)
	webkit.MustContain(t, body, "Returned 0", `id="lab-slice-why"`, "Your row holds no names under UTF8Type")
	c.Submit("/models/lab/insert", url.Values{"names": {labs.SeedNames}, "back": {"/learn/slices"}}, "/learn/slices#lab-rows")
	body = slice("UTF8Type", "100", "1000", false)
	webkit.MustContain(t, body, "Returned 0", `id="lab-slice-why"`,
		`Under UTF8Type your row's 4 names sort "123", "3", "832416", "976", and both bounds (start 100, finish 1000) sort before "123": no name lies between them.`,
		"UTF8Type compares names as text, byte by byte")
	body = slice("UTF8Type", "5", "7", false)
	webkit.MustContain(t, body, `both bounds (start 5, finish 7) sort between "3" and "832416"`)
	body = slice("UTF8Type", "99", "980", true)
	webkit.MustContain(t, body, `both bounds (start 99, finish 980) sort after "976"`)
	body = slice("LongType", "100", "1000", false)
	webkit.MustContain(t, body, "Returned 2: <code>123</code>, <code>976</code>")
	webkit.MustNotContain(t, body, `id="lab-slice-why"`)
}
