package unique_test

import (
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
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

// Lesson 7 says what the race measured, not what a race often does: after each race (with a
// sign-up's window and without, on memory and widerow) the reading names the count of
// read-then-write winners the race's table shows, and no sentence predicts another.
func TestLessonUniqueSaysWhatTheRaceMeasured(t *testing.T) {
	t.Parallel()
	winners := regexp.MustCompile(`<strong id="rtw-winners">(\d+)</strong> of 32`)
	for name, st := range map[string]func(t *testing.T) webkit.Stores{
		"memory":  func(*testing.T) webkit.Stores { return webkit.MemoryStores() },
		"widerow": func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := teachkit.NewApp(t, st(t)).Client(t)
			for _, hash := range []string{"on", ""} {
				body := html.UnescapeString(c.Submit("/models/race", url.Values{"name": {"rita"}, "racers": {"32"}, "hash": {hash}, "back": {"/learn/unique"}}, "/learn/unique#race-result").Body)
				webkit.MustNotContain(t, body, "often one racer is welcomed", "most are welcomed", "two winners are rare")
				m := winners.FindStringSubmatch(body)
				if m == nil {
					t.Fatalf("no read-then-write count:\n%s", body)
				}
				n, _ := strconv.Atoi(m[1])
				_, reading, ok := strings.Cut(body, `id="race-reading">`)
				reading, _, _ = strings.Cut(reading, "</p>")
				var want string
				switch {
				case n == 32:
					want = `This race: all 32 racers read "free" before any of them wrote`
				case n == 1:
					want = "This race: one racer of 32 was welcomed"
				default:
					want = fmt.Sprintf(`This race: %d of 32 racers read "free" before the first write`, n)
				}
				if !ok || !strings.Contains(reading, want) {
					t.Errorf("hash %q: %d of 32 welcomed, and the page reads %q, want %q", hash, n, reading, want)
				}
			}
		})
	}
}
