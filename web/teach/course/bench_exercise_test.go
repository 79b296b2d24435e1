package course_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	memteach "twissandra/adapters/memory/teach"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// A grading costs no more than the page its exercise sits on: measured per exercise, page and
// grading in turns, on the backends the course grades without a node (memory, widerow).

// costCase is one exercise of the course: its id, the URL of its lesson's page, its check
// (the page's request that runs what the grading runs, when the API lists one), and its model
// answer (which the store grades correct).
type costCase struct {
	id, page, model string
	check           *web.CourseCheck
}

// costRig is a server of the course with what its exercises read (an author, a fan who follows
// them, a tweet), and a client that reads pages and grades answers on it, each request another
// learner's (an address of its own, through a trusted proxy), so that the gates' bound on one
// learner is not what is measured.
type costRig struct {
	tb      testing.TB
	url     string
	http    *http.Client
	learner int
	// checker sends the checks, a browser of its own (what a check's run leaves in its
	// session, the page shows it; not the pages read alone), csrf its CSRF token.
	checker *http.Client
	csrf    string
}

// cost is what one request cost: its time, the bytes allocated meanwhile (by the server and
// the client, which run in this process; the client reads a page into nothing, an answer's
// JSON into a slice), and the
// storage operations its Storage-Ops header counts.
type cost struct {
	d     time.Duration
	bytes uint64
	ops   int
}

// newCostRig starts the course on st and lists its exercises with their model answers (the
// answer a wrong one brings back).
func newCostRig(tb testing.TB, st webkit.Stores) (*costRig, []costCase) {
	tb.Helper()
	if st.Progress == nil {
		st.Progress = memteach.NewProgress()
	}
	// The rig measures what a grading and its page cost, not the gates: one learner (the
	// checker's browser) runs every check, many times a minute, under bounds that admit them.
	many := frame.GateLimits{PerMinute: 100_000, PerAddress: 100_000}
	app := teachkit.NewAppWithGates(tb, st, web.Config{TrustedProxies: []string{"127.0.0.1"}},
		frame.Gates{Race: many, Lab: many, Trials: many, Rings: many, Sandbox: many, Runs: many})
	checker := app.Client(tb)
	// The rig's reads and answers keep no cookie: each is a learner of its own (an answer's
	// session cookie would make them one learner, held to a gate's minute).
	plain := *app.Client(tb).HTTP
	plain.Jar = nil
	r := &costRig{tb: tb, url: app.Srv.URL, http: &plain, checker: checker.HTTP, csrf: checker.CSRF()}
	for _, u := range []string{"author", "fan"} {
		if _, err := app.Social.SignUp(webkit.BG(), u, "password1"); err != nil {
			tb.Fatal(err)
		}
	}
	if err := app.Social.Follow(webkit.BG(), "fan", "author"); err != nil {
		tb.Fatal(err)
	}
	if _, err := app.Social.Post(webkit.BG(), "author", "the fan-out question's tweet"); err != nil {
		tb.Fatal(err)
	}
	var course struct{ Lessons []web.CourseLesson }
	if err := json.Unmarshal([]byte(r.do(http.MethodGet, "/api/v1/course", "", nil)), &course); err != nil {
		tb.Fatal(err)
	}
	var cases []costCase
	for _, l := range course.Lessons {
		for _, ex := range l.Exercises {
			first := "0"
			if len(ex.Choices) > 0 {
				first = ex.Choices[0]
			}
			if ex.Kind == string(frame.Design) { // "0" is no design: a wrong one says the model
				first = wrongDesign(tb, ex.ID, false)
			}
			cases = append(cases, costCase{id: ex.ID, page: l.URL, check: ex.Check, model: r.answer(ex.ID, first, nil).ModelAnswer})
		}
	}
	return r, cases
}

// do sends a request as a learner of its own and returns its body, its cost in c when c is
// not nil (the body then read into nothing, unless JSON is asked for).
func (r *costRig) do(method, path, body string, c *cost) string {
	r.tb.Helper()
	out, _ := r.send(r.http, method, path, body, "application/json", c)
	return out
}

// send is do of a body of the content type given, which also returns where a redirect (303)
// goes: a page's form answers with one.
func (r *costRig) send(client *http.Client, method, path, body, contentType string, c *cost) (string, string) {
	r.tb.Helper()
	req, err := http.NewRequest(method, r.url+path, strings.NewReader(body))
	if err != nil {
		r.tb.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", contentType)
	}
	r.learner++
	req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", r.learner>>16&255, r.learner>>8&255, r.learner&255))
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before, t0 := m.TotalAlloc, time.Now()
	res, err := client.Do(req)
	if err != nil {
		r.tb.Fatal(err)
	}
	var out []byte
	if c != nil && method == http.MethodGet {
		_, err = io.Copy(io.Discard, res.Body)
	} else {
		out, err = io.ReadAll(res.Body)
	}
	_ = res.Body.Close()
	if c != nil {
		c.d = time.Since(t0)
		runtime.ReadMemStats(&m)
		c.bytes = m.TotalAlloc - before
		c.ops, _ = strconv.Atoi(strings.Fields(res.Header.Get("Storage-Ops") + " 0")[0])
	}
	if res.StatusCode == http.StatusSeeOther && method == http.MethodPost && contentType == formType && err == nil {
		return string(out), res.Header.Get("Location")
	}
	if err != nil || res.StatusCode != http.StatusOK {
		r.tb.Fatalf("%s %s: %d %v %s", method, path, res.StatusCode, err, out)
	}
	return string(out), ""
}

const formType = "application/x-www-form-urlencoded"

// page reads x's page, or sends its check when it has one: the page with its live part run
// (a GET with a query, or its form posted and the page it goes back to read, the two costs
// summed).
func (r *costRig) page(x costCase, c *cost) {
	r.tb.Helper()
	switch {
	case x.check == nil:
		r.do(http.MethodGet, x.page, "", c)
	case x.check.Method == http.MethodGet:
		r.send(r.checker, http.MethodGet, x.check.URL, "", "", c)
	default:
		form := url.Values{site.CSRFField: {r.csrf}}
		for k, v := range x.check.Form {
			form.Set(k, v)
		}
		var post cost
		_, back := r.send(r.checker, http.MethodPost, x.check.URL, form.Encode(), formType, &post)
		if back == "" {
			r.tb.Fatalf("%s: the check %s %s went nowhere", x.id, x.check.Method, x.check.URL)
		}
		r.send(r.checker, http.MethodGet, strings.SplitN(back, "#", 2)[0], "", "", c)
		c.d, c.bytes, c.ops = c.d+post.d, c.bytes+post.bytes, c.ops+post.ops
	}
}

// answer grades a on exercise id through the API.
func (r *costRig) answer(id, a string, c *cost) web.CourseGrade {
	r.tb.Helper()
	body, _ := json.Marshal(map[string]string{"answer": a})
	var g web.CourseGrade
	if err := json.Unmarshal([]byte(r.do(http.MethodPost, "/api/v1/exercises/"+id+"/answers", string(body), c)), &g); err != nil {
		r.tb.Fatalf("%s: %v", id, err)
	}
	return g
}

// round reads x's page (with its check run, when it has one), then grades its model answer
// (correct, or the test fails), and returns what each cost.
func (r *costRig) round(x costCase) (page, grade cost) {
	r.tb.Helper()
	r.page(x, &page)
	if g := r.answer(x.id, x.model, &grade); g.Verdict != "correct" {
		r.tb.Fatalf("%s: the model answer %q graded %+v", x.id, x.model, g)
	}
	// The check runs what the grading runs: at least its storage calls (a refused run has none).
	if x.check != nil && page.ops < grade.ops {
		r.tb.Fatalf("%s: the check %s %s cost %d storage operations, the grading %d: it did not run what the grading runs", x.id, x.check.Method, x.check.URL, page.ops, grade.ops)
	}
	return page, grade
}

// BenchmarkExerciseAgainstItsPage grades each exercise of the course (its model answer, through
// the API) and reads the lesson page it sits on, in turns, and reports per exercise the time
// of a grading over the time of its page (grade/page; at most 1, a grading costs no more than
// the page), the same of the bytes allocated (bytes-grade/page), and the storage operations of
// each. An exercise with a check is held to it, the page with its run: for it the benchmark
// also sends the check each round, and reports the grading over it (grade/check,
// bytes-grade/check, check-ops) beside the grading over the page read alone. Run:
// go test -run '^$' -bench ExerciseAgainstItsPage -benchtime 40x ./web/teach/course/
func BenchmarkExerciseAgainstItsPage(b *testing.B) {
	for _, backend := range []string{"widerow", "memory"} {
		st := webkit.MemoryStores()
		if backend == "widerow" {
			st = webkit.WiderowStores(b)
		}
		rig, cases := newCostRig(b, st)
		for _, x := range cases {
			b.Run(backend+"/"+x.id, func(b *testing.B) {
				rig.tb = b
				var paged, checked, graded cost
				plain := x
				plain.check = nil
				for b.Loop() {
					if x.check != nil {
						var c cost
						rig.page(x, &c)
						checked.d, checked.bytes, checked.ops = checked.d+c.d, checked.bytes+c.bytes, c.ops
					}
					p, g := rig.round(plain)
					paged.d, graded.d = paged.d+p.d, graded.d+g.d
					paged.bytes, graded.bytes = paged.bytes+p.bytes, graded.bytes+g.bytes
					paged.ops, graded.ops = p.ops, g.ops
				}
				b.ReportMetric(float64(graded.d)/float64(paged.d), "grade/page")
				b.ReportMetric(float64(graded.bytes)/float64(paged.bytes), "bytes-grade/page")
				b.ReportMetric(float64(paged.ops), "page-ops")
				b.ReportMetric(float64(graded.ops), "grade-ops")
				if x.check != nil {
					b.ReportMetric(float64(graded.d)/float64(checked.d), "grade/check")
					b.ReportMetric(float64(graded.bytes)/float64(checked.bytes), "bytes-grade/check")
					b.ReportMetric(float64(checked.ops), "check-ops")
				}
			})
		}
	}
}

// costRounds are the rounds of page and grading TestGradingCostsNoMoreThanItsPage measures
// per exercise; costMargin is what a grading's median may exceed its page's by, raceMargin
// the same under the race detector.
const (
	costRounds = 7
	costMargin = 1.1
	raceMargin = 6
)

// Every exercise's grading costs no more than its page: the median of the bytes a grading
// allocates, over costRounds rounds, is at most costMargin times its page's. An exercise whose
// grading runs what reading its page does not (a sandbox's scenario, the consistency lab's
// trials, a rehearsal on a node of its own, the address book's form) is held to its check:
// the page with that run, as a learner asks for it. Allocations, not times: a shared machine's times vary far more than a tenth from one
// run to the next (the test logs them, the benchmark reports both). The bytes are the
// process's: the test runs alone, not in parallel. Under the race detector, whose pools drop
// buffers at random, a grading measured from one to three times its page from run to run:
// there the test holds a grading to raceMargin times its page, which still tells one that
// opens a store of its own (11 to 23 times its page) from one that does not.
func TestGradingCostsNoMoreThanItsPage(t *testing.T) {
	margin := costMargin
	if raceDetector {
		margin = raceMargin
	}
	for name, st := range map[string]webkit.Stores{"memory": webkit.MemoryStores(), "widerow": webkit.WiderowStores(t)} {
		t.Run(name, func(t *testing.T) {
			rig, cases := newCostRig(t, st)
			for _, x := range cases {
				rig.round(x) // the first grading opens what later ones reuse
				var pb, gb []uint64
				var pd, gd []time.Duration
				var p, g cost
				for range costRounds {
					p, g = rig.round(x)
					pb, gb, pd, gd = append(pb, p.bytes), append(gb, g.bytes), append(pd, p.d), append(gd, g.d)
				}
				ratio := float64(median(gb)) / float64(median(pb))
				t.Logf("%s: grading/page bytes %.2f (%d/%d), time %.2f, storage ops %d/%d", x.id, ratio, median(gb), median(pb),
					float64(median(gd))/float64(median(pd)), g.ops, p.ops)
				if ratio > margin {
					t.Errorf("%s: a grading allocates %d bytes (median of %d), its page %s %d: %.2f times", x.id, median(gb), costRounds, x.page, median(pb), ratio)
				}
			}
		})
	}
}

func median[T uint64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
