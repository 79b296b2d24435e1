package teach

import (
	"html"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// The race page on every backend (cql3 with TWISSANDRA_CQL_HOSTS): one LWT winner of 32, at
// least one read-then-write winner, the store names one racer and the page counts the
// overwritten accounts; with nothing between the read and the write the real node still welcomes
// more than one. Bad input is a readable 400; a forged form a 403.
func TestRacePage(t *testing.T) {
	t.Parallel()
	backends := map[string]func(t *testing.T) stores{
		"memory":  func(*testing.T) stores { return memoryStores() },
		"widerow": func(t *testing.T) stores { return widerowStores(t) },
	}
	if os.Getenv("TWISSANDRA_CQL_HOSTS") != "" {
		backends["cql3"] = func(t *testing.T) stores { st, _ := cql3Stores(t); return st }
	}
	rtwWinners := regexp.MustCompile(`<strong id="rtw-winners">(\d+)</strong> of 32`)
	for name, st := range backends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := newApp(t, st(t)).client(t)
			mustContain(t, c.get("/models/race").body, `id="race-form"`, "running <strong>"+name+"</strong> store", `id="race-hash" checked`)
			for _, hash := range []bool{true, false} {
				form := url.Values{"name": {"rita"}, "racers": {"32"}}
				window := "Nothing ran between each racer's read and its write"
				if hash {
					form.Set("hash", "on")
					window = "Each racer hashed its password"
				}
				r := c.post("/models/race", form)
				if r.status != http.StatusOK {
					t.Fatalf("race: %d\n%s", r.status, r.body)
				}
				body := html.UnescapeString(r.body)
				mustContain(t, body, `<strong id="lwt-winners">1</strong> of 32 sign-ups won.`, "The store names <strong>racer ", window)
				m := rtwWinners.FindStringSubmatch(body)
				if m == nil {
					t.Fatal("no read-then-write count")
				}
				n, _ := strconv.Atoi(m[1])
				if n < 1 || n > 32 {
					t.Errorf("read-then-write winners %d", n)
				}
				if n > 1 {
					mustContain(t, body, "the other "+strconv.Itoa(n-1)+" account")
				}
				if name == "cql3" && !hash && n < 2 {
					t.Errorf("on a real node with nothing between read and write, read-then-write welcomed %d of 32", n)
				}
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

// Without a sandbox the page says so, and a posted race runs nothing.
func TestRacePageUnavailable(t *testing.T) {
	t.Parallel()
	st := memoryStores()
	st.claims = nil
	c := newApp(t, st).client(t)
	mustContain(t, c.get("/models/race").body, `id="race-unavailable"`)
	r := c.post("/models/race", url.Values{"name": {"rita"}, "racers": {"4"}})
	mustContain(t, r.body, `id="race-unavailable"`)
	if regexp.MustCompile(`id="race-result"`).MatchString(r.body) {
		t.Error("a race ran without a sandbox")
	}
}
