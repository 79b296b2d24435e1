package pages

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"testing"
)

// The race page on memory and widerow: one LWT winner of 32, at least one read-then-write
// winner and the store names one racer; bad input is a readable 400; a forged form a 403.
func TestRacePage(t *testing.T) {
	t.Parallel()
	for name, st := range map[string]func(t *testing.T) stores{
		"memory":  func(*testing.T) stores { return memoryStores() },
		"widerow": func(t *testing.T) stores { return widerowStores(t) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := newApp(t, st(t)).client(t)
			mustContain(t, c.get("/models/race").body, `id="race-form"`, "running <strong>"+name+"</strong> store")
			r := c.post("/models/race", url.Values{"name": {"rita"}, "racers": {"32"}})
			if r.status != http.StatusOK {
				t.Fatalf("race: %d\n%s", r.status, r.body)
			}
			body := html.UnescapeString(r.body)
			mustContain(t, body, `<strong id="lwt-winners">1</strong> of 32 sign-ups won.`, "The store names <strong>racer ")
			m := regexp.MustCompile(`<strong id="rtw-winners">(\d+)</strong> of 32`).FindStringSubmatch(body)
			if m == nil {
				t.Fatal("no read-then-write count")
			}
			if n, _ := strconv.Atoi(m[1]); n < 1 || n > 32 {
				t.Errorf("read-then-write winners %d", n)
			}
			for _, bad := range []struct {
				form url.Values
				msg  string
			}{
				{url.Values{"name": {"rita"}, "racers": {"x"}}, "must be a whole number"},
				{url.Values{"name": {"rita"}, "racers": {"1"}}, "must be from 2 to 200"},
				{url.Values{"name": {"rita"}, "racers": {"201"}}, "must be from 2 to 200"},
				{url.Values{"name": {"not a name"}, "racers": {"4"}}, "Username"},
			} {
				r := c.post("/models/race", bad.form)
				if r.status != http.StatusBadRequest {
					t.Errorf("%v: status %d, want 400", bad.form, r.status)
				}
				mustContain(t, html.UnescapeString(r.body), bad.msg)
			}
			if r := c.postRaw("/models/race", url.Values{"name": {"rita"}, "racers": {"4"}}); r.status != http.StatusForbidden {
				t.Errorf("a form without the CSRF token: %d, want 403", r.status)
			}
		})
	}
}
