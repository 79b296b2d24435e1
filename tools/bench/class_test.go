package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeCourse is a server of one lesson whose lab shows every learner's rows (a leak), refuses
// every other lab write with 429, answers one exercise in three with a 500, and offers a cli
// console whose sandboxes it keeps apart by session cookie and drops when asked.
type fakeCourse struct {
	mu      sync.Mutex
	rows    []string
	labs    int
	answers int
	console map[string][]string // by session
	swept   bool
}

func (f *fakeCourse) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/course", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"lessons":[{"number":1,"slug":"lab","url":"/learn/lab","exercises":[{"id":"lab-1","kind":"predict","format":"a whole number"}]}]}`)
	})
	session := func(w http.ResponseWriter, r *http.Request) string {
		if c, err := r.Cookie("s"); err == nil {
			return c.Value
		}
		id := randomHex(8)
		http.SetCookie(w, &http.Cookie{Name: "s", Value: id, Path: "/"})
		return id
	}
	mux.HandleFunc("GET /learn/{page...}", func(w http.ResponseWriter, r *http.Request) {
		session(w, r)
		f.mu.Lock()
		rows := strings.Join(f.rows, " ")
		f.mu.Unlock()
		fmt.Fprintf(w, `<form method="post" action="/models/lab/put"><input type="hidden" name="csrf_token" value="tok">`+
			`<input name="value" value="x"><input type="checkbox" name="del" value="1"><button type="submit">Put</button></form>`+
			`<form method="post" action="/learn/exercises/lab-1"><input name="answer"></form><p>%s</p>`, rows)
	})
	mux.HandleFunc("POST /models/lab/put", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.labs++
		n := f.labs
		if r.PostFormValue("csrf_token") == "tok" && r.PostFormValue("del") == "" {
			f.rows = append(f.rows, r.PostFormValue("value"))
		}
		f.mu.Unlock()
		if n%2 == 0 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `<h1>Too many at once</h1><p>The lab could not start: you have begun 3 a minute. Try again in 4 seconds.</p>`)
			return
		}
		http.Redirect(w, r, "/learn/lab", http.StatusSeeOther)
	})
	mux.HandleFunc("POST /api/v1/exercises/lab-1/answers", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.answers++
		n := f.answers
		f.mu.Unlock()
		if n%3 == 0 {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, `{"verdict":"incorrect","model_answer":"2"}`)
	})
	mux.HandleFunc("GET /api/v1/console", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		fmt.Fprint(w, `{"consoles":[{"language":"cli","keyspace":"Sandbox","column_families":[{"name":"Longs","type":"Standard","comparator":"LongType"},{"name":"Notes","type":"Standard","comparator":"org.apache.cassandra.db.marshal.UTF8Type"}],"bounds":{"idle_ns":1000000}}]}`)
	})
	mux.HandleFunc("POST /api/v1/console", func(w http.ResponseWriter, r *http.Request) {
		s := session(w, r)
		f.mu.Lock()
		defer f.mu.Unlock()
		var body struct{ Statement string }
		_ = json.NewDecoder(r.Body).Decode(&body)
		switch {
		case strings.HasPrefix(body.Statement, "set Sandbox.Notes['"):
			tag := strings.SplitN(body.Statement[len("set Sandbox.Notes['"):], "'", 2)[0]
			f.console[s] = append(f.console[s], tag)
			fmt.Fprint(w, `{"output":"Value inserted."}`)
		case body.Statement == "list Sandbox.Notes":
			rows := f.console[s]
			if f.swept {
				rows = nil
			}
			fmt.Fprintf(w, `{"output":"%s"}`, strings.Join(rows, " "))
		default:
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":"invalid","message":"not allowed: %q"}`, body.Statement)
		}
	})
	return mux
}

// The class finds the lesson's form and its exercise, counts the refusals with their reason,
// the 5xx, every learner's sight of another's rows, and checks the console's sandboxes after
// the idle bound.
func TestRunClassCountsRefusalsLeaksAndErrors(t *testing.T) {
	f := &fakeCourse{console: map[string][]string{}}
	srv := httptest.NewServer(f.handler())
	defer srv.Close()
	res, err := RunClass(t.Context(), ClassConfig{URLs: []string{srv.URL}, Learners: 4, Duration: 1500 * time.Millisecond,
		Think: 40 * time.Millisecond, SignUp: 0, IdleWait: time.Millisecond, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res.Summary())
	kinds := map[string]ClassKind{}
	for _, k := range res.Kinds {
		kinds[k.Kind] = k
	}
	lab := kinds["form POST /models/lab/put"]
	if lab.Requests < 4 || lab.Refused == 0 || lab.Refused != lab.Statuses[http.StatusTooManyRequests] {
		t.Errorf("lab writes %+v: want several, some refused", lab)
	}
	if res.RefusedWhy["form POST /models/lab/put: you have begun 3 a minute"] != lab.Refused {
		t.Errorf("refusals by reason %v: want the gate's reason, %d times", res.RefusedWhy, lab.Refused)
	}
	if res.RefusedByLesson["lab"] != res.Refused || res.Refused != lab.Refused || res.RefusedAs["anonymous"] != res.Refused {
		t.Errorf("refused %d, by lesson %v: want all %d in the lab lesson", res.Refused, res.RefusedByLesson, lab.Refused)
	}
	if ex := kinds["exercise"]; ex.Requests < 4 || res.Status5xx != ex.Statuses[http.StatusInternalServerError] || res.Status5xx == 0 {
		t.Errorf("exercises %+v, 5xx %d: want every third a 500, counted", ex, res.Status5xx)
	}
	if k := kinds["page"]; k.Tried != 4 || k.Never != 0 {
		t.Errorf("pages %+v: want all 4 learners", k)
	}
	// Each learner's tag went into the lab's value; the page shows all: each saw the others'.
	seen := map[[2]int]bool{}
	for _, l := range res.Leaks {
		if l.Where == "/learn/lab" && l.Learner != l.Owner && !l.Named {
			seen[[2]int{l.Learner, l.Owner}] = true
		}
	}
	if len(seen) < 2 {
		t.Errorf("leaks %v: want the learners' sights of each other's rows on /learn/lab", res.LeaksByKind)
	}
	// The console: each learner wrote to Notes (the cli column family whose comparator takes a
	// name; not Longs) and read back only their own; the fake drops nothing until swept.
	if res.LeaksByKind["console cli"] != 0 || res.Console.Sandboxes == 0 || !res.Console.Checked || res.Console.Gone != 0 {
		t.Errorf("console %+v, leaks %v: want sandboxes used, checked, none gone (the fake never sweeps)", res.Console, res.LeaksByKind)
	}
	if res.TransportErrors != 0 || res.Requests == 0 {
		t.Errorf("%d requests, %d without an answer", res.Requests, res.TransportErrors)
	}
}

// After a sweep the console's sandboxes read empty: the check counts them gone.
func TestRunClassSandboxesGone(t *testing.T) {
	f := &fakeCourse{console: map[string][]string{}}
	srv := httptest.NewServer(f.handler())
	defer srv.Close()
	r := newClassRun(ClassConfig{IdleWait: time.Millisecond, Think: time.Second, Log: os.Stderr}, []string{srv.URL})
	r.prefix = "cltest"
	r.loadConsole(t.Context())
	if len(r.console) != 1 || r.console[0].Language != "cli" || r.console[0].Bounds.Idle != 1e6 {
		t.Fatalf("console infos %+v", r.console)
	}
	l := r.newLearner(0, rand.New(rand.NewPCG(1, 1)))
	l.used = true
	r.used[0] = l
	l.consoleRun(t.Context(), "cli", "set Sandbox.Notes['"+l.tag+"']['note'] = '"+l.tag+"'")
	if c := r.checkSandboxes(t.Context()); !c.Checked || c.Gone != 0 || c.Sandboxes != 1 {
		t.Fatalf("before the sweep: %+v", c)
	}
	f.mu.Lock()
	f.swept = true
	f.mu.Unlock()
	if c := r.checkSandboxes(t.Context()); !c.Checked || c.Gone != 1 {
		t.Fatalf("after the sweep: %+v", c)
	}
}

func TestLiveFormsAndReasons(t *testing.T) {
	page := `<form method="post" action="/models/race"><input type="hidden" name="csrf_token" value="a&amp;b">` +
		`<input name="name" value="rita"><input name="racers" type="number" value="32"><input name="hash" type="checkbox" value="on">` +
		`<select name="write"><option value="ONE">ONE</option><option value="ALL" selected>ALL</option></select>` +
		`<select name="cmp"><option>LongType</option></select>` +
		`<input type="radio" name="change" value="field"><input type="radio" name="change" value="whole"></form>` +
		`<form method="post" action="/learn/exercises/x-1"><input name="answer"></form>` +
		`<form method="post" action="/logout"></form>` +
		`<form method="get" action="/learn/tokens#ring"><input name="key" value="jericevans"></form>` +
		`<form method="post" action="/learn/paths/act"><button name="action" value="write">W</button><button name="action" value="flush">F</button></form>`
	fs := liveForms(page)
	if len(fs) != 3 {
		t.Fatalf("forms %+v: want the race, the ring and the paths' act, not the exercise or log-out", fs)
	}
	race := fs[0].fields
	if fs[0].method != "POST" || fs[0].action != "/models/race" || race.Get("csrf_token") != "a&b" || race.Get("name") != "rita" ||
		race.Get("racers") != "32" || race.Has("hash") || race.Get("write") != "ALL" || race.Get("cmp") != "LongType" || race.Get("change") != "field" {
		t.Errorf("race form %+v", fs[0])
	}
	if fs[1].method != "GET" || fs[1].fields.Get("key") != "jericevans" {
		t.Errorf("ring form %+v", fs[1])
	}
	if fs[2].fields.Get("action") != "write" {
		t.Errorf("paths form %+v: want the first button's value", fs[2])
	}
	for body, want := range map[string]string{
		`<h1>Too many at once</h1><p>The race could not start: 2 are running on this server. At most 2 run at once.</p>`: "2 are running on this server",
		`{"error":"rate_limited","message":"too many sign-ups from this address; try again in 12 seconds"}`:              "too many sign-ups from this address; try again in N seconds",
		`nothing`: "(no message)",
	} {
		if got := refusalReason(body); got != want {
			t.Errorf("refusalReason(%q) = %q, want %q", body, got, want)
		}
	}
	if got := wrongAnswer("choose", "", []string{"yes", "no"}); got != "no" {
		t.Errorf("wrong answer of a choice: %q", got)
	}
	if got := consoleStatements(consoleInfo{Language: "cql", Keyspace: "sandbox"}, "t1"); len(got) != 3 || got[2] != "SELECT * FROM sandbox.notes" {
		t.Errorf("cql statements %q", got)
	}
}

func TestProcCPUSeconds(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	s, err := ProcCPUSeconds(os.Getpid())
	if err != nil || s < 0 {
		t.Fatalf("%v %v", s, err)
	}
	if _, err := ProcCPUSeconds(1 << 30); err == nil {
		t.Error("a process that does not exist: want an error")
	}
}
