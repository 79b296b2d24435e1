package twissandra_test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// Lesson 4: a tweet posted from the lesson, then every place it went (its Tweet row, the lines,
// a follower's timeline) and its author's User row beside the Username index, with what the post
// cost; anonymous learners see the newest tweet; a bad ID says so.
func TestLessonTwissandra(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	anon := app.Client(t)
	body := anon.LessonPage("/learn/twissandra")
	webkit.MustContain(t, body, `<code>Twissandra.Timeline</code>`, `<ColumnFamily Name="Username" CompareWith="BytesType"/>`, `id="twissandra-signin"`, `id="twissandra-none"`,
		// the celebrity lesson by the number the course gives it
		fmt.Sprintf(`<a href="/learn/celebrity">lesson %d</a>`, frame.LessonNumber("celebrity")))
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
	// The anonymous learner now sees the newest tweet, this one, said to be another user's.
	webkit.MustContain(t, anon.LessonPage("/learn/twissandra"), "The newest tweet on this server, another user's (sign in to see yours): <q>where does this live?</q>")
	webkit.MustContain(t, anon.LessonPage("/learn/twissandra?tweet="+uuid.NewString()), "No tweet has the ID ")
	webkit.MustContain(t, anon.LessonPage("/learn/twissandra?tweet=nope"), "is not a tweet's ID: here is the newest tweet instead.", "another user's (sign in to see yours): <q>where does this live?</q>")
	// A refused post is said on the lesson.
	body = html.UnescapeString(c.Submit("/learn/twissandra/post", url.Values{"body": {strings.Repeat("x", 141)}}, "/learn/twissandra#post").Body)
	webkit.MustContain(t, body, `id="twissandra-error"`)
}

// Two learners who posted each see their own newest tweet without naming it, never the
// other's; a learner who posted none is told that the tweet shown is another user's.
func TestLessonTwissandraShowsEachLearnerTheirOwn(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	ann, bob, cat := app.Client(t), app.Client(t), app.Client(t)
	ann.SignUp("ann")
	bob.SignUp("bob")
	cat.SignUp("cat")
	for _, p := range []struct {
		c    *webkit.Client
		body string
	}{{ann, "ann's first"}, {ann, "ann's second"}, {bob, "bob's only"}} {
		if r := p.c.Post("/learn/twissandra/post", url.Values{"body": {p.body}}); r.Status != http.StatusSeeOther {
			t.Fatalf("post %q: %d", p.body, r.Status)
		}
	}
	body := html.UnescapeString(ann.LessonPage("/learn/twissandra"))
	webkit.MustContain(t, body, "Your newest tweet <q>ann's second</q> by <a href=\"/users/ann\">@ann</a>")
	webkit.MustNotContain(t, body, "bob's only")
	body = html.UnescapeString(bob.LessonPage("/learn/twissandra"))
	webkit.MustContain(t, body, "Your newest tweet <q>bob's only</q>")
	webkit.MustNotContain(t, body, "ann's second")
	webkit.MustContain(t, html.UnescapeString(cat.LessonPage("/learn/twissandra")), "You have posted no tweet yet; the newest on this server, another user's: <q>bob's only</q> by <a href=\"/users/bob\">@bob</a>")
}
