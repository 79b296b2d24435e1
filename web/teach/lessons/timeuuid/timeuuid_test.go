package timeuuid_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"
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

// The bounds of a time differ between 0.6's TimeUUIDType (ties broken on unsigned bytes) and
// later Cassandra's (signed): the page shows both; on widerow the slice is 0.6's.
func TestLessonTimeUUIDBoundsOfBothOrders(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	if err := blog.LoadFixture(webkit.BG(), app.Blog); err != nil {
		t.Fatal(err)
	}
	body := app.Client(t).LessonPage("/learn/timeuuid?tag=guitar&from=2009-08-19&to=2009-08-20")
	webkit.MustContain(t, body, "signed",
		`<code id="paging-lo-06">`+domain.TieUnsigned.MinTimeUUID(time.Date(2009, 8, 19, 0, 0, 0, 0, time.UTC).UnixMicro()).String(),
		`<code id="paging-hi-06">`+domain.TieUnsigned.MaxTimeUUID(time.Date(2009, 8, 20, 23, 59, 59, 999999000, time.UTC).UnixMicro()).String(),
		"-0000-000000000000</code>", "-ffff-ffffffffffff</code>", "-8080-808080808080</code>", "-7f7f-7f7f7f7f7f7f</code>",
		"BloggyAppy.TaggedPosts['guitar']")
}

// Reversed dates: no slice is sent, and the page says why, as lesson 2 does for a slice whose
// start and finish are the wrong way round.
func TestLessonTimeUUIDReversedDates(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	if err := blog.LoadFixture(webkit.BG(), app.Blog); err != nil {
		t.Fatal(err)
	}
	r := app.Client(t).Get("/learn/timeuuid?from=2009-08-20&to=2009-08-13")
	body := html.UnescapeString(r.Body)
	webkit.MustContain(t, body, `id="paging-reversed"`, "range finish must come after start in the order of traversal",
		`href="/learn/timeuuid?from=2009-08-13&tag=`)
	webkit.MustNotContain(t, body, `id="paging-none"`)
	if n := webkit.OpCount(r.Header.Get("Storage-Ops"), "get_slice"); n != 0 {
		t.Errorf("a reversed range sent %d slices", n)
	}
}

// On cql3 the page names the table the footer's statement reads, and the bounds it binds are
// the node's own minTimeuuid and maxTimeuuid of the two dates.
func TestLessonTimeUUIDOnNode(t *testing.T) {
	st, store := webkit.CQL3Stores(t)
	app := teachkit.NewApp(t, st)
	if err := blog.LoadFixture(webkit.BG(), app.Blog); err != nil {
		t.Fatal(err)
	}
	sess, err := store.Session()
	if err != nil {
		t.Fatal(err)
	}
	var hi, lo gocql.UUID
	if err := sess.Session.Query("SELECT maxTimeuuid('2009-08-20 23:59:59.999+0000'), minTimeuuid('2009-08-19 00:00+0000') FROM system.local").Scan(&hi, &lo); err != nil {
		t.Fatal(err)
	}
	body := app.Client(t).LessonPage("/learn/timeuuid?tag=guitar&from=2009-08-19&to=2009-08-20")
	_, bounds, _ := strings.Cut(body, `id="paging-bounds"`)
	bounds, _, _ = strings.Cut(bounds, "</p>")
	webkit.MustContain(t, bounds, "tagged_posts", `<code id="paging-hi-cql3">`+hi.String()+"</code>", `<code id="paging-lo-cql3">`+lo.String()+"</code>")
	webkit.MustNotContain(t, bounds, "BloggyAppy.TaggedPosts", "-ffff-ffffffffffff")
	webkit.MustContain(t, body, "Another cool guitar", "tagged_posts")
}

// In compare mode widerow answers with 0.6's slice and cql3 runs its statement second: the page
// names both, each with the bounds of its own order.
func TestLessonTimeUUIDInCompareMode(t *testing.T) {
	app := teachkit.NewApp(t, webkit.CompareStores(t))
	if err := blog.LoadFixture(webkit.BG(), app.Blog); err != nil {
		t.Fatal(err)
	}
	body := app.Client(t).LessonPage("/learn/timeuuid?tag=guitar&from=2009-08-19&to=2009-08-20")
	_, bounds, _ := strings.Cut(body, `id="paging-bounds"`)
	bounds, _, _ = strings.Cut(bounds, "</p>")
	webkit.MustContain(t, bounds, "BloggyAppy.TaggedPosts['guitar']", "-ffff-ffffffffffff</code>", "tagged_posts", "-7f7f-7f7f7f7f7f7f</code>")
	webkit.MustContain(t, body, "Another cool guitar")
}

// The paging's dates default to the week of the learner's own newest entry, else of the
// article's: one learner's entry does not move another's example, and each entry listed says
// whose it is.
func TestLessonTimeUUIDPagesEachLearnersOwnWeek(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	ann, cat := app.Client(t), app.Client(t)
	ann.SignUp("ann")
	cat.SignUp("cat")
	cat.Submit("/learn/blog/load", nil, "/learn/blog#entry")
	if r := ann.Post("/blog/new", url.Values{"slug": {"anns-entry"}, "title": {"Ann's entry"}, "body": {"b"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("publish: %d", r.Status)
	}
	week := time.Now().UTC()
	body := html.UnescapeString(ann.LessonPage("/learn/timeuuid"))
	webkit.MustContain(t, body, "The dates are the week up to your newest entry", `id="paging-to" value="`+week.Format("2006-01-02")+`"`, "Ann's entry</a> <span class=\"meta\">by you,")
	webkit.MustNotContain(t, body, "Scream is the best movie ever")
	for _, c := range []*webkit.Client{cat, app.Client(t)} {
		body = html.UnescapeString(c.LessonPage("/learn/timeuuid"))
		webkit.MustContain(t, body, "the article's newest entry (until you write one of your own)", `id="paging-to" value="2009-08-20"`,
			"Scream is the best movie ever</a> <span class=\"meta\">by Arin Sarkissian,")
		webkit.MustNotContain(t, body, "Ann's entry")
	}
}
