package timeuuid_test

import (
	"regexp"
	"testing"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// Lesson 6: two TimeUUIDs of one microsecond that differ, laid out field by field; then a tag's
// entries between two dates, one slice of its TaggedPosts row between the smallest TimeUUID of
// the first day and the largest of the last.
func TestLessonTimeUUID(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	body := c.LessonPage("/learn/timeuuid")
	ids := regexp.MustCompile(`<code id="timeuuid-[ab]">([0-9a-f-]{36})</code>`).FindAllStringSubmatch(body, -1)
	if len(ids) != 2 {
		t.Fatalf("the two TimeUUIDs: %v", ids)
	}
	a, b := uuid.MustParse(ids[0][1]), uuid.MustParse(ids[1][1])
	if a == b || a.Version() != 1 || b.Version() != 1 || domain.TimeUUIDTicks(a) != domain.TimeUUIDTicks(b) {
		t.Errorf("two TimeUUIDs of one microsecond: %s %s", a, b)
	}
	webkit.MustContain(t, body, "Both carry the same time, and still differ", "<code>"+a.String()[0:8]+"</code>", "<code>"+b.String()[24:]+"</code>",
		"time_hi and version: the version (1)", `id="paging-empty"`)

	if err := blog.LoadFixture(webkit.BG(), app.Blog); err != nil {
		t.Fatal(err)
	}
	body = c.LessonPage("/learn/timeuuid")
	webkit.MustContain(t, body, `id="paging-from" value="2009-08-13"`, `id="paging-to" value="2009-08-20"`, "Scream is the best movie ever", "Another cool guitar")
	body = c.LessonPage("/learn/timeuuid?tag=guitar&from=2009-08-19&to=2009-08-20")
	webkit.MustContain(t, body, "Another cool guitar", "BloggyAppy.TaggedPosts['guitar']", "the smallest of 2009-08-19 00:00",
		"get_slice BloggyAppy.TaggedPosts['guitar']")
	webkit.MustNotContain(t, body, "This is a blog entry about my new, awesome guitar", "Scream is the best movie ever")
	body = c.LessonPage("/learn/timeuuid?tag=guitar&from=2009-08-18&to=2009-08-18")
	webkit.MustContain(t, body, "This is a blog entry about my new, awesome guitar")
	webkit.MustNotContain(t, body, "Another cool guitar")
	webkit.MustContain(t, c.LessonPage("/learn/timeuuid?tag=movie&from=2009-08-01&to=2009-08-10"), `id="paging-none"`)
	webkit.MustContain(t, c.LessonPage("/learn/timeuuid?from=yesterday&to=2009-08-10"), `Dates are written YYYY-MM-DD`)
}
