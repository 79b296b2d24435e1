package time_test

import (
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// Lesson 3: last write wins in the lesson, then the replicas: after gc_grace the compaction drops
// A's tombstone and the read repair brings B's value back; within gc_grace, or after a repair,
// the column stays deleted. Every run is the same: the days are chosen.
func TestLessonTime(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
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
		{"late", form("1", "12", "13", ""), `The deleted column is back: "(900) 976-6666", with its timestamp of day 0. On day 12 replica A compacted and dropped its tombstone: it had received the delete on day 1, at least gc_grace (10 days) before.`, "write delete compaction read"},
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

// In 0.6 GCGraceSeconds is one setting of storage-conf.xml's <Storage>, for every column family
// of the node; from 0.7 each column family has its own. The grace runs from when the node
// received the delete (its localDeletionTime), not from the client's timestamp.
func TestLessonTimeGraceSetting(t *testing.T) {
	t.Parallel()
	body := teachkit.NewApp(t, webkit.MemoryStores()).Client(t).LessonPage("/learn/time")
	webkit.MustContain(t, body, "one setting of <code>storage-conf.xml</code>'s <code><Storage></code>", "every column family of the node",
		"from 0.7 each column family has its own", "localDeletionTime")
	webkit.MustNotContain(t, body, "Each column family has a")
}
