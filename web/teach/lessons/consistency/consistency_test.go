package consistency_test

import (
	"context"
	"errors"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"twissandra/adapters/cql3"
	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/domain"
	"twissandra/internal/testkit/cqltest"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
	"twissandra/web/teach/labs"
)

// ringValues is the consistency lab's form: delays in ms, stopped replicas, the levels.
func ringValues(write, read, seed string, stopped ...string) url.Values {
	f := url.Values{"delay_a": {"1"}, "delay_b": {"2"}, "delay_c": {"5"}, "value": {"(900) 976-6666"}, "write": {write}, "read": {read},
		"gap": {"0"}, "seed": {seed}, "back": {"/learn/consistency"}}
	for _, s := range stopped {
		f.Set("stop_"+s, "1")
	}
	return f
}

var eventsList = regexp.MustCompile(`(?s)<ol class="ring-events" id="consistency-events">.*?</ol>`)

// Lesson 15: a write at ONE with C stopped leaves a hint on A, and a read at ALL answers
// Unavailable; C started again receives its hint; the same seed plays the same messages; each
// step's cost is the Thrift calls on the ring's nodes.
func TestLessonConsistency(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	body := html.UnescapeString(c.LessonPage("/learn/consistency"))
	webkit.MustContain(t, body, "ONE waits for 1, QUORUM for 2 (N/2 + 1), ALL for 3", `id="consistency-form"`, `id="trials-form"`, `name="back" value="/learn/consistency"`,
		`href="/learn/glossary#hinted-handoff"`, "At most")
	webkit.MustNotContain(t, body, `id="consistency-run"`, `id="trials-chart"`)

	body = html.UnescapeString(c.Submit("/models/lab/consistency", ringValues("ONE", "ALL", "1", "c"), "/learn/consistency#consistency-run").Body)
	webkit.MustContain(t, body, "The write at ONE answered at", "The read at ALL failed: UnavailableException: ALL blocks for 3 replicas and 2 are up.",
		`<td data-label="state">stopped</td>`, `hints for C`, "C is stopped: A keeps a hint for it", "What your step cost",
		// the calls each replica received: the two live ones' inserts, A's hint, the reads of none (ALL was refused)
		`insert Scratch.Bytes['lab-`, `/ring']["value"] -> applied`, `/hints']["C"] -> applied`)
	webkit.MustNotContain(t, body, `get Scratch.Bytes['lab-`)
	// The diagram: the write to the two live replicas and their acknowledgements, nothing else.
	for kind, n := range map[string]int{"write": 2, "ack": 2, "read": 0, "hint": 0} {
		if got := strings.Count(body, `<g class="step-msg step-`+kind+`">`); got != n {
			t.Errorf("the diagram draws %d messages of kind %s, want %d", got, kind, n)
		}
	}
	body = html.UnescapeString(c.Submit("/models/lab/consistency", ringValues("", "QUORUM", "1"), "/learn/consistency#consistency-run").Body)
	webkit.MustContain(t, body, "Hinted handoff replayed the row to C, up again.", "the hinted row arrives", `The read at QUORUM, sent at 0.000 ms`,
		`get Scratch.Bytes['lab-`, `/ring']["value"] -> 1 column`)
	for kind, n := range map[string]int{"hint": 1, "read": 3, "reply": 3} {
		if got := strings.Count(body, `<g class="step-msg step-`+kind+`">`); got != n {
			t.Errorf("C back: the diagram draws %d messages of kind %s, want %d", got, kind, n)
		}
	}
	webkit.MustNotContain(t, body, "hints for C")

	first := eventsList.FindString(c.Submit("/models/lab/consistency", ringValues("ONE", "ONE", "42"), "/learn/consistency").Body)
	again := eventsList.FindString(c.Submit("/models/lab/consistency", ringValues("ONE", "ONE", "42"), "/learn/consistency").Body)
	other := eventsList.FindString(c.Submit("/models/lab/consistency", ringValues("ONE", "ONE", "43"), "/learn/consistency").Body)
	clean := func(s string) string {
		return regexp.MustCompile(`timestamp[= ]\d+|value=&#34;[^&]*&#34;`).ReplaceAllString(s, "")
	}
	if first == "" || clean(first) != clean(again) || clean(first) == clean(other) {
		t.Errorf("seed 42 twice, then 43:\n%s\n%s\n%s", first, again, other)
	}
	// The trials' form keeps its default count after a step; the step's form keeps its levels
	// after trials.
	webkit.MustContain(t, c.Get("/learn/consistency").Body, `id="trials-count" value="100000"`)
	tr := ringValues("", "", "43")
	tr.Set("trials", "10")
	body = c.Submit("/models/lab/consistency/trials", tr, "/learn/consistency").Body
	webkit.MustContain(t, body, `id="trials-count" value="10"`, `<option value="ONE" selected>`, `id="consistency-value" value="(900) 976-6666"`)
	// A reload runs nothing again.
	if reload := eventsList.FindString(c.Get("/learn/consistency").Body); reload != other {
		t.Errorf("the reload shows another step:\n%s\n%s", reload, other)
	}
}

// The trials: every pair of levels, the same count each; no stale read where R + W > N, and the
// chart draws each pair's measured rate.
func TestLessonConsistencyTrials(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	f := ringValues("", "", "7")
	f.Set("trials", "3000")
	body := html.UnescapeString(c.Submit("/models/lab/consistency/trials", f, "/learn/consistency#consistency-trials").Body)
	webkit.MustContain(t, body, `id="trials-chart"`, "Stale reads in 3000 trials of each pair of levels", "What your trials cost")
	row := regexp.MustCompile(`<tr data-pair="(\w+)-(\w+)"><td data-label="write">\w+</td><td data-label="read">\w+</td><td data-label="R \+ W > N">(yes|no)</td><td data-label="trials">(\d+)</td><td data-label="unavailable">(\d+)</td><td class="stale" data-label="stale">(\d+)</td>`)
	rows := row.FindAllStringSubmatch(body, -1)
	if len(rows) != 9 {
		t.Fatalf("%d rows of trials", len(rows))
	}
	for _, r := range rows {
		stale, _ := strconv.Atoi(r[6])
		overlap := r[3] == "yes"
		if r[4] != "3000" || r[5] != "0" || (overlap && stale != 0) || (r[1] == "ONE" && r[2] == "ONE" && stale == 0) {
			t.Errorf("W=%s R=%s: overlap %s, %s trials, %s unavailable, %d stale", r[1], r[2], r[3], r[4], r[5], stale)
		}
	}
	if n := strings.Count(body, `<g class="trial-bar `); n != 9 {
		t.Errorf("%d bars", n)
	}
	if n := strings.Count(body, `<g class="trial-bar overlap">`); n != 6 {
		t.Errorf("%d bars of overlapping levels", n)
	}
	// C stopped: every pair with ALL is unavailable.
	f.Set("stop_c", "1")
	body = html.UnescapeString(c.Submit("/models/lab/consistency/trials", f, "/learn/consistency#consistency-trials").Body)
	if n := strings.Count(body, " unavailable\">"); n != 5 {
		t.Errorf("C stopped: %d unavailable bars, want 5", n)
	}
}

// Bad input is refused with a sentence on the page and the learner's values kept.
func TestLessonConsistencyRefusals(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	for _, tc := range []struct {
		path, field, value, want string
	}{
		{"/models/lab/consistency", "delay_a", "x", `Replica A's delay: must be a number of milliseconds from 0 to 10000, not "x".`},
		{"/models/lab/consistency", "delay_b", "10001", `Replica B's delay: must be a number of milliseconds from 0 to 10000, not "10001".`},
		{"/models/lab/consistency", "write", "TWO", `The write: must be ONE, QUORUM or ALL, not "TWO".`},
		{"/models/lab/consistency", "gap", "-1", `The gap: must be a number of milliseconds`},
		{"/models/lab/consistency", "seed", "-3", `Seed: must be a whole number from 0, not "-3".`},
		{"/models/lab/consistency", "value", strings.Repeat("v", 101), "Value: must be at most 100 bytes."},
		{"/models/lab/consistency/trials", "trials", "0", "Trials: must be from 1 to 100000."},
		{"/models/lab/consistency/trials", "trials", "many", `Trials: must be a whole number from 1 to 100000, not "many".`},
	} {
		f := ringValues("ONE", "ONE", "1")
		f.Set("trials", "10")
		f.Set(tc.field, tc.value)
		body := html.UnescapeString(c.Submit(tc.path, f, "/learn/consistency#").Body)
		webkit.MustContain(t, body, tc.want)
		if tc.field == "delay_a" {
			webkit.MustContain(t, body, `id="consistency-delay-a" value="x"`)
		}
	}
}

// On the cql3 backend the lesson tries each level on the node: with a keyspace of replication
// factor 3 on one node, ONE succeeds and the coordinator refuses QUORUM and ALL as Unavailable,
// which the page shows from the driver's answer. On another backend it says how to get there.
func TestLessonConsistencyOnCluster(t *testing.T) {
	t.Parallel()
	none := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	webkit.MustContain(t, none.LessonPage("/learn/consistency"), `id="cluster-none"`, "This server runs on the memory backend.")

	ks, hosts, port := cqltest.KeyspaceName(t, "twissandra_test_levels_")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	store, err := cql3.Open(ctx, cql3.Config{Hosts: hosts, Port: port, Keyspace: ks, Replication: "SimpleStrategy:3", Consistency: "ONE",
		Timeout: 20 * time.Second, StartTimeout: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	s, in := store, cqlteach.New(store)
	c := teachkit.NewApp(t, webkit.Stores{Users: s, Tweets: s, Lines: s, Authors: s, Entries: s, Tags: s, Comments: s, Sessions: s, CQL: in, Locator: in, Claims: in,
		Sizes: in, QueryLab: in, Levels: in, Backend: "cql3"}).Client(t)
	body := html.UnescapeString(c.LessonPage("/learn/consistency"))
	webkit.MustContain(t, body, `id="cluster-form"`)
	webkit.MustNotContain(t, body, `id="cluster-levels"`)
	body = html.UnescapeString(c.Submit("/models/lab/consistency/cluster", url.Values{"back": {"/learn/consistency"}}, "/learn/consistency#consistency-cluster").Body)
	webkit.MustContain(t, body, "replication SimpleStrategy replication_factor 3", `<tr data-level="ONE"><th>ONE</th><td data-label="write" class="ok">succeeded`,
		`<tr data-level="QUORUM"><th>QUORUM</th><td data-label="write" class="unavailable">Unavailable: 2 replicas required, 1 alive`,
		`<tr data-level="ALL"><th>ALL</th><td data-label="write" class="unavailable">Unavailable: 3 replicas required, 1 alive`,
		"CONSISTENCY ALL; INSERT INTO race_names", "What your try of the levels cost")
	// The footer names the level each statement was sent at, not the session's (ONE).
	for _, level := range []string{"ONE", "QUORUM", "ALL"} {
		if !regexp.MustCompile(`(?s)<code>(?:INSERT INTO|SELECT [^<]*FROM) race_names[^<]*</code> <span class="op-meta">[a-z]+ · <span class="op-cl">CL ` + level + `</span>`).MatchString(body) {
			t.Errorf("the footer has no statement of race_names at CL %s", level)
		}
	}
}

// FuzzRingForm: whatever a learner types, the form reads into a step the lab accepts, or is
// refused as invalid with a field named; never a panic, never a delay out of bounds.
func FuzzRingForm(f *testing.F) {
	f.Add("1", "2", "5", "ONE", "quorum", "0", "7", "v")
	f.Add("0.0005", "1e3", "NaN", "", "ALL", "-0", "", "")
	f.Add("10000", "10000.0004", "inf", "two", " one ", "3.5", "18446744073709551615", "x")
	f.Fuzz(func(t *testing.T, a, b, c, w, r, gap, seed, value string) {
		form := labs.RingForm{Delay: [3]string{a, b, c}, Write: w, Read: r, Gap: gap, Seed: seed, Value: value}
		s, err := form.Step()
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("%+v: %v", form, err)
			}
			return
		}
		if err := s.Ring.Check(); err != nil {
			t.Fatalf("%+v read into a ring out of bounds: %v", form, err)
		}
		if s.Gap < 0 || s.Gap > teaching.MaxRingDelay {
			t.Fatalf("%+v: gap %d", form, s.Gap)
		}
		for _, l := range []string{s.Write, s.Read} {
			if l != "" && !slices.Contains(teaching.Levels, l) {
				t.Fatalf("%+v: level %q", form, l)
			}
		}
	})
}
