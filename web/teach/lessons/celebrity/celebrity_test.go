package celebrity_test

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
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
	body = teachkit.PostFromLesson(t, c, "celebrity", "who gets this")
	webkit.MustContain(t, body, "What your post cost", "fan-out: the tweet went to 3 lines", "The last post on this server cost")
	if r := c.Get("/learn/celebrity?user=nobody"); !strings.Contains(r.Body, `id="cl-error"`) {
		t.Errorf("an unknown user:\n%s", r.Body)
	}
}
