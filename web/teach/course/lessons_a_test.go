package course_test

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// Lessons 1 to 7 are registered with their numbers and slugs, in order, by the server that
// publishes the course.
func TestLessonsOneToSeven(t *testing.T) {
	t.Parallel()
	teachkit.NewApp(t, webkit.MemoryStores())
	want := map[int]string{1: "primer", 2: "slices", 3: "time", 4: "twissandra", 5: "blog", 6: "timeuuid", 7: "unique"}
	seen := map[int]string{}
	for _, l := range frame.Course() {
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
			app := teachkit.NewApp(t, st(t))
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
