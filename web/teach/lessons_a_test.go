package teach

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/internal/testkit/webkit"
)

// Lessons 1 to 7 are registered with their numbers and slugs, in order.
func TestLessonsOneToSeven(t *testing.T) {
	t.Parallel()
	want := map[int]string{1: "primer", 2: "slices", 3: "time", 4: "twissandra", 5: "blog", 6: "timeuuid", 7: "unique"}
	seen := map[int]string{}
	for _, l := range course() {
		if slug, ok := want[l.N]; ok {
			if l.Slug != slug {
				t.Errorf("lesson %d is %q, want %q", l.N, l.Slug, slug)
			}
			seen[l.N] = l.Slug
		}
	}
	if len(seen) != len(want) {
		t.Errorf("lessons registered: %v, want %v", seen, want)
	}
}

// Lesson 1: a column and a subcolumn of AddressBook written by hand into the learner's rows,
// read back in the articles' notation with their timestamps; the keyspaces and the definitions
// come from the running engine's schema; a refusal is said once.
func TestLessonPrimer(t *testing.T) {
	t.Parallel()
	for name, st := range map[string]func(t *testing.T) webkit.Stores{
		"memory":  func(*testing.T) webkit.Stores { return webkit.MemoryStores() },
		"widerow": func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := newApp(t, st(t)).Client(t)
			body := c.LessonPage("/learn/primer")
			webkit.MustContain(t, body, "<code>Twissandra</code>, 7 column families: <code>User</code>",
				"<code>Scratch</code>, 7 column families: <code>Bytes</code>", "<code>AddressBook</code><span> (super)</span>",
				`<ColumnFamily Name="AddressBook" CompareWith="UTF8Type" ColumnType="Super" CompareSubcolumnsWith="UTF8Type"/>`,
				`<ColumnFamily Name="UTF8s" CompareWith="UTF8Type"/>`, `name="back" value="/learn/primer"`)
			webkit.MustNotContain(t, body, `id="primer-triple"`)

			body = html.UnescapeString(c.Submit("/models/lab/put", url.Values{"kind": {"standard"}, "name": {"emailAddress"}, "value": {"arin@example.com"}, "back": {"/learn/primer"}},
				"/learn/primer#primer-standard").Body)
			webkit.MustContain(t, body, "{  // this is a column", `    name: "emailAddress",`, `    value: "arin@example.com",`, "    timestamp: 1",
				`insert(keyspace='Scratch', key='lab-`, `"emailAddress"</span>: <span class="v">"arin@example.com"</span>, <span class="c ts">/* timestamp `,
				"What your column cost", "insert Scratch.UTF8s['lab-")
			body = html.UnescapeString(c.Submit("/models/lab/put", url.Values{"kind": {"super"}, "super": {"John"}, "name": {"zip"}, "value": {"94404"}, "back": {"/learn/primer"}},
				"/learn/primer#primer-super").Body)
			webkit.MustContain(t, body, "{   // this is a SuperColumn", `    name: "John",`, `        zip: {name: "zip", value: "94404", timestamp: `,
				`super_column="John", column="zip"`, `<span class="n">"John"</span>: {`, `<span class="n">"zip"</span>: <span class="v">"94404"</span>`,
				"1 super column,", "insert Scratch.AddressBook['lab-")
			// The standard row is still there, beside the super one.
			webkit.MustContain(t, body, `<span class="n">"emailAddress"</span>`)

			for _, bad := range []struct {
				form   url.Values
				anchor string
				msg    string
			}{
				{url.Values{"kind": {"standard"}, "name": {""}, "value": {"v"}}, "primer-standard", "Name: a column needs a name."},
				{url.Values{"kind": {"super"}, "super": {" "}, "name": {"zip"}}, "primer-super", "Super column: a subcolumn needs its super column's name."},
			} {
				bad.form.Set("back", "/learn/primer")
				body := html.UnescapeString(c.Submit("/models/lab/put", bad.form, "/learn/primer#"+bad.anchor).Body)
				webkit.MustContain(t, body, bad.msg, `role="alert"`)
				if strings.Contains(c.LessonPage("/learn/primer"), bad.msg) {
					t.Errorf("the refusal %q is shown again after a reload", bad.msg)
				}
			}
			c.Submit("/models/lab/clear", url.Values{"back": {"/learn/primer"}}, "/learn/primer#lab-rows")
			webkit.MustNotContain(t, c.LessonPage("/learn/primer"), `<span class="n">"emailAddress"</span>`)
		})
	}
}

// Lesson 2: the comparator lab in the lesson, its forms coming back to it; the four UUIDs of the
// vectors in one click, LexicalUUIDType's order explained.
func TestLessonSlices(t *testing.T) {
	t.Parallel()
	c := newApp(t, webkit.MemoryStores()).Client(t)
	body := c.LessonPage("/learn/slices")
	webkit.MustContain(t, body, `<code><ColumnFamily Name="Timeline" CompareWith="LongType"/></code>`, `id="lab-form"`, `id="slice-form"`,
		`name="back" value="/learn/slices"`, `id="lab-uuids"`)
	body = html.UnescapeString(c.Submit("/models/lab/insert", url.Values{"names": {seedNames}, "back": {"/learn/slices"}}, "/learn/slices#lab-rows").Body)
	if got := strings.Join(labColumn(t, body, 3), " "); got != "3 123 976 832416" {
		t.Errorf("LongType in the lesson: %s", got)
	}
	if got := strings.Join(labColumn(t, body, 2), " "); got != `"123" "3" "832416" "976"` {
		t.Errorf("UTF8Type in the lesson: %s", got)
	}
	body = html.UnescapeString(c.Submit("/models/lab/insert", url.Values{"names": {uuidNames}, "back": {"/learn/slices"}}, "/learn/slices#lab-rows").Body)
	webkit.MustContain(t, body, "Your row shows it: <code>80000000-0000-1000-8000-000000000000</code> is first under LexicalUUIDType.")
	body = html.UnescapeString(c.Submit("/models/lab/slice", url.Values{"cmp": {"LongType"}, "start": {"900"}, "count": {"2"}, "back": {"/learn/slices"}}, "/learn/slices#slice").Body)
	webkit.MustContain(t, body, "Returned 2: <code>976</code>, <code>832416</code>", "What your slice cost", "get_slice Scratch.Longs['lab-")
}

// Lesson 3: last write wins in the lesson, then the replicas: after gc_grace the compaction drops
// A's tombstone and the read repair brings B's value back; within gc_grace, or after a repair,
// the column stays deleted. Every run is the same: the days are chosen.
func TestLessonTime(t *testing.T) {
	t.Parallel()
	c := newApp(t, webkit.MemoryStores()).Client(t)
	body := c.LessonPage("/learn/time")
	webkit.MustContain(t, body, `id="lww-form"`, `name="back" value="/learn/time"`, "10 days by default", `id="replicas-late"`, `id="replicas-form"`)
	body = html.UnescapeString(c.Submit("/models/lab/lww", url.Values{"v1": {"a"}, "t1": {"10"}, "v2": {"b"}, "t2": {"9"}, "back": {"/learn/time"}}, "/learn/time#lww").Body)
	webkit.MustContain(t, body, `Both replicas read "a": the write with the highest timestamp (10) wins`, `id="lww-diagram"`)

	form := func(deleted, compacted, read string, repair string) url.Values {
		f := url.Values{"value": {"(900) 976-6666"}, "deleted": {deleted}, "grace": {"864000"}, "compacted": {compacted}, "read": {read}, "repaired": {repair}, "back": {"/learn/time"}}
		if repair != "" {
			f.Set("repair", "1")
		}
		return f
	}
	steps := regexp.MustCompile(`data-step="(\w+)"`)
	for _, tc := range []struct {
		name    string
		form    url.Values
		verdict string
		steps   string
	}{
		{"late", form("1", "12", "13", ""), `The deleted column is back: "(900) 976-6666", with its timestamp of day 0. On day 12 replica A compacted and dropped its tombstone: it was deleted on day 1, more than gc_grace (10 days) before.`, "write delete compaction read"},
		{"within", form("1", "9", "13", ""), "The column stays deleted: on day 9, less than gc_grace (10 days) after the delete, A's compaction had to keep the tombstone.", "write delete compaction read"},
		{"repaired", form("1", "12", "13", "5"), "The column stays deleted: the repair on day 5 gave B the tombstone, so when the compaction of day 12 dropped it", "write delete repair compaction read"},
	} {
		for run := range 2 { // the same days tell the same story every time
			body := html.UnescapeString(c.Submit("/models/lab/replicas", tc.form, "/learn/time#replicas").Body)
			webkit.MustContain(t, body, tc.verdict, "What your replicas' days cost", "compaction Scratch.Bytes['lab-", "gc_before=")
			var got []string
			for _, m := range steps.FindAllStringSubmatch(body, -1) {
				got = append(got, m[1])
			}
			if strings.Join(got, " ") != tc.steps {
				t.Errorf("%s, run %d: steps %v", tc.name, run, got)
			}
		}
	}
	body = html.UnescapeString(c.Submit("/models/lab/replicas", form("1", "0", "13", ""), "/learn/time#replicas").Body)
	webkit.MustContain(t, body, "Compaction: must not come before the delete.", `id="replicas-compacted" value="0"`)
	body = html.UnescapeString(c.Submit("/models/lab/replicas", form("x", "9", "13", ""), "/learn/time#replicas").Body)
	webkit.MustContain(t, body, `The delete: must be a day from 0 to 3650, not "x".`)
}

// Lesson 4: a tweet posted from the lesson, then every place it went (its Tweet row, the lines,
// a follower's timeline) and its author's User row beside the Username index, with what the post
// cost; anonymous learners see the newest tweet; a bad ID says so.
func TestLessonTwissandra(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.WiderowStores(t))
	anon := app.Client(t)
	body := anon.LessonPage("/learn/twissandra")
	webkit.MustContain(t, body, `<code>Twissandra.Timeline</code>`, `<ColumnFamily Name="Username" CompareWith="BytesType"/>`, `id="twissandra-signin"`, `id="twissandra-none"`)
	if r := anon.Post("/learn/twissandra/post", url.Values{"body": {"hello"}}); r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/login?next=/learn/twissandra" {
		t.Errorf("an anonymous post: %d to %q", r.Status, r.Header.Get("Location"))
	}

	c := app.Client(t)
	c.SignUp("learner")
	fan := app.Client(t)
	fan.SignUp("fan")
	if err := app.Social.Follow(webkit.BG(), "fan", "learner"); err != nil {
		t.Fatal(err)
	}
	r := c.Post("/learn/twissandra/post", url.Values{"body": {"where does this live?"}})
	loc := r.Header.Get("Location")
	m := regexp.MustCompile(`^/learn/twissandra\?tweet=([0-9a-f-]{36})&posted=1#where$`).FindStringSubmatch(loc)
	if r.Status != http.StatusSeeOther || m == nil {
		t.Fatalf("post: %d to %q", r.Status, loc)
	}
	body = html.UnescapeString(c.Get(strings.TrimSuffix(loc, "#where")).Body)
	webkit.MustContain(t, body, "Your tweet <q>where does this live?</q>", "Its author has 1 follower: push",
		"Twissandra.Tweet['"+m[1]+"']", "learner's userline", "the public line", "follower fan's timeline",
		"Twissandra.User['", "Twissandra.Username['learner']", "What your tweet cost", "fan-out: the tweet went to 4 lines")
	if n := strings.Count(body, `class="badge no"`); n != 0 {
		t.Errorf("%d of the tweet's places are absent", n)
	}
	// The anonymous learner now sees the newest tweet, this one.
	webkit.MustContain(t, anon.LessonPage("/learn/twissandra"), "The tweet <q>where does this live?</q>")
	webkit.MustContain(t, anon.LessonPage("/learn/twissandra?tweet="+uuid.NewString()), "No tweet has the ID ")
	webkit.MustContain(t, anon.LessonPage("/learn/twissandra?tweet=nope"), "is not a tweet's ID: here is the newest tweet instead.", "The tweet <q>where does this live?</q>")
	// A refused post is said on the lesson.
	body = html.UnescapeString(c.Submit("/learn/twissandra/post", url.Values{"body": {strings.Repeat("x", 141)}}, "/learn/twissandra#post").Body)
	webkit.MustContain(t, body, `id="twissandra-error"`)
}

// Lesson 5: the article's blog loaded from the lesson (twice changes nothing), then the newest
// entry's rows: its BlogEntries row, its TaggedPosts columns under each tag and __notag__, and
// its comments as super columns of its Comments row.
func TestLessonBlog(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	body := c.LessonPage("/learn/blog")
	webkit.MustContain(t, body, `<ColumnFamily Name="Comments" CompareWith="TimeUUIDType" ColumnType="Super" CompareSubcolumnsWith="BytesType"/>`,
		"<code>Comments</code><span> (super).</span>", `id="blog-none"`, "TaggedPosts['__notag__']")
	for range 2 {
		body = html.UnescapeString(c.Submit("/learn/blog/load", nil, "/learn/blog#entry").Body)
	}
	webkit.MustContain(t, body, "Scream is the best movie ever", "BloggyAppy.BlogEntries['scream-is-the-best-movie-ever']",
		"BloggyAppy.TaggedPosts['__notag__']", "BloggyAppy.TaggedPosts['horror']", "BloggyAppy.TaggedPosts['movie']",
		"Its first 2 comments, each a super column", "BloggyAppy.Comments['scream-is-the-best-movie-ever']", `"Joe Blow"`,
		"What loading the article's blog cost")
	if page, err := app.Blog.Entries(webkit.BG(), "", "", 10); err != nil || len(page.Entries) != 3 {
		t.Errorf("after loading twice the blog has %d entries, %v", len(page.Entries), err)
	}
	body = c.LessonPage("/learn/blog?entry=i-got-a-new-guitar")
	webkit.MustContain(t, body, "BloggyAppy.TaggedPosts['guitar']", "Its first 1 comment,", `"Johnny Guitar"`)
	webkit.MustContain(t, c.LessonPage("/learn/blog?entry=no-such-entry"), "The blog has no entry “no-such-entry”.")
}

// Lesson 6: two TimeUUIDs of one microsecond that differ, laid out field by field; then a tag's
// entries between two dates, one slice of its TaggedPosts row between the smallest TimeUUID of
// the first day and the largest of the last.
func TestLessonTimeUUID(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.WiderowStores(t))
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

// Lesson 7: the race in the lesson, its form coming back to it.
func TestLessonUnique(t *testing.T) {
	t.Parallel()
	c := newApp(t, webkit.WiderowStores(t)).Client(t)
	body := c.LessonPage("/learn/unique")
	webkit.MustContain(t, body, `id="race-form"`, `name="back" value="/learn/unique"`, "running <strong>widerow</strong> store", "INSERT INTO users … IF NOT EXISTS")
	body = html.UnescapeString(c.Submit("/models/race", url.Values{"name": {"rita"}, "racers": {"8"}, "hash": {"on"}, "back": {"/learn/unique"}}, "/learn/unique#race-result").Body)
	webkit.MustContain(t, body, `<strong id="lwt-winners">1</strong> of 8 sign-ups won.`, "What your race cost", "Scratch.UTF8s['race:rita#lwt-", "-> applied")
}

// On cql3 and in compare mode (with TWISSANDRA_CQL_HOSTS): a tweet posted from lesson 4 lives in
// the cql3 tables (and, in compare mode, in both models), the blog of lesson 5 in its tables,
// lesson 6 pages a tag between two dates with a clustering range, and the race of lesson 7 runs
// on the node.
func TestLessonsOnCQL3AndCompare(t *testing.T) {
	t.Parallel()
	for name, st := range map[string]func(t *testing.T) webkit.Stores{
		"cql3":    func(t *testing.T) webkit.Stores { st, _ := webkit.CQL3Stores(t); return st },
		"compare": webkit.CompareStores,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			app := newApp(t, st(t))
			c := app.Client(t)
			c.SignUp("learner")
			body := html.UnescapeString(c.Submit("/learn/twissandra/post", url.Values{"body": {"on the node"}}, "/learn/twissandra?tweet=").Body)
			webkit.MustContain(t, body, "Your tweet <q>on the node</q>", `id="places-tweet-cql3"`, `id="places-user-cql3"`, "What your tweet cost")
			if name == "compare" {
				webkit.MustContain(t, body, `id="places-tweet-widerow"`, "Twissandra.Username['learner']")
			}
			if n := strings.Count(body, `class="badge no"`); n != 0 {
				t.Errorf("%d of the tweet's places are absent", n)
			}
			body = html.UnescapeString(c.Submit("/learn/blog/load", nil, "/learn/blog#entry").Body)
			webkit.MustContain(t, body, "Scream is the best movie ever", `id="places-comments-cql3"`)
			body = c.LessonPage("/learn/timeuuid?tag=guitar&from=2009-08-19&to=2009-08-20")
			webkit.MustContain(t, body, "Another cool guitar")
			webkit.MustNotContain(t, body, "This is a blog entry about my new, awesome guitar")
			body = html.UnescapeString(c.Submit("/models/race", url.Values{"name": {"rita"}, "racers": {"8"}, "back": {"/learn/unique"}}, "/learn/unique#race-result").Body)
			webkit.MustContain(t, body, `<strong id="lwt-winners">1</strong> of 8 sign-ups won.`)
		})
	}
}
