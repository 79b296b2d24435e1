package unique_test

import (
	"html"
	"net/url"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// Lesson 7: the race in the lesson, its form coming back to it.
func TestLessonUnique(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.WiderowStores(t)).Client(t)
	body := c.LessonPage("/learn/unique")
	webkit.MustContain(t, body, `id="race-form"`, `name="back" value="/learn/unique"`, "running <strong>widerow</strong> store", "INSERT INTO users … IF NOT EXISTS")
	body = html.UnescapeString(c.Submit("/models/race", url.Values{"name": {"rita"}, "racers": {"8"}, "hash": {"on"}, "back": {"/learn/unique"}}, "/learn/unique#race-result").Body)
	webkit.MustContain(t, body, `<strong id="lwt-winners">1</strong> of 8 sign-ups won.`, "What your race cost", "Scratch.UTF8s['race:rita#lwt-", "-> applied")
}
