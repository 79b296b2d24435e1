package celebrity_test

import (
	"errors"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"twissandra/domain"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/labs"
)

// Lesson 12: the threshold of this server, the measured figures, a user's fan-out, and a post
// whose fan-out line the page after shows.
func TestCelebrityLesson(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	c.SignUp("ann")
	body := html.UnescapeString(c.Get("/learn/celebrity").Body)
	webkit.MustContain(t, body, `<strong id="cl-threshold-value">0</strong>`, `id="cl-largest"`, `id="cl-pages"`,
		"<strong>0</strong> followers: <strong class=\"mode-push\">push</strong>", `id="post-celebrity"`, `href="/learn/glossary#fan-out"`,
		`id="cl-heads"`, "the heads of <strong>0</strong> authors", "read again after <strong>1s</strong>", `href="/models/celebrity#heads"`)
	if len(regexp.MustCompile(`<td data-label="Followers">`).FindAllString(body, -1)) == 0 {
		t.Error("no measured figure")
	}
	// The measured tables and the simulation are one click away: in a closed <details>, after
	// the sandbox's form.
	measured := part(t, body, "measured", "</details>")
	webkit.MustContain(t, measured, `id="cl-largest"`, `id="cl-pages"`, `id="cl-sim"`, `id="cl-sim-plot"`, "<summary>")
	if open, _, _ := strings.Cut(measured, ">"); strings.Contains(open, "open") || !strings.Contains(body, `<details class="card" id="measured">`) ||
		strings.Index(body, `id="sandbox"`) > strings.Index(body, `id="measured"`) {
		t.Errorf("the measured tables are not behind one click after the sandbox: %q", open)
	}
	body = teachkit.PostFromLesson(t, c, "celebrity", "who gets this")
	webkit.MustContain(t, body, "What your post cost", "fan-out: the tweet went to 3 lines", `The last post on this server (<span class="whose">yours</span>) cost`)
	if r := c.Get("/learn/celebrity?user=nobody"); !strings.Contains(r.Body, `id="cl-error"`) {
		t.Errorf("an unknown user:\n%s", r.Body)
	}
}

// part is the text of body from the element of id to the end of its tag's block (end).
func part(t *testing.T, body, id, end string) string {
	t.Helper()
	_, rest, ok := strings.Cut(body, `id="`+id+`"`)
	if !ok {
		t.Fatalf("no #%s:\n%s", id, body)
	}
	rest, _, _ = strings.Cut(rest, end)
	return rest
}

// The sandbox: at the threshold the post is pushed into every follower's Timeline row and the
// first follower's page is one slice of it; one follower more and the post writes no follower's
// row, while the page merges the author's userline. Both are read from the operations the run
// measured (its lists, and the page's footer), on a scratch store: the server's own threshold
// and users are untouched.
func TestCelebritySandboxCrossesTheThreshold(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	runs := map[string]string{}
	for _, followers := range []string{"3", "4"} {
		r := c.Get("/learn/celebrity?threshold=3&followers=" + followers)
		if r.Status != http.StatusOK {
			t.Fatalf("followers=%s: %d %s", followers, r.Status, r.Body)
		}
		runs[followers] = html.UnescapeString(r.Body)
	}
	at, over := runs["3"], runs["4"]

	// The post: the store's batch_mutate names the Timeline rows it wrote.
	webkit.MustContain(t, part(t, at, "sandbox-post-ops", "</details>"),
		"(Timeline: 4 rows, Userline: 2 rows)", "get_slice Twissandra.Followers[", "push: 3 followers, not above the pull threshold 3")
	webkit.MustContain(t, part(t, over, "sandbox-post-ops", "</details>"),
		"(Timeline: 1 row, Userline: 2 rows)", "and 0 followers' timelines; pull: 4 followers, above the pull threshold 3",
		"batch_mutate Twissandra 1 key, 1 row (Followers: 1 row)")
	if strings.Contains(part(t, over, "sandbox-post-ops", "</details>"), "get_slice Twissandra.Followers[") {
		t.Error("a pulled author's post listed the followers")
	}
	// The rows it left, read back in the seeds' notation.
	webkit.MustContain(t, part(t, at, "sandbox-timelines", "</pre>"), "fan1's timeline", "fan3's timeline", "star's timeline")
	if tl := part(t, over, "sandbox-timelines", "</pre>"); strings.Contains(tl, "fan1") || !strings.Contains(tl, "star's timeline") {
		t.Errorf("pulled: the Timeline rows written:\n%s", tl)
	}
	webkit.MustContain(t, part(t, over, "sandbox-untouched", "</p>"), "fan1", "fan4")
	webkit.MustContain(t, part(t, over, "sandbox-userlines", "</pre>"), "the public line", "star's userline")

	// fan1's home page: one slice of its timeline, then a merge of star's userline.
	plain := part(t, at, "sandbox-read-ops", "</details>")
	webkit.MustContain(t, plain, "get_slice Twissandra.Timeline[", "get_slice Twissandra.Followers['!PULLED!'] count=65536 -> 0 columns")
	if strings.Contains(plain, "Twissandra.Userline[") || strings.Contains(plain, "merge:") {
		t.Errorf("a page that follows no pulled author merged:\n%s", plain)
	}
	merged := part(t, over, "sandbox-read-ops", "</details>")
	webkit.MustContain(t, merged, "get_slice Twissandra.Userline[", "merge: fan1's timeline and the userlines of the 1 pulled authors fan1 follows (star)")
	webkit.MustContain(t, part(t, over, "sandbox-read", "</p>"), "<strong>merged</strong>")
	webkit.MustContain(t, part(t, at, "sandbox-read", "</p>"), "<strong>merged nothing</strong>")
	// Each step's cost is the footer's headline, and the footer lists the steps too.
	webkit.MustContain(t, part(t, over, "sandbox-read-cost", "</strong>"), "5 storage calls: get_slice=4 multiget_slice=1; 6 notes, not calls")
	webkit.MustContain(t, part(t, over, "storage-ops", "</details>"), "merge: fan1's timeline", "(Timeline: 1 row, Userline: 2 rows)")
	// The way back across the threshold.
	webkit.MustContain(t, part(t, at, "sandbox-cross", "</p>"), `href="/learn/celebrity?threshold=3&followers=4#sandbox"`)
	webkit.MustContain(t, part(t, over, "sandbox-cross", "</p>"), `href="/learn/celebrity?threshold=3&followers=3#sandbox"`)

	if app.Social.PullThreshold() != 0 {
		t.Errorf("the server's threshold is %d after the sandbox", app.Social.PullThreshold())
	}
	if _, err := app.Social.GetUser(webkit.BG(), "star"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the sandbox's author is in the server's store: %v", err)
	}
}

// A threshold or a number of followers the sandbox cannot take is a readable message on the
// page, never a run, nor a 500; past the gate's runs a minute, a 429 that says when to come back.
func TestCelebritySandboxRefusesBadInput(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	for query, want := range map[string]string{
		"threshold=0&followers=3":                    "A threshold of 0 pulls nobody",
		"threshold=99999999999999999999&followers=3": "The threshold 99999999999999999999 is far too large: a sandbox takes 1 to 20.",
		"threshold=21&followers=3":                   "The threshold 21 is more than a sandbox takes: pick 1 to 20.",
		"threshold=-2&followers=3":                   "The threshold cannot be negative",
		"threshold=ten&followers=3":                  "The threshold must be a whole number from 1 to 20, and &#34;ten&#34; is not one.",
		"threshold=&followers=3":                     "Give the threshold: a whole number from 1 to 20.",
		"threshold=3&followers=0":                    "The author needs a follower at least",
		"threshold=3&followers=1e3":                  "The number of followers must be a whole number from 1 to 20",
		"threshold=3&followers=500":                  "The number of followers 500 is more than a sandbox takes",
		"threshold=3":                                "Give the number of followers",
	} {
		r := c.Get("/learn/celebrity?" + query)
		if r.Status != http.StatusOK || strings.Contains(r.Body, `id="sandbox-result"`) {
			t.Errorf("%s: %d, or a run", query, r.Status)
			continue
		}
		webkit.MustContain(t, part(t, r.Body, "sandbox-error", "</p>"), want)
	}
	for i := range labs.DefaultGates().Sandbox.PerMinute {
		if r := c.Get("/learn/celebrity?threshold=1&followers=1"); r.Status != http.StatusOK || !strings.Contains(r.Body, `id="sandbox-result"`) {
			t.Fatalf("run %d: %d", i+1, r.Status)
		}
	}
	r := c.Get("/learn/celebrity?threshold=1&followers=1")
	if r.Status != http.StatusTooManyRequests || !strings.Contains(r.Body, "The sandbox could not start: you have begun 20 a minute") {
		t.Errorf("run %d: %d %s", labs.DefaultGates().Sandbox.PerMinute+1, r.Status, r.Body)
	}
}

// On another backend the sandbox runs all the same, on the 0.6 model's scratch node, and says
// so beside the footer's Thrift calls.
func TestCelebritySandboxOnMemory(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	r := app.Client(t).Get("/learn/celebrity?threshold=2&followers=3")
	if r.Status != http.StatusOK {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	webkit.MustContain(t, r.Body, "merge: fan1&#39;s timeline", "get_slice Twissandra.Userline[",
		"beside this memory server&#39;s own: the sandbox&#39;s node is the 0.6 model whatever the backend")
}

// The last post on the server is anyone's: the lesson says whose, "yours" to its author and
// the author's name to another learner, never as if it were the reader's.
func TestLessonCelebritySaysWhoseTheLastPostIs(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	ann, bob := app.Client(t), app.Client(t)
	ann.SignUp("ann")
	bob.SignUp("bob")
	teachkit.PostFromLesson(t, ann, "celebrity", "ann's")
	webkit.MustContain(t, bob.LessonPage("/learn/celebrity"), `The last post on this server (<span class="whose">@ann's</span>) cost`)
	webkit.MustContain(t, ann.LessonPage("/learn/celebrity"), `The last post on this server (<span class="whose">yours</span>) cost`)
	teachkit.PostFromLesson(t, bob, "celebrity", "bob's")
	webkit.MustContain(t, ann.LessonPage("/learn/celebrity"), `The last post on this server (<span class="whose">@bob's</span>) cost`)
	webkit.MustContain(t, app.Client(t).LessonPage("/learn/celebrity"), `The last post on this server (<span class="whose">@bob's</span>) cost`)
}
