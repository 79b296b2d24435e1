package frame_test

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// A gate admits at most Total runs at once, PerAddr at once from one address and PerMinute
// begun in a minute from one address, and says how long to wait otherwise.
func TestGateBounds(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_000_000, 0)
	g := frame.NewGate("race", 2, 1, 3)
	g.Now = func() time.Time { return now }
	leaveA, _, _ := g.Enter("a")
	if leaveA == nil {
		t.Fatal("the first run was refused")
	}
	if leave, wait, why := g.Enter("a"); leave != nil || wait <= 0 || !strings.Contains(why, "still running") {
		t.Fatalf("a second run from one address at once: admitted=%v wait=%v %q", leave != nil, wait, why)
	}
	leaveB, _, _ := g.Enter("b")
	if leaveB == nil {
		t.Fatal("another address was refused")
	}
	if leave, _, why := g.Enter("c"); leave != nil || !strings.Contains(why, "2 are running") {
		t.Fatalf("a third run on the server at once: admitted=%v %q", leave != nil, why)
	}
	leaveA()
	leaveA() // twice is once
	leaveB()
	// Three a minute from a: the fourth waits until the first of them is a minute old.
	for i := range 2 {
		now = now.Add(10 * time.Second)
		leave, _, why := g.Enter("a")
		if leave == nil {
			t.Fatalf("run %d of a: %q", i+2, why)
		}
		leave()
	}
	now = now.Add(10 * time.Second)
	leave, wait, why := g.Enter("a")
	if leave != nil || wait != 30*time.Second || !strings.Contains(why, "3 a minute") {
		t.Fatalf("a fourth run in a minute: admitted=%v wait=%v %q", leave != nil, wait, why)
	}
	now = now.Add(wait)
	if leave, _, why := g.Enter("a"); leave == nil {
		t.Fatalf("after the wait: %q", why)
	}
	if !strings.Contains(g.Bounds(), "At most 2 run at once on this server, 1 at a time and 3 a minute from one browser (or, for a browser that never signed in, from one address).") {
		t.Fatalf("bounds: %q", g.Bounds())
	}
}

// The race page states its bounds, and past the runs a minute allows, a race is refused with a
// readable 429 page and Retry-After, without running.
func TestRaceIsBounded(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	webkit.MustContain(t, html.UnescapeString(c.Get("/models/race").Body), `id="race-bounds"`,
		"At most "+strconv.Itoa(labs.RaceTotal)+" run at once on this server, 1 at a time and "+strconv.Itoa(labs.RacesPerMinute)+" a minute from one browser")
	form := url.Values{"name": {"rita"}, "racers": {"2"}}
	for i := range labs.RacesPerMinute {
		if r := c.Post("/models/race", form); r.Status != http.StatusSeeOther {
			t.Fatalf("race %d: %d, want the redirect to its result", i+1, r.Status)
		}
	}
	r := c.Post("/models/race", form)
	secs, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.Status != http.StatusTooManyRequests || err != nil || secs < 1 || secs > 60 {
		t.Fatalf("race %d in a minute: %d, Retry-After %q", labs.RacesPerMinute+1, r.Status, r.Header.Get("Retry-After"))
	}
	webkit.MustContain(t, html.UnescapeString(r.Body), "The race could not start: you have begun", "Try again in ")
	webkit.MustNotContain(t, r.Body, `id="race-result"`)
	webkit.MustContain(t, html.UnescapeString(c.Get("/models/lab").Body), `id="lab-bounds"`)
}

// A visitor who leaves mid-race is answered 499 (nginx's "client closed request"), not a 5xx:
// the storage did not fail, and the error log says nothing.
func TestRaceWhoseClientLeftIs499(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	token := c.CSRF()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodPost, "/models/race", strings.NewReader(url.Values{"name": {"rita"}, "racers": {"8"}, "csrf_token": {token}}.Encode())).WithContext(ctx)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	u, _ := url.Parse(app.Srv.URL)
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		req.AddCookie(ck)
	}
	rec := httptest.NewRecorder()
	app.Srv.Config.Handler.ServeHTTP(rec, req)
	if rec.Code != 499 {
		t.Fatalf("a race whose client left: %d, want 499", rec.Code)
	}
}

// A learner is counted by the device a sign-up gave their browser: two learners behind one
// address each have their own allowance, and a client without a device is counted by its
// address, whatever session cookies it drops.
func TestGatesCountLearners(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	form := url.Values{"name": {"rita"}, "racers": {"2"}}
	for _, who := range []string{"ann", "bob"} {
		c := app.Client(t)
		c.SignUp(who)
		for i := range labs.RacesPerMinute {
			if r := c.Post("/models/race", form); r.Status != http.StatusSeeOther {
				t.Fatalf("%s's race %d behind the room's address: %d", who, i+1, r.Status)
			}
		}
		if r := c.Post("/models/race", form); r.Status != http.StatusTooManyRequests {
			t.Fatalf("%s's race %d in a minute: %d, want 429", who, labs.RacesPerMinute+1, r.Status)
		}
	}
	// Without a device, a fresh client (no cookies) each time is still the same address.
	for i := range labs.RacesPerMinute + 1 {
		c := app.Client(t)
		r := c.Post("/models/race", form)
		if want := http.StatusSeeOther; i == labs.RacesPerMinute {
			if r.Status != http.StatusTooManyRequests {
				t.Fatalf("race %d from one address with fresh cookies: %d, want 429", i+1, r.Status)
			}
		} else if r.Status != want {
			t.Fatalf("race %d from one address with fresh cookies: %d", i+1, r.Status)
		}
	}
}

// The consistency lab's runs of trials take turns on all but one core, one at a time for each
// learner and TrialsPerMinute a minute; the tokens lesson draws RingsPerMinute rings a minute for
// each learner, then answers 429 with Retry-After.
func TestTrialsAndRingsAreBounded(t *testing.T) {
	t.Parallel()
	if want := max(1, runtime.GOMAXPROCS(0)-1); labs.TrialsTotal != want {
		t.Fatalf("TrialsTotal = %d with GOMAXPROCS %d, want %d", labs.TrialsTotal, runtime.GOMAXPROCS(0), want)
	}
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	trials := url.Values{"write": {"ONE"}, "read": {"ONE"}, "delay_a": {"0"}, "delay_b": {"50"}, "delay_c": {"100"},
		"gap": {"10"}, "seed": {"1"}, "trials": {"10"}, "value": {"v"}}
	for i := range labs.TrialsPerMinute {
		if r := c.Post("/models/lab/consistency/trials", trials); r.Status != http.StatusSeeOther {
			t.Fatalf("run of trials %d: %d", i+1, r.Status)
		}
	}
	r := c.Post("/models/lab/consistency/trials", trials)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("run of trials %d in a minute: %d (Retry-After %q)", labs.TrialsPerMinute+1, r.Status, r.Header.Get("Retry-After"))
	}
	for i := range labs.RingsPerMinute {
		if r := c.Get("/learn/tokens?key=k" + strconv.Itoa(i) + "&nodes=32&rf=3"); r.Status != http.StatusOK {
			t.Fatalf("ring %d: %d", i+1, r.Status)
		}
	}
	r = c.Get("/learn/tokens?key=one-too-many&nodes=32&rf=3")
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("ring %d in a minute: %d (Retry-After %q)", labs.RingsPerMinute+1, r.Status, r.Header.Get("Retry-After"))
	}
	webkit.MustContain(t, html.UnescapeString(r.Body), "The drawing of a ring could not start: you have begun", "Try again in ")
}
