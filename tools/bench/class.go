package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// ClassConfig drives RunClass: a class of learners, all from one address (a classroom behind
// a NAT), each a browser of its own (a cookie jar), walking the course at a human's pace.
type ClassConfig struct {
	// URLs are the servers (one, or several over one cluster): learner i uses URLs[i mod n], as
	// behind a load balancer that keeps a browser on its server.
	URLs []string
	// Learners in the class, and how long they work.
	Learners int
	Duration time.Duration
	// Think is a learner's mean pause between two actions (each pause is drawn between half and
	// one and a half of it): 15 s is four actions a minute.
	Think time.Duration
	// Addr is the class's one address, sent as X-Forwarded-For (believed by a server run with
	// --trusted-proxies 127.0.0.1; otherwise every learner is 127.0.0.1, one address all the same).
	Addr string
	// SignUp is the share of learners who sign up (the others stay anonymous), and Typos the
	// share of those who mistype once: a sign-up's password too short, a log-in's password wrong.
	SignUp, Typos float64
	// ServerPIDs, when set, are the servers' processes: their CPU time is read from /proc.
	// Otherwise the CPU time is process_cpu_seconds_total of each server's /metrics, when served.
	ServerPIDs []int
	// IdleWait is how long to wait after the run before checking that every console sandbox is
	// gone; 0 waits twice the idle bound the console states, plus 5 s; negative: no check.
	IdleWait time.Duration
	// Seed makes the learners' choices repeatable (0: random).
	Seed uint64
	Log  io.Writer
}

// ClassResult is what RunClass measured. Times are in milliseconds.
type ClassResult struct {
	Learners int     `json:"learners"`
	Seconds  float64 `json:"seconds"`
	Requests int     `json:"requests"`
	// Kinds are the requests by kind ("page", "form POST /models/race", "exercise", ...).
	Kinds []ClassKind `json:"kinds"`
	// Status5xx counts every answer of 500 or more; TransportErrors the requests that got no
	// answer at all.
	Status5xx       int `json:"status_5xx"`
	TransportErrors int `json:"transport_errors"`
	// Refused counts the 429s (every learner is honest); RefusedByLesson by the lesson the
	// learner was in.
	Refused         int            `json:"refused"`
	RefusedByLesson map[string]int `json:"refused_by_lesson"`
	// RefusedAs counts the refusals of learners signed in and of anonymous ones.
	RefusedAs map[string]int `json:"refused_as"`
	// RefusedWhy counts the refusals by kind and by the reason the answer gave.
	RefusedWhy map[string]int `json:"refused_why"`
	// GaveUp counts the actions refused again after waiting the Retry-After once.
	GaveUp int `json:"gave_up"`
	// Leaks are the pages (and console outputs) on which a learner saw another learner's data.
	Leaks       []ClassLeak    `json:"leaks"`
	LeaksByKind map[string]int `json:"leaks_by_where"`
	// Readers are the learners who read each page (or console) where a leak was seen.
	Readers map[string]int `json:"readers"`
	// Page and action times (GETs, and POSTs with the page they lead to).
	PageP50   float64 `json:"page_p50_ms"`
	PageP99   float64 `json:"page_p99_ms"`
	ActionP50 float64 `json:"action_p50_ms"`
	ActionP99 float64 `json:"action_p99_ms"`
	// Account times are the sign-ups' and log-ins' (a password hash each), apart from the
	// actions.
	AccountP50 float64 `json:"account_p50_ms"`
	AccountP99 float64 `json:"account_p99_ms"`
	// CPUSeconds is the server's CPU time over the run (-1: not measured), and
	// CPUPerLearnerMinute that divided by the learners and the run's minutes.
	CPUSeconds          float64 `json:"cpu_seconds"`
	CPUPerLearnerMinute float64 `json:"cpu_per_learner_minute"`
	CPUSource           string  `json:"cpu_source"`
	// Console is what the console part found.
	Console ClassConsole `json:"console"`
}

// ClassKind is one kind of request.
type ClassKind struct {
	Kind     string      `json:"kind"`
	Requests int         `json:"requests"`
	Statuses map[int]int `json:"statuses"`
	Refused  int         `json:"refused"`
	// Tried is how many learners tried it, Never how many of those never got one through.
	Tried int     `json:"learners_tried"`
	Never int     `json:"learners_never"`
	P50   float64 `json:"p50_ms"`
	P99   float64 `json:"p99_ms"`
}

// ClassLeak is one sighting of another learner's data.
type ClassLeak struct {
	Where   string `json:"where"`
	Learner int    `json:"learner"`
	Owner   int    `json:"owner"`
	// Named is true when the page also names the owner (their username).
	Named bool `json:"named"`
}

// ClassConsole is the console part of a run.
type ClassConsole struct {
	// Offered are the languages GET /api/v1/console offered ("" when the route is absent).
	Offered []string `json:"offered"`
	// Skipped counts the console statements not run because no language was offered.
	Skipped int `json:"skipped"`
	// IdleDropped counts the times a learner came back to a console after its idle bound and
	// wrote their row again (the sandbox dropped by design).
	IdleDropped int `json:"idle_dropped"`
	// Sandboxes are the learners who used a console; Gone those whose sandbox was gone after the
	// idle bound; Checked false (with Why) when the check did not run.
	Sandboxes int     `json:"sandboxes"`
	Gone      int     `json:"gone"`
	Checked   bool    `json:"checked"`
	Why       string  `json:"why,omitempty"`
	IdleSec   float64 `json:"idle_bound_s"`
}

// classRun is the shared state of one run.
type classRun struct {
	cfg    ClassConfig
	bases  []string // the servers
	base   string   // the first: the course and the consoles are read from it
	prefix string   // every tag and username of this run starts with it
	tagRE  *regexp.Regexp
	course []classLesson
	start  time.Time

	mu       sync.Mutex
	kinds    map[string]*kindStats
	lessons  map[string]int
	why      map[string]int
	as       map[string]int
	readers  map[string]map[int]bool // the learners who read each page scanned
	leaks    []ClassLeak
	gaveUp   int
	pages    []time.Duration
	actions  []time.Duration
	accounts []time.Duration
	skipped  int
	// idleDropped counts the sandboxes a learner found dropped after leaving them idle past
	// the bound, and wrote again.
	idleDropped int
	used        map[int]*learner // learners who used a console
	console     []consoleInfo
}

type kindStats struct {
	requests, refused int
	statuses          map[int]int
	lat               []time.Duration
	tried, got        map[int]bool
}

type classLesson struct {
	Number    int    `json:"number"`
	Slug      string `json:"slug"`
	URL       string `json:"url"`
	Exercises []struct {
		ID      string   `json:"id"`
		Kind    string   `json:"kind"`
		Choices []string `json:"choices"`
		Format  string   `json:"format"`
	} `json:"exercises"`
}

// consoleInfo is the part of a console's Info the run uses.
type consoleInfo struct {
	Language       string `json:"language"`
	Keyspace       string `json:"keyspace"`
	ColumnFamilies []struct {
		Name       string `json:"name"`
		Type       string `json:"type"`
		Comparator string `json:"comparator"`
	} `json:"column_families"`
	Tables []string `json:"tables"`
	Bounds struct {
		Idle int64 `json:"idle_ns"`
	} `json:"bounds"`
}

// RunClass runs the class for cfg.Duration, then checks the consoles' sandboxes after the idle
// bound, and returns what it measured.
func RunClass(ctx context.Context, cfg ClassConfig) (ClassResult, error) {
	if cfg.Learners <= 0 {
		cfg.Learners = 20
	}
	if cfg.Duration <= 0 {
		cfg.Duration = time.Minute
	}
	if cfg.Think <= 0 {
		cfg.Think = 15 * time.Second
	}
	if cfg.Addr == "" {
		cfg.Addr = "198.51.100.7"
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if len(cfg.URLs) == 0 {
		return ClassResult{}, errors.New("no server to drive")
	}
	bases := make([]string, len(cfg.URLs))
	for i, u := range cfg.URLs {
		if err := CheckLoopback(u); err != nil {
			return ClassResult{}, err
		}
		bases[i] = strings.TrimSuffix(u, "/")
	}
	r := newClassRun(cfg, bases)
	r.prefix = "cl" + randomHex(2)
	r.tagRE = regexp.MustCompile(r.prefix + `t(\d{3,5})`)
	if err := r.loadCourse(ctx); err != nil {
		return ClassResult{}, err
	}
	r.loadConsole(ctx)
	cpu0, cpuSrc := r.cpu(ctx)
	servers := "1 server"
	if len(bases) > 1 {
		servers = strconv.Itoa(len(bases)) + " servers"
	}
	fmt.Fprintf(cfg.Log, "class: %d learners on %s from %s for %v, an action every %v or so; %d lessons; consoles: %v\n",
		cfg.Learners, servers, cfg.Addr, cfg.Duration, cfg.Think, len(r.course), r.languages())
	r.start = time.Now()
	runCtx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	seed := cfg.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	var wg sync.WaitGroup
	for i := range cfg.Learners {
		l := r.newLearner(i, rand.New(rand.NewPCG(seed, uint64(i))))
		wg.Go(func() { l.work(runCtx) })
	}
	wg.Wait()
	elapsed := time.Since(r.start)
	cpu1, _ := r.cpu(ctx)
	res := r.result(elapsed)
	res.CPUSeconds, res.CPUSource = -1, cpuSrc
	if cpu0 >= 0 && cpu1 >= 0 {
		res.CPUSeconds = cpu1 - cpu0
		res.CPUPerLearnerMinute = res.CPUSeconds / (float64(cfg.Learners) * elapsed.Minutes())
	}
	res.Console = r.checkSandboxes(ctx)
	return res, ctx.Err()
}

func newClassRun(cfg ClassConfig, bases []string) *classRun {
	return &classRun{cfg: cfg, bases: bases, base: bases[0], kinds: map[string]*kindStats{}, lessons: map[string]int{},
		why: map[string]int{}, as: map[string]int{}, readers: map[string]map[int]bool{}, used: map[int]*learner{}}
}

func (r *classRun) loadCourse(ctx context.Context) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.base+"/api/v1/course", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /api/v1/course: %d (a server that serves the course?)", res.StatusCode)
	}
	var c struct{ Lessons []classLesson }
	if err := json.NewDecoder(res.Body).Decode(&c); err != nil {
		return fmt.Errorf("GET /api/v1/course: %w", err)
	}
	if len(c.Lessons) == 0 {
		return errors.New("GET /api/v1/course: no lessons")
	}
	r.course = c.Lessons
	return nil
}

// loadConsole reads GET /api/v1/console: the languages offered, whatever the answer's shape
// (every object with a "language").
func (r *classRun) loadConsole(ctx context.Context) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.base+"/api/v1/console", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return
	}
	b, _ := io.ReadAll(res.Body)
	r.console = consoleInfos(b)
}

// consoleInfos finds every console's Info in a GET /api/v1/console answer.
func consoleInfos(b []byte) []consoleInfo {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	var out []consoleInfo
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if lang, ok := v["language"].(string); ok && lang != "" {
				var ci consoleInfo
				js, _ := json.Marshal(v)
				if json.Unmarshal(js, &ci) == nil {
					out = append(out, ci)
				}
				return
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return out
}

func (r *classRun) languages() []string {
	var out []string
	for _, c := range r.console {
		out = append(out, c.Language)
	}
	return out
}

// cpu is the servers' CPU seconds so far (-1 when it cannot be read), and where it was read.
func (r *classRun) cpu(ctx context.Context) (float64, string) {
	total := 0.0
	if len(r.cfg.ServerPIDs) > 0 {
		for _, pid := range r.cfg.ServerPIDs {
			s, err := ProcCPUSeconds(pid)
			if err != nil {
				return -1, "not measured: " + err.Error()
			}
			total += s
		}
		return total, "/proc/<pid>/stat"
	}
	for _, base := range r.bases {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return -1, "not measured: " + err.Error()
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		m := regexp.MustCompile(`(?m)^process_cpu_seconds_total ([0-9.e+-]+)$`).FindSubmatch(b)
		if res.StatusCode != http.StatusOK || m == nil {
			return -1, "not measured: the server's /metrics has no process_cpu_seconds_total (give --server-pid)"
		}
		s, err := strconv.ParseFloat(string(m[1]), 64)
		if err != nil {
			return -1, "not measured: " + err.Error()
		}
		total += s
	}
	return total, "/metrics process_cpu_seconds_total"
}

// ProcCPUSeconds is a process's user and system CPU time, from /proc/<pid>/stat (Linux).
func ProcCPUSeconds(pid int) (float64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name, in parentheses, may hold spaces: the fields after it are utime (14th
	// field of the line) and stime (15th), in clock ticks (100 a second on Linux).
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected %q", pid, b)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected %q", pid, b)
	}
	ut, err1 := strconv.ParseFloat(f[11], 64)
	st, err2 := strconv.ParseFloat(f[12], 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return (ut + st) / 100, nil
}

// learner is one simulated learner: a browser (its cookie jar) and, once signed up, a user.
type learner struct {
	r      *classRun
	base   string // the learner's server
	i      int
	rng    *rand.Rand
	client *http.Client
	tag    string // written into everything the learner makes: their lab rows, race, tweets
	name   string // their username, when they sign up
	pass   string
	signs  bool // signs up
	typo   bool // mistypes once
	in     bool // signed in
	token  string
	lesson string // where the learner is, for the refusals by lesson
	next   time.Time
	used   bool // ran a console statement
	// consoleAt is when the learner last ran a statement in each console language.
	consoleAt map[string]time.Time
	// retryAfter is the last answer's Retry-After (1 s without one).
	retryAfter time.Duration
}

func (r *classRun) newLearner(i int, rng *rand.Rand) *learner {
	jar, _ := cookiejar.New(nil)
	l := &learner{r: r, base: r.bases[i%len(r.bases)], i: i, rng: rng, client: &http.Client{Jar: jar, Timeout: time.Minute},
		tag: fmt.Sprintf("%st%03d", r.prefix, i), name: fmt.Sprintf("%su%03d", r.prefix, i),
		pass: "a class password " + randomHex(4)}
	l.signs = rng.Float64() < r.cfg.SignUp
	l.typo = rng.Float64() < r.cfg.Typos
	// Learners do not all begin in the same second: the first action within one think time.
	l.next = r.start.Add(time.Duration(rng.Int64N(int64(r.cfg.Think))))
	return l
}

// pace waits until the learner's next action is due (a clock, not a fixed sleep), and sets the
// one after. It is false when the run is over.
func (l *learner) pace(ctx context.Context) bool {
	t := time.NewTimer(time.Until(l.next))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
	}
	th := l.r.cfg.Think
	l.next = time.Now().Add(th/2 + time.Duration(l.rng.Int64N(int64(th))))
	return true
}

// work is the learner's session: /learn, a sign-up for some, then the lessons from one of their
// own (a class does not all read the same page at once), each lesson's page, its live forms, a
// console statement and its exercises; after the first lesson, those signed up log out and in
// again.
func (l *learner) work(ctx context.Context) {
	if !l.pace(ctx) {
		return
	}
	l.lesson = "learn"
	l.get(ctx, "page", "/learn")
	if l.signs {
		if !l.pace(ctx) || !l.signUp(ctx) {
			return
		}
	}
	n := len(l.r.course)
	first := l.i % n
	for k := 0; ctx.Err() == nil; k++ {
		ls := l.r.course[(first+k)%n]
		if !l.visit(ctx, ls) {
			return
		}
		if l.in && k == 0 {
			if !l.relog(ctx) {
				return
			}
		}
	}
}

// signUp signs up through the page's form (a too-short password first for a learner who
// mistypes), then gets an API token (the course API's answers count in their progress) and
// posts a tweet and a blog entry that carry their tag, as a lesson asks.
func (l *learner) signUp(ctx context.Context) bool {
	l.lesson = "sign-up"
	body, ok := l.get(ctx, "page", "/login")
	if !ok {
		return ctx.Err() == nil
	}
	csrf := csrfOf(body)
	if l.typo {
		l.post(ctx, "sign-up typo", "/signup", url.Values{"csrf_token": {csrf}, "username": {l.name}, "password": {"short"}, "password2": {"short"}, "next": {"/learn"}})
		if !l.pace(ctx) {
			return false
		}
	}
	_, st := l.post(ctx, "sign-up", "/signup", url.Values{"csrf_token": {csrf}, "username": {l.name}, "password": {l.pass}, "password2": {l.pass}, "next": {"/learn"}})
	if st != http.StatusOK {
		return ctx.Err() == nil
	}
	l.in = true
	if !l.pace(ctx) {
		return false
	}
	l.apiToken(ctx)
	if l.token == "" || !l.pace(ctx) {
		return ctx.Err() == nil
	}
	l.api(ctx, "tweet", http.MethodPost, "/api/v1/tweets", map[string]any{"body": "my first tweet " + l.tag})
	if !l.pace(ctx) {
		return false
	}
	l.api(ctx, "blog entry", http.MethodPost, "/api/v1/blog/entries", map[string]any{
		"slug": l.tag, "title": "Notes of " + l.tag, "body": "What I learnt, " + l.tag + ".", "tags": []string{"class"}})
	return true
}

func (l *learner) apiToken(ctx context.Context) {
	b, st := l.api(ctx, "api log-in", http.MethodPost, "/api/v1/sessions", map[string]any{"username": l.name, "password": l.pass})
	var s struct{ Token string }
	if st == http.StatusCreated || st == http.StatusOK {
		_ = json.Unmarshal(b, &s)
		l.token = s.Token
	}
}

// relog logs out and in again through the pages, with a wrong password first for a learner
// who mistypes: a classroom's typos must not lock the others out.
func (l *learner) relog(ctx context.Context) bool {
	l.lesson = "log-in"
	body, ok := l.get(ctx, "page", "/login")
	if !ok {
		return ctx.Err() == nil
	}
	// Signed in, /login redirects home: the home page's form has the token too.
	csrf := csrfOf(body)
	if !l.pace(ctx) {
		return false
	}
	l.post(ctx, "log-out", "/logout", url.Values{"csrf_token": {csrf}})
	l.in = false
	body, ok = l.get(ctx, "page", "/login")
	if !ok {
		return ctx.Err() == nil
	}
	csrf = csrfOf(body)
	if l.typo {
		if !l.pace(ctx) {
			return false
		}
		l.post(ctx, "log-in typo", "/login", url.Values{"csrf_token": {csrf}, "username": {l.name}, "password": {"wrong " + l.pass}, "next": {"/learn"}})
	}
	if !l.pace(ctx) {
		return false
	}
	if _, st := l.post(ctx, "log-in", "/login", url.Values{"csrf_token": {csrf}, "username": {l.name}, "password": {l.pass}, "next": {"/learn"}}); st == http.StatusOK {
		l.in = true
	}
	return true
}

// visit is one lesson: its page, each of its live forms, a console statement, and up to two of
// its exercises through the course API (a wrong answer, then the model answer).
func (l *learner) visit(ctx context.Context, ls classLesson) bool {
	l.lesson = ls.Slug
	if !l.pace(ctx) {
		return false
	}
	body, ok := l.get(ctx, "page", ls.URL)
	if !ok {
		return ctx.Err() == nil
	}
	forms := liveForms(body)
	for _, f := range forms {
		if !l.pace(ctx) {
			return false
		}
		l.submit(ctx, f)
	}
	if !l.pace(ctx) {
		return false
	}
	l.consoleStep(ctx)
	exs := ls.Exercises
	if len(exs) > 2 {
		k := l.rng.IntN(len(exs) - 1)
		exs = exs[k : k+2]
	}
	for _, e := range exs {
		if !l.pace(ctx) {
			return false
		}
		b, st := l.api(ctx, "exercise", http.MethodPost, "/api/v1/exercises/"+e.ID+"/answers", map[string]any{"answer": wrongAnswer(e.Kind, e.Format, e.Choices)})
		var g struct {
			Verdict     string `json:"verdict"`
			ModelAnswer string `json:"model_answer"`
		}
		if st != http.StatusOK || json.Unmarshal(b, &g) != nil || g.Verdict == "correct" || g.ModelAnswer == "" {
			continue
		}
		if !l.pace(ctx) {
			return false
		}
		l.api(ctx, "exercise", http.MethodPost, "/api/v1/exercises/"+e.ID+"/answers", map[string]any{"answer": g.ModelAnswer})
	}
	return true
}

// wrongAnswer is an answer in the exercise's format that is likely wrong.
func wrongAnswer(kind, format string, choices []string) string {
	switch {
	case len(choices) > 0:
		return choices[len(choices)-1]
	case kind == "design":
		return "partition: body"
	case strings.Contains(format, "whole number"):
		return "1"
	case strings.Contains(format, "table"):
		return "timeline"
	case strings.Contains(format, "nodes"):
		return "node 1"
	}
	return "none"
}

// consoleStep runs one statement in the learner's sandbox, in each language offered: on the
// first visit a write of their tag, later a read of everything the sandbox holds, which must
// show their rows and nobody else's.
func (l *learner) consoleStep(ctx context.Context) {
	if len(l.r.console) == 0 {
		l.r.mu.Lock()
		l.r.skipped++
		l.r.mu.Unlock()
		return
	}
	c := l.r.console[l.rng.IntN(len(l.r.console))]
	stmts := consoleStatements(c, l.tag)
	if len(stmts) == 0 {
		return
	}
	if !l.used {
		l.used = true
		l.r.mu.Lock()
		l.r.used[l.i] = l
		l.r.mu.Unlock()
	}
	// The learner writes their row at their first statement in a language, and again when
	// they have let the sandbox sit past its idle bound, which drops it by design (not a leak).
	last, wrote := l.consoleAt[c.Language]
	if !wrote || time.Since(last) >= time.Duration(c.Bounds.Idle) {
		if wrote {
			l.r.mu.Lock()
			l.r.idleDropped++
			l.r.mu.Unlock()
		}
		for _, s := range stmts[:len(stmts)-1] {
			l.consoleRun(ctx, c.Language, s)
		}
	}
	if l.consoleAt == nil {
		l.consoleAt = map[string]time.Time{}
	}
	l.consoleAt[c.Language] = time.Now()
	out, st := l.consoleRun(ctx, c.Language, stmts[len(stmts)-1])
	if st == http.StatusOK && !strings.Contains(out, l.tag) {
		l.r.leak(ClassLeak{Where: "console " + c.Language + ": own row missing", Learner: l.i, Owner: l.i})
	}
	l.scan("console "+c.Language, out)
}

// consoleStatements are the statements that write the learner's tag in their sandbox and read
// the whole sandbox back (the last one).
func consoleStatements(c consoleInfo, tag string) []string {
	ks := c.Keyspace
	switch c.Language {
	case "cli":
		for _, cf := range c.ColumnFamilies {
			if cf.Type == "Super" || !slices.Contains([]string{"BytesType", "UTF8Type", "AsciiType"}, shortType(cf.Comparator)) {
				continue
			}
			return []string{
				fmt.Sprintf("set %s.%s['%s']['note'] = '%s'", ks, cf.Name, tag, tag),
				fmt.Sprintf("list %s.%s", ks, cf.Name),
			}
		}
	case "cql":
		return []string{
			fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.notes (k text PRIMARY KEY, v text)", ks),
			fmt.Sprintf("INSERT INTO %s.notes (k, v) VALUES ('%s', '%s')", ks, tag, tag),
			fmt.Sprintf("SELECT * FROM %s.notes", ks),
		}
	}
	return nil
}

func shortType(t string) string { return t[strings.LastIndexByte(t, '.')+1:] }

func (l *learner) consoleRun(ctx context.Context, lang, stmt string) (string, int) {
	b, st := l.api(ctx, "console", http.MethodPost, "/api/v1/console", map[string]any{"language": lang, "statement": stmt})
	var out struct{ Output string }
	_ = json.Unmarshal(b, &out)
	return out.Output, st
}

// form is a lesson's form a learner submits.
type form struct {
	method, action string
	fields         url.Values
}

var (
	formRE  = regexp.MustCompile(`(?s)<form\b([^>]*)>(.*?)</form>`)
	fieldRE = regexp.MustCompile(`(?s)<(select)\b([^>]*)>(.*?)</select>|<(input|textarea|button)\b([^>]*)>`)
	attrRE  = regexp.MustCompile(`([a-z_-]+)(?:="([^"]*)")?`)
	optRE   = regexp.MustCompile(`<option\b([^>]*)>([^<]*)`)
)

func attrs(s string) map[string]string {
	m := map[string]string{}
	for _, a := range attrRE.FindAllStringSubmatch(s, -1) {
		m[a[1]] = html.UnescapeString(a[2])
	}
	return m
}

// liveForms are a lesson page's forms other than its exercises (answered through the API) and
// log-out: the lab writes, the race, the consistency steps and trials, the sandbox runs. Each is
// filled as a learner would leave it, a button's first value chosen, and a text field named for
// a value (value, name, body) given the learner's tag.
func liveForms(page string) []form {
	var out []form
	for _, m := range formRE.FindAllStringSubmatch(page, -1) {
		fa := attrs(m[1])
		action := fa["action"]
		if action == "" || strings.Contains(action, "/exercises/") || action == "/logout" || strings.HasPrefix(action, "http") {
			continue
		}
		f := form{method: strings.ToUpper(fa["method"]), action: action, fields: url.Values{}}
		if f.method == "" {
			f.method = http.MethodGet
		}
		buttons := 0
		for _, fm := range fieldRE.FindAllStringSubmatch(m[2], -1) {
			tag, a := fm[1], attrs(fm[2])
			if tag == "" {
				tag, a = fm[4], attrs(fm[5])
			}
			name := a["name"]
			if name == "" {
				continue
			}
			switch tag {
			case "select":
				// The selected option, else the first; an option without a value sends its text.
				for i, o := range optRE.FindAllStringSubmatch(fm[3], -1) {
					oa := attrs(o[1])
					v, ok := oa["value"]
					if !ok {
						v = html.UnescapeString(strings.TrimSpace(o[2]))
					}
					if _, sel := oa["selected"]; i == 0 || sel {
						f.fields.Set(name, v)
					}
				}
			case "button":
				if buttons == 0 {
					f.fields.Set(name, a["value"])
				}
				buttons++
			default:
				switch a["type"] {
				case "checkbox":
					continue
				case "radio":
					if !f.fields.Has(name) {
						f.fields.Set(name, a["value"])
					}
					continue
				}
				f.fields.Set(name, a["value"])
			}
		}
		out = append(out, f)
	}
	return out
}

// submit sends one of a lesson's forms, the learner's tag in its text fields.
func (l *learner) submit(ctx context.Context, f form) {
	v := url.Values{}
	for k, vs := range f.fields {
		v[k] = slices.Clone(vs)
	}
	for _, k := range []string{"value", "name", "body", "user"} {
		if !v.Has(k) {
			continue
		}
		switch {
		case k == "user" && l.in:
			v.Set(k, l.name)
		case k == "user":
		default:
			v.Set(k, l.tag)
		}
	}
	path := strings.SplitN(f.action, "#", 2)[0]
	kind := "form " + f.method + " " + path
	if f.method == http.MethodGet {
		q := v.Encode()
		if strings.Contains(path, "?") {
			path += "&" + q
		} else {
			path += "?" + q
		}
		l.get(ctx, kind, path)
		return
	}
	l.post(ctx, kind, path, v)
}

var csrfRE = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

func csrfOf(page string) string {
	if m := csrfRE.FindStringSubmatch(page); m != nil {
		return m[1]
	}
	return ""
}

// get reads a page, following redirects, and scans it for other learners' data.
func (l *learner) get(ctx context.Context, kind, path string) (string, bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.base+path, nil)
	if err != nil {
		return "", false
	}
	body, st := l.do(ctx, kind, req, true)
	return body, st == http.StatusOK
}

// post submits a form with the page's CSRF token (the form's own, else the last page's).
func (l *learner) post(ctx context.Context, kind, path string, v url.Values) (string, int) {
	if !v.Has("csrf_token") {
		v.Set("csrf_token", l.csrf(ctx))
	}
	mk := func() (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.base+path, strings.NewReader(v.Encode()))
		if err == nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		return req, err
	}
	req, err := mk()
	if err != nil {
		return "", 0
	}
	body, st := l.do(ctx, kind, req, false)
	if st == http.StatusTooManyRequests {
		// A learner refused waits as told, once, and tries again.
		if l.waitRetry(ctx) {
			if req, err = mk(); err == nil {
				body, st = l.do(ctx, kind, req, false)
			}
		}
		if st == http.StatusTooManyRequests {
			l.r.mu.Lock()
			l.r.gaveUp++
			l.r.mu.Unlock()
		}
	}
	return body, st
}

func (l *learner) csrf(ctx context.Context) string {
	body, _ := l.get(ctx, "page", "/learn")
	return csrfOf(body)
}

// api calls the JSON API, with the learner's token when they have one, and their cookies.
func (l *learner) api(ctx context.Context, kind, method, path string, body any) ([]byte, int) {
	js, _ := json.Marshal(body)
	mk := func() (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, method, l.base+path, bytes.NewReader(js))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			if l.token != "" && l.in {
				req.Header.Set("Authorization", "Bearer "+l.token)
			}
		}
		return req, err
	}
	req, err := mk()
	if err != nil {
		return nil, 0
	}
	b, st := l.do(ctx, kind, req, false)
	if st == http.StatusTooManyRequests {
		if l.waitRetry(ctx) {
			if req, err = mk(); err == nil {
				b, st = l.do(ctx, kind, req, false)
			}
		}
		if st == http.StatusTooManyRequests {
			l.r.mu.Lock()
			l.r.gaveUp++
			l.r.mu.Unlock()
		}
	}
	return []byte(b), st
}

// waitRetry waits the last refusal's Retry-After, bounded by three think times, and is false
// when the run ends first.
func (l *learner) waitRetry(ctx context.Context) bool {
	wait := min(l.retryAfter, 3*l.r.cfg.Think)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// do sends one request as the class's address and records it; page says it is a read whose
// page is scanned for other learners' data.
func (l *learner) do(ctx context.Context, kind string, req *http.Request, page bool) (string, int) {
	req.Header.Set("X-Forwarded-For", l.r.cfg.Addr)
	began := time.Now()
	res, err := l.client.Do(req)
	lat := time.Since(began)
	if err != nil {
		if ctx.Err() == nil {
			l.r.record(l, kind, 0, lat, page)
		}
		return "", 0
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	l.retryAfter = time.Second
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s > 0 {
		l.retryAfter = time.Duration(s) * time.Second
	}
	body := string(b)
	final := res.Request.URL.Path
	l.r.record(l, kind, res.StatusCode, lat, page || req.Method == http.MethodGet)
	if res.StatusCode == http.StatusTooManyRequests {
		l.r.mu.Lock()
		l.r.why[kind+": "+refusalReason(body)]++
		l.r.mu.Unlock()
	}
	if res.StatusCode == http.StatusOK && (strings.HasPrefix(final, "/learn") || strings.HasPrefix(final, "/models")) {
		l.scan(final, body)
	}
	return body, res.StatusCode
}

// scan records each other learner's tag on a page the learner reads.
func (l *learner) scan(where, body string) {
	l.r.mu.Lock()
	if l.r.readers[where] == nil {
		l.r.readers[where] = map[int]bool{}
	}
	l.r.readers[where][l.i] = true
	l.r.mu.Unlock()
	seen := map[int]bool{}
	for _, m := range l.r.tagRE.FindAllStringSubmatch(body, -1) {
		owner, _ := strconv.Atoi(m[1])
		if owner == l.i || seen[owner] {
			continue
		}
		seen[owner] = true
		named := strings.Contains(body, fmt.Sprintf("%su%03d", l.r.prefix, owner))
		l.r.leak(ClassLeak{Where: where, Learner: l.i, Owner: owner, Named: named})
	}
}

var (
	reasonRE  = regexp.MustCompile(`could not start: ([^.]+)\.`)
	messageRE = regexp.MustCompile(`"message":"([^"]*)"|<h1>[^<]*</h1><p>([^<]*)</p>`)
	digitsRE  = regexp.MustCompile(`[0-9]+ seconds?`)
)

// refusalReason is why a 429 said it refused: a gate's reason ("2 are running on this server"),
// else its message, without the seconds to wait.
func refusalReason(body string) string {
	body = html.UnescapeString(body)
	if m := reasonRE.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	if m := messageRE.FindStringSubmatch(body); m != nil {
		s := m[1] + m[2]
		if len(s) > 120 {
			s = s[:120]
		}
		return digitsRE.ReplaceAllString(s, "N seconds")
	}
	return "(no message)"
}

func (r *classRun) leak(k ClassLeak) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.leaks) < 10_000 {
		r.leaks = append(r.leaks, k)
	}
}

// record counts one answer (status 0: none came).
func (r *classRun) record(l *learner, kind string, status int, lat time.Duration, read bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := r.kinds[kind]
	if k == nil {
		k = &kindStats{statuses: map[int]int{}, tried: map[int]bool{}, got: map[int]bool{}}
		r.kinds[kind] = k
	}
	k.requests++
	k.statuses[status]++
	k.tried[l.i] = true
	switch {
	case status == http.StatusTooManyRequests:
		k.refused++
		r.lessons[l.lesson]++
		if l.in {
			r.as["signed in"]++
		} else {
			r.as["anonymous"]++
		}
	case status > 0 && status < 500:
		k.got[l.i] = true
		k.lat = append(k.lat, lat)
		switch {
		case accountKinds[kind]:
			r.accounts = append(r.accounts, lat)
		case read:
			r.pages = append(r.pages, lat)
		default:
			r.actions = append(r.actions, lat)
		}
	}
}

// accountKinds are the requests that check or hash a password.
var accountKinds = map[string]bool{"sign-up": true, "sign-up typo": true, "log-in": true, "log-in typo": true, "api log-in": true}

func (r *classRun) result(elapsed time.Duration) ClassResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := ClassResult{Learners: r.cfg.Learners, Seconds: elapsed.Seconds(), RefusedByLesson: maps.Clone(r.lessons), RefusedWhy: maps.Clone(r.why), RefusedAs: maps.Clone(r.as),
		Leaks: slices.Clone(r.leaks), LeaksByKind: map[string]int{}, GaveUp: r.gaveUp}
	for name, k := range r.kinds {
		slices.Sort(k.lat)
		ck := ClassKind{Kind: name, Requests: k.requests, Statuses: maps.Clone(k.statuses), Refused: k.refused,
			Tried: len(k.tried), Never: len(k.tried) - len(k.got), P50: ms(percentile(k.lat, 0.5)), P99: ms(percentile(k.lat, 0.99))}
		res.Kinds = append(res.Kinds, ck)
		res.Requests += k.requests
		res.Refused += k.refused
		for st, n := range k.statuses {
			switch {
			case st == 0:
				res.TransportErrors += n
			case st >= 500:
				res.Status5xx += n
			}
		}
	}
	slices.SortFunc(res.Kinds, func(a, b ClassKind) int { return strings.Compare(a.Kind, b.Kind) })
	res.Readers = map[string]int{}
	for _, lk := range r.leaks {
		res.LeaksByKind[lk.Where]++
		res.Readers[lk.Where] = len(r.readers[lk.Where])
	}
	slices.Sort(r.pages)
	slices.Sort(r.actions)
	res.PageP50, res.PageP99 = ms(percentile(r.pages, 0.5)), ms(percentile(r.pages, 0.99))
	res.ActionP50, res.ActionP99 = ms(percentile(r.actions, 0.5)), ms(percentile(r.actions, 0.99))
	slices.Sort(r.accounts)
	res.AccountP50, res.AccountP99 = ms(percentile(r.accounts, 0.5)), ms(percentile(r.accounts, 0.99))
	res.Console = ClassConsole{Offered: r.languages(), Skipped: r.skipped, Sandboxes: len(r.used), IdleDropped: r.idleDropped}
	return res
}

// checkSandboxes waits the consoles' idle bound after the run, then asks each learner's
// sandbox, through GET /api/v1/console (which makes nothing), whether it still holds the
// table it made (cql); on cli, whose column families are the same for everyone, a read of the
// row the learner wrote must find it gone.
func (r *classRun) checkSandboxes(ctx context.Context) ClassConsole {
	r.mu.Lock()
	c := ClassConsole{Offered: r.languages(), Skipped: r.skipped, Sandboxes: len(r.used), IdleDropped: r.idleDropped}
	used := make([]*learner, 0, len(r.used))
	for _, l := range r.used {
		used = append(used, l)
	}
	r.mu.Unlock()
	switch {
	case len(r.console) == 0:
		c.Why = "the server offers no console (GET /api/v1/console): no sandbox to check"
		return c
	case r.cfg.IdleWait < 0:
		c.Why = "not asked (--idle-wait negative)"
		return c
	case len(used) == 0:
		c.Why = "no learner used a console"
		return c
	}
	var idle time.Duration
	for _, ci := range r.console {
		idle = max(idle, time.Duration(ci.Bounds.Idle))
	}
	c.IdleSec = idle.Seconds()
	wait := r.cfg.IdleWait
	if wait == 0 {
		if idle <= 0 || idle > 10*time.Minute {
			c.Why = fmt.Sprintf("the consoles' idle bound is %v: run the server with a short one, or give --idle-wait", idle)
			return c
		}
		wait = 2*idle + 5*time.Second
	}
	fmt.Fprintf(r.cfg.Log, "waiting %v (the consoles' idle bound is %v) before checking %d sandboxes\n", wait, idle, len(used))
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		c.Why = "interrupted"
		return c
	case <-t.C:
	}
	c.Checked = true
	for _, l := range used {
		if l.sandboxGone(ctx) {
			c.Gone++
		}
	}
	return c
}

func (l *learner) sandboxGone(ctx context.Context) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.base+"/api/v1/console", nil)
	if err != nil {
		return false
	}
	req.Header.Set("X-Forwarded-For", l.r.cfg.Addr)
	if l.token != "" && l.in {
		req.Header.Set("Authorization", "Bearer "+l.token)
	}
	res, err := l.client.Do(req)
	if err != nil {
		return false
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, ci := range consoleInfos(b) {
		switch ci.Language {
		case "cql":
			if len(ci.Tables) > 0 {
				return false
			}
		case "cli":
			stmts := consoleStatements(ci, l.tag)
			if len(stmts) == 0 {
				continue
			}
			out, st := l.consoleRun(ctx, "cli", stmts[len(stmts)-1])
			if st != http.StatusOK || strings.Contains(out, l.tag) {
				return false
			}
		}
	}
	return res.StatusCode == http.StatusOK
}

// Summary is the result as text: the verdicts first, then the requests by kind.
func (r ClassResult) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d learners for %.0f s: %d requests, %d 5xx, %d without an answer\n", r.Learners, r.Seconds, r.Requests, r.Status5xx, r.TransportErrors)
	fmt.Fprintf(&b, "refused (429): %d (%d anonymous, %d signed in), of which %d again after waiting the Retry-After\n",
		r.Refused, r.RefusedAs["anonymous"], r.RefusedAs["signed in"], r.GaveUp)
	if len(r.RefusedByLesson) > 0 {
		keys := make([]string, 0, len(r.RefusedByLesson))
		for k := range r.RefusedByLesson {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s %d", k, r.RefusedByLesson[k])
		}
		fmt.Fprintf(&b, "  by lesson: %s\n", strings.Join(parts, ", "))
	}
	whys := make([]string, 0, len(r.RefusedWhy))
	for k := range r.RefusedWhy {
		whys = append(whys, k)
	}
	slices.Sort(whys)
	for _, k := range whys {
		fmt.Fprintf(&b, "  %d × %s\n", r.RefusedWhy[k], k)
	}
	named := 0
	for _, l := range r.Leaks {
		if l.Named {
			named++
		}
	}
	fmt.Fprintf(&b, "another learner's data seen: %d times (%d with the owner's name on the page)\n", len(r.Leaks), named)
	if len(r.LeaksByKind) > 0 {
		keys := make([]string, 0, len(r.LeaksByKind))
		for k := range r.LeaksByKind {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			learners := map[int]bool{}
			for _, l := range r.Leaks {
				if l.Where == k {
					learners[l.Learner] = true
				}
			}
			fmt.Fprintf(&b, "  %s: %d, by %d of the %d learners who read it\n", k, r.LeaksByKind[k], len(learners), r.Readers[k])
		}
	}
	fmt.Fprintf(&b, "pages p50 %.1f ms p99 %.1f ms; actions p50 %.1f ms p99 %.1f ms; sign-ups and log-ins p50 %.1f ms p99 %.1f ms\n",
		r.PageP50, r.PageP99, r.ActionP50, r.ActionP99, r.AccountP50, r.AccountP99)
	if r.CPUSeconds >= 0 {
		fmt.Fprintf(&b, "server CPU: %.1f s, %.3f s per learner-minute (%s)\n", r.CPUSeconds, r.CPUPerLearnerMinute, r.CPUSource)
	} else {
		fmt.Fprintf(&b, "server CPU: %s\n", r.CPUSource)
	}
	c := r.Console
	switch {
	case len(c.Offered) == 0:
		fmt.Fprintf(&b, "consoles: none offered; %d console statements skipped\n", c.Skipped)
	case c.Checked:
		fmt.Fprintf(&b, "consoles %v: %d sandboxes, %d gone after the idle bound (%.0f s); %d times a learner came back past the bound and wrote again\n", c.Offered, c.Sandboxes, c.Gone, c.IdleSec, c.IdleDropped)
	default:
		fmt.Fprintf(&b, "consoles %v: %d sandboxes, not checked: %s\n", c.Offered, c.Sandboxes, c.Why)
	}
	w := tabwriter.NewWriter(&b, 2, 8, 2, ' ', 0)
	fmt.Fprintln(w, "kind\trequests\trefused\tlearners tried\tnever got one\tp50 ms\tp99 ms\tstatuses\t")
	for _, k := range r.Kinds {
		sts := make([]int, 0, len(k.Statuses))
		for s := range k.Statuses {
			sts = append(sts, s)
		}
		slices.Sort(sts)
		parts := make([]string, len(sts))
		for i, s := range sts {
			parts[i] = fmt.Sprintf("%d:%d", s, k.Statuses[s])
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%s\t\n", k.Kind, k.Requests, k.Refused, k.Tried, k.Never, k.P50, k.P99, strings.Join(parts, " "))
	}
	w.Flush()
	return b.String()
}
