package labs_test

import (
	"html"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// The race page on every backend (cql3 with TWISSANDRA_CQL_HOSTS): one LWT winner of 32, at
// least one read-then-write winner, the store names one racer and the page counts the
// overwritten accounts. With a sign-up's window (the time of a sign-up's hash, waited) most
// racers are welcomed on every backend, as docs/teaching.md and the page say; with nothing between
// the read and the write the real node still welcomes more than one. The form answers with a
// redirect to the page, which shows the race; a reload runs nothing again. Bad input is
// refused on the page after the redirect; a forged form is a 403.
func TestRacePage(t *testing.T) {
	t.Parallel()
	backends := map[string]func(t *testing.T) webkit.Stores{
		"memory":  func(*testing.T) webkit.Stores { return webkit.MemoryStores() },
		"widerow": func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) },
	}
	if os.Getenv("TWISSANDRA_CQL_HOSTS") != "" {
		backends["cql3"] = func(t *testing.T) webkit.Stores { st, _ := webkit.CQL3Stores(t); return st }
	}
	rtwWinners := regexp.MustCompile(`<strong id="rtw-winners">(\d+)</strong> of 32`)
	for name, st := range backends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := teachkit.NewApp(t, st(t)).Client(t)
			webkit.MustContain(t, c.Get("/models/race").Body, `id="race-form"`, "running <strong>"+name+"</strong> store", `id="race-hash" checked`)
			for _, hash := range []bool{true, false} {
				form := url.Values{"name": {"rita"}, "racers": {"32"}}
				window := "Nothing ran between each racer's read and its write"
				if hash {
					form.Set("hash", "on")
					window = "between its read and its write: the time this server took to hash one password as a sign-up does (bcrypt, cost 10: "
				}
				body := html.UnescapeString(c.Submit("/models/race", form, "/models/race#race-result").Body)
				webkit.MustContain(t, body, `<strong id="lwt-winners">1</strong> of 32 sign-ups won.`, "The store names <strong>racer ", window)
				if name != "memory" { // the memory sandbox records no operations
					webkit.MustContain(t, body, "What your race cost")
				}
				m := rtwWinners.FindStringSubmatch(body)
				if m == nil {
					t.Fatal("no read-then-write count")
				}
				n, _ := strconv.Atoi(m[1])
				if n < 1 || n > 32 {
					t.Errorf("read-then-write winners %d", n)
				}
				if n > 1 {
					webkit.MustContain(t, body, "the other "+strconv.Itoa(n-1)+" account")
				}
				if hash && n <= 16 {
					t.Errorf("with a sign-up's window read-then-write welcomed %d of 32: the page promises most", n)
				}
				if name == "cql3" && !hash && n < 2 {
					t.Errorf("on a real node with nothing between read and write, read-then-write welcomed %d of 32", n)
				}
				// A reload shows the same race and runs none.
				if again := html.UnescapeString(c.Get("/models/race").Body); !strings.Contains(again, m[0]) || strings.Contains(again, "What your race cost") {
					t.Errorf("the race after a reload: %v", !strings.Contains(again, m[0]))
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
				body := html.UnescapeString(c.Submit("/models/race", bad.form, "/models/race#race-form").Body)
				webkit.MustContain(t, body, bad.msg, `id="race-error"`)
				webkit.MustNotContain(t, body, `id="race-result"`)
			}
			if r := c.PostRaw("/models/race", url.Values{"name": {"rita"}, "racers": {"4"}}); r.Status != http.StatusForbidden {
				t.Errorf("a form without the CSRF token: %d, want 403", r.Status)
			}
		})
	}
}

// Without a sandbox the page says so, and a posted race runs nothing.
func TestRacePageUnavailable(t *testing.T) {
	t.Parallel()
	st := webkit.MemoryStores()
	st.Claims = nil
	c := teachkit.NewApp(t, st).Client(t)
	webkit.MustContain(t, c.Get("/models/race").Body, `id="race-unavailable"`)
	r := c.Post("/models/race", url.Values{"name": {"rita"}, "racers": {"4"}})
	if r.Status != http.StatusNotFound {
		t.Errorf("a race without a sandbox: %d, want 404", r.Status)
	}
	webkit.MustContain(t, r.Body, `id="race-unavailable"`)
	if regexp.MustCompile(`id="race-result"`).MatchString(r.Body) {
		t.Error("a race ran without a sandbox")
	}
}
