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
	"twissandra/web/teach"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// A gate admits at most Total runs at once, PerLearner at once from one learner, PerMinute
// begun in a minute by one learner and PerAddress by all the learners of one address, and says
// how long to wait otherwise.
func TestGateBounds(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_000_000, 0)
	g := frame.NewGate("race", frame.GateLimits{Total: 2, PerLearner: 1, PerMinute: 3, PerAddress: 5})
	g.Now = func() time.Time { return now }
	leaveA, _, _ := g.Enter("a", "room")
	if leaveA == nil {
		t.Fatal("the first run was refused")
	}
	if leave, wait, why := g.Enter("a", "room"); leave != nil || wait <= 0 || !strings.Contains(why, "still running") {
		t.Fatalf("a second run of one learner at once: admitted=%v wait=%v %q", leave != nil, wait, why)
	}
	leaveB, _, _ := g.Enter("b", "room")
	if leaveB == nil {
		t.Fatal("another learner of the same address was refused")
	}
	if leave, _, why := g.Enter("c", "elsewhere"); leave != nil || !strings.Contains(why, "2 are running") {
		t.Fatalf("a third run on the server at once: admitted=%v %q", leave != nil, why)
	}
	leaveA()
	leaveA() // twice is once
	leaveB()
	// Three a minute from a: the fourth waits until the first of them is a minute old.
	for i := range 2 {
		now = now.Add(10 * time.Second)
		leave, _, why := g.Enter("a", "room")
		if leave == nil {
			t.Fatalf("run %d of a: %q", i+2, why)
		}
		leave()
	}
	now = now.Add(10 * time.Second)
	leave, wait, why := g.Enter("a", "room")
	if leave != nil || wait != 30*time.Second || !strings.Contains(why, "3 a minute") {
		t.Fatalf("a fourth run in a minute: admitted=%v wait=%v %q", leave != nil, wait, why)
	}
	// The room has begun 4 (a's 3, b's 1): one more learner of it passes, the next does not,
	// until the room's first run is a minute old; another address is not counted with it.
	if leave, _, why := g.Enter("d", "room"); leave == nil {
		t.Fatalf("the room's fifth run: %q", why)
	} else {
		leave()
	}
	leave, wait, why = g.Enter("e", "room")
	if leave != nil || wait != 30*time.Second || !strings.Contains(why, "5 were begun in a minute from your address") {
		t.Fatalf("the room's sixth run in a minute: admitted=%v wait=%v %q", leave != nil, wait, why)
	}
	if leave, _, why := g.Enter("e", "elsewhere"); leave == nil {
		t.Fatalf("another address: %q", why)
	} else {
		leave()
	}
	now = now.Add(wait)
	if leave, _, why := g.Enter("a", "room"); leave == nil {
		t.Fatalf("after the wait: %q", why)
	}
	want := "At most 2 run at once on this server; from one learner (signed in, else a browser's session) 1 at a time and 3 a minute; from one address, all its learners together, 5 a minute."
	if g.Bounds() != want {
		t.Fatalf("bounds: %q", g.Bounds())
	}
}

// The race page states its bounds, and past the runs a minute allows, a race is refused with a
// readable 429 page and Retry-After, without running.
func TestRaceIsBounded(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	race := labs.DefaultGates().Race
	webkit.MustContain(t, html.UnescapeString(c.Get("/models/race").Body), `id="race-bounds"`,
		"At most "+strconv.Itoa(race.Total)+" run at once on this server; from one learner (signed in, else a browser's session) 1 at a time and "+strconv.Itoa(race.PerMinute)+" a minute")
	form := url.Values{"name": {"rita"}, "racers": {"2"}}
	for i := range race.PerMinute {
		if r := c.Post("/models/race", form); r.Status != http.StatusSeeOther {
			t.Fatalf("race %d: %d, want the redirect to its result", i+1, r.Status)
		}
	}
	r := c.Post("/models/race", form)
	secs, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.Status != http.StatusTooManyRequests || err != nil || secs < 1 || secs > 60 {
		t.Fatalf("race %d in a minute: %d, Retry-After %q", race.PerMinute+1, r.Status, r.Header.Get("Retry-After"))
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

// A class of 200 behind one address, each learner in a browser of their own that never signed
// in, runs the race, a write of the lab, a step and a run of trials of the consistency lab once
// each: none is refused under the default bounds.
func TestAClassBehindOneAddressIsServed(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	const class = 200
	ring := url.Values{"write": {"ONE"}, "read": {"ONE"}, "delay_a": {"0"}, "delay_b": {"50"}, "delay_c": {"100"},
		"gap": {"10"}, "seed": {"1"}, "value": {"v"}}
	trials := url.Values{"trials": {"10"}}
	for k, v := range ring {
		trials[k] = v
	}
	acts := []struct {
		path string
		form url.Values
	}{
		{"/models/race", url.Values{"name": {"rita"}, "racers": {"2"}}},
		{"/models/lab/insert", url.Values{"names": {"5"}, "value": {"v"}}},
		{"/models/lab/consistency", ring},
		{"/models/lab/consistency/trials", trials},
	}
	for i := range class {
		c := app.Client(t)
		for _, a := range acts {
			if r := c.Post(a.path, a.form); r.Status != http.StatusSeeOther {
				t.Fatalf("learner %d of the class, %s: %d\n%s", i+1, a.path, r.Status, r.Body)
			}
		}
	}
}

// A learner past their own runs a minute is refused while another learner of the same address
// is not; a client that makes a new session at every request is counted by its address, and
// refused past the address's bound however many sessions it makes. The bounds are the
// configured ones (serve's --gate-race), and the page states them.
func TestGatesCountLearnersAndBoundAnAddress(t *testing.T) {
	t.Parallel()
	race := frame.GateLimits{Total: 2, PerLearner: 1, PerMinute: 3, PerAddress: 8}
	app := teachkit.NewAppGates(t, webkit.MemoryStores(), teach.Gates{Race: race})
	form := url.Values{"name": {"rita"}, "racers": {"2"}}
	ann, bob := app.Client(t), app.Client(t)
	webkit.MustContain(t, html.UnescapeString(ann.Get("/models/race").Body),
		"At most 2 run at once on this server; from one learner (signed in, else a browser's session) 1 at a time and 3 a minute; from one address, all its learners together, 8 a minute.")
	for i := range race.PerMinute {
		if r := ann.Post("/models/race", form); r.Status != http.StatusSeeOther {
			t.Fatalf("ann's race %d: %d", i+1, r.Status)
		}
	}
	r := ann.Post("/models/race", form)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("ann's race %d in a minute: %d, want 429 with Retry-After", race.PerMinute+1, r.Status)
	}
	webkit.MustContain(t, html.UnescapeString(r.Body), "you have begun 3 a minute")
	if r := bob.Post("/models/race", form); r.Status != http.StatusSeeOther {
		t.Fatalf("bob's first race, ann refused: %d", r.Status)
	}
	// The address has begun 4; a fresh client (no cookies, a new session) at every request
	// gets the 4 left, then is refused.
	for i := range race.PerAddress - race.PerMinute - 1 {
		if r := app.Client(t).Post("/models/race", form); r.Status != http.StatusSeeOther {
			t.Fatalf("a minted session's race %d: %d", i+1, r.Status)
		}
	}
	for range 3 {
		r := app.Client(t).Post("/models/race", form)
		if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
			t.Fatalf("a minted session past the address's bound: %d, want 429", r.Status)
		}
		webkit.MustContain(t, html.UnescapeString(r.Body), "8 were begun in a minute from your address")
	}
}

// The consistency lab's runs of trials take turns on all but one core, one at a time for each
// learner and TrialsPerMinute a minute; the tokens lesson draws RingsPerMinute rings a minute for
// each learner, then answers 429 with Retry-After.
func TestTrialsAndRingsAreBounded(t *testing.T) {
	t.Parallel()
	gates := labs.DefaultGates()
	if want := max(1, runtime.GOMAXPROCS(0)-1); gates.Trials.Total != want {
		t.Fatalf("the trials' total = %d with GOMAXPROCS %d, want %d", gates.Trials.Total, runtime.GOMAXPROCS(0), want)
	}
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	trials := url.Values{"write": {"ONE"}, "read": {"ONE"}, "delay_a": {"0"}, "delay_b": {"50"}, "delay_c": {"100"},
		"gap": {"10"}, "seed": {"1"}, "trials": {"10"}, "value": {"v"}}
	for i := range gates.Trials.PerMinute {
		if r := c.Post("/models/lab/consistency/trials", trials); r.Status != http.StatusSeeOther {
			t.Fatalf("run of trials %d: %d", i+1, r.Status)
		}
	}
	r := c.Post("/models/lab/consistency/trials", trials)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("run of trials %d in a minute: %d (Retry-After %q)", gates.Trials.PerMinute+1, r.Status, r.Header.Get("Retry-After"))
	}
	for i := range gates.Rings.PerMinute {
		if r := c.Get("/learn/tokens?key=k" + strconv.Itoa(i) + "&nodes=32&rf=3"); r.Status != http.StatusOK {
			t.Fatalf("ring %d: %d", i+1, r.Status)
		}
	}
	r = c.Get("/learn/tokens?key=one-too-many&nodes=32&rf=3")
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("ring %d in a minute: %d (Retry-After %q)", gates.Rings.PerMinute+1, r.Status, r.Header.Get("Retry-After"))
	}
	webkit.MustContain(t, html.UnescapeString(r.Body), "The drawing of a ring could not start: you have begun", "Try again in ")
}

// A run that finds only the server's slots full waits for one (EnterWait), up to its patience:
// admitted as soon as a run ends; refused when none ends in time, and then counted nowhere (the
// learner's minute and the address's are as before); and past gateMaxWaiters per slot, refused
// at once.
func TestGateWaitsBrieflyForTheServersSlot(t *testing.T) {
	t.Parallel()
	g := frame.NewGate("trials", frame.GateLimits{Total: 1, PerLearner: 1, PerMinute: 1, PerAddress: 100})
	leaveA, _, _ := g.Enter("a", "room")
	if leaveA == nil {
		t.Fatal("the first run was refused")
	}
	type entered struct {
		leave func()
		why   string
	}
	got := make(chan entered)
	go func() {
		leave, _, why := g.EnterWait(context.Background(), "b", "room", time.Minute)
		got <- entered{leave, why}
	}()
	for g.Waiting() == 0 {
		runtime.Gosched()
	}
	leaveA()
	b := <-got
	if b.leave == nil {
		t.Fatalf("b, waiting for the slot a left: %q", b.why)
	}
	// None ends: c waits its patience out, and is refused without its run counted.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		leave, _, why := g.EnterWait(ctx, "c", "room", time.Minute)
		got <- entered{leave, why}
	}()
	for g.Waiting() == 0 {
		runtime.Gosched()
	}
	cancel()
	if c := <-got; c.leave != nil || !strings.Contains(c.why, "1 are running") {
		t.Fatalf("c, its request gone while it waited: admitted=%v %q", c.leave != nil, c.why)
	}
	b.leave()
	leaveC, _, why := g.Enter("c", "room")
	if leaveC == nil {
		t.Fatalf("c's refused wait was counted in its minute: %q", why)
	}
	// Eight wait for the one slot at most: the ninth is refused at once.
	waiters := make(chan entered, 9)
	wctx, stop := context.WithCancel(context.Background())
	for i := range 8 {
		go func() {
			leave, _, why := g.EnterWait(wctx, "w"+strconv.Itoa(i), "room", time.Minute)
			waiters <- entered{leave, why}
		}()
	}
	for g.Waiting() < 8 {
		runtime.Gosched()
	}
	if leave, _, why := g.EnterWait(context.Background(), "ninth", "room", time.Minute); leave != nil || !strings.Contains(why, "1 are running") {
		t.Fatalf("a ninth waiter: admitted=%v %q", leave != nil, why)
	}
	stop()
	for range 8 {
		if w := <-waiters; w.leave != nil {
			w.leave()
		}
	}
	leaveC()
}
