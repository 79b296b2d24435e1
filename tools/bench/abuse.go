package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"
)

// AbuseConfig drives RunAbuse: one anonymous address does its worst at each gate in turn while a
// bystander reads the public line, and the bystander's latency is compared with an idle server's.
//
// The server must believe X-Forwarded-For from the load generator (serve --trusted-proxies
// 127.0.0.1): the attacker is one address (AttackerAddr), the bystander another.
type AbuseConfig struct {
	URL string
	// Duration of each phase: idle, then each gate.
	Duration time.Duration
	// Workers are the attacker's concurrent requests, all from one address.
	Workers int
	// Gates to try, by name (AbuseGates); empty: all.
	Gates []string
	// BystanderEvery is the bystander's pace: one page of the public line this often.
	BystanderEvery time.Duration
	AttackerAddr   string
	BystanderAddr  string
	Log            io.Writer
}

// AbuseGate is one thing an anonymous visitor can make the server do, as fast as it can.
type AbuseGate struct {
	Name string
	What string
	// prepare runs once before the phase (a page's CSRF token, an entry to comment on).
	prepare func(ctx context.Context, a *attacker) error
	// request is one attack request.
	request func(ctx context.Context, a *attacker) (*http.Request, error)
}

// AbuseGates are the gates RunAbuse knows, in the order it tries them.
var AbuseGates = []AbuseGate{
	// The control: what a flood of requests that start no work costs the server (a 404 of the
	// API), against which each gate's phase is read.
	{Name: "flood", What: "GET /api/v1/no-such-thing as fast as it can (the control: no work started)",
		request: func(ctx context.Context, a *attacker) (*http.Request, error) {
			return a.req(ctx, http.MethodGet, "/api/v1/no-such-thing", nil, "")
		}},
	{Name: "signup", What: "POST /api/v1/users, a new name each time (bcrypt)",
		request: func(ctx context.Context, a *attacker) (*http.Request, error) {
			return a.json(ctx, "/api/v1/users", fmt.Sprintf(`{"username":"abuse_%s","password":"a password of the attacker"}`, randomHex(6)))
		}},
	{Name: "login", What: "POST /api/v1/sessions, a new name each time (password spraying)",
		request: func(ctx context.Context, a *attacker) (*http.Request, error) {
			return a.json(ctx, "/api/v1/sessions", fmt.Sprintf(`{"username":"victim_%s","password":"guess"}`, randomHex(6)))
		}},
	{Name: "comment", What: "POST a 2,000-character comment on the newest blog entry",
		prepare: func(ctx context.Context, a *attacker) error {
			body, err := a.get(ctx, "/api/v1/blog/entries?limit=1")
			if err != nil {
				return err
			}
			m := regexp.MustCompile(`"slug":"([a-z0-9-]+)"`).FindStringSubmatch(body)
			if m == nil {
				return errors.New("no blog entry to comment on (seed --articles)")
			}
			a.target = "/api/v1/blog/entries/" + m[1] + "/comments"
			return nil
		},
		request: func(ctx context.Context, a *attacker) (*http.Request, error) {
			return a.json(ctx, a.target, `{"name":"attacker","text":"`+strings.Repeat("x", 2000)+`"}`)
		}},
	{Name: "consistency", What: "POST /models/lab/consistency/trials with the most trials a run allows",
		prepare: formPage("/learn/consistency"),
		request: func(ctx context.Context, a *attacker) (*http.Request, error) {
			return a.form(ctx, "/models/lab/consistency/trials", url.Values{"write": {"ONE"}, "read": {"ONE"},
				"delay_a": {"0"}, "delay_b": {"50"}, "delay_c": {"100"}, "gap": {"10"}, "seed": {"1"}, "trials": {"100000"}, "value": {"v"}})
		}},
	{Name: "tokens", What: "GET /learn/tokens on the largest simulated ring",
		request: func(ctx context.Context, a *attacker) (*http.Request, error) {
			return a.req(ctx, http.MethodGet, "/learn/tokens?key="+randomHex(6)+"&nodes=32&rf=32", nil, "")
		}},
	{Name: "querylab", What: "POST /learn/act/key, a new primary key each time (cql3: a table each)",
		prepare: formPage("/learn/query-first"),
		request: func(ctx context.Context, a *attacker) (*http.Request, error) {
			cols := []string{"username", "day", "time", "tweet_id", "body"}
			b := make([]byte, 3)
			_, _ = rand.Read(b)
			p, c := cols[int(b[0])%len(cols)], cols[int(b[1])%len(cols)]
			v := url.Values{"pattern": {"userline"}, "p1": {p}}
			if c != p {
				v.Set("c1", c)
				if b[2]%2 == 0 {
					v.Set("d1", "desc")
				}
			}
			return a.form(ctx, "/learn/act/key", v)
		}},
	{Name: "race", What: "POST /models/race (the uniqueness race)",
		prepare: formPage("/models/race"),
		request: func(ctx context.Context, a *attacker) (*http.Request, error) {
			return a.form(ctx, "/models/race", url.Values{})
		}},
	{Name: "lab", What: "POST /models/lab/insert, 50 names at a time",
		prepare: formPage("/models/lab"),
		request: func(ctx context.Context, a *attacker) (*http.Request, error) {
			names := make([]string, 50)
			for i := range names {
				names[i] = randomHex(4)
			}
			return a.form(ctx, "/models/lab/insert", url.Values{"names": {strings.Join(names, " ")}})
		}},
}

// formPage prepares a form gate: a session cookie and the CSRF token of path's form.
func formPage(path string) func(ctx context.Context, a *attacker) error {
	return func(ctx context.Context, a *attacker) error {
		body, err := a.get(ctx, path)
		if err != nil {
			return err
		}
		m := regexp.MustCompile(`name="csrf_token" value="([^"]+)"`).FindStringSubmatch(body)
		if m == nil {
			return fmt.Errorf("no form on %s", path)
		}
		a.csrf = m[1]
		return nil
	}
}

// attacker is one address's client: a cookie jar shared by its workers, as one browser's.
type attacker struct {
	base, addr   string
	client       *http.Client
	csrf, target string
}

func (a *attacker) req(ctx context.Context, method, path string, body io.Reader, ctype string) (*http.Request, error) {
	r, err := http.NewRequestWithContext(ctx, method, a.base+path, body)
	if err != nil {
		return nil, err
	}
	r.Header.Set("X-Forwarded-For", a.addr)
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	return r, nil
}

func (a *attacker) json(ctx context.Context, path, body string) (*http.Request, error) {
	return a.req(ctx, http.MethodPost, path, strings.NewReader(body), "application/json")
}

func (a *attacker) form(ctx context.Context, path string, v url.Values) (*http.Request, error) {
	v.Set("csrf_token", a.csrf)
	return a.req(ctx, http.MethodPost, path, strings.NewReader(v.Encode()), "application/x-www-form-urlencoded")
}

func (a *attacker) get(ctx context.Context, path string) (string, error) {
	r, err := a.req(ctx, http.MethodGet, path, nil, "")
	if err != nil {
		return "", err
	}
	res, err := a.client.Do(r)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET %s: %d", path, res.StatusCode)
	}
	return string(b), err
}

// AbusePhase is what one phase measured.
type AbusePhase struct {
	Gate string
	What string
	// Sent and Refused are the attacker's requests, and those answered 429.
	Sent, Refused int
	// Statuses counts the attacker's answers by status.
	Statuses map[int]int
	// P50 and P99 are the bystander's latencies; Pages the pages it read.
	P50, P99 time.Duration
	Pages    int
	Err      string
	// Seconds is the phase's length.
	Seconds float64
}

// AbuseResult is every phase, the idle one first.
type AbuseResult struct{ Phases []AbusePhase }

// RunAbuse measures the idle phase, then each gate's.
func RunAbuse(ctx context.Context, cfg AbuseConfig) (AbuseResult, error) {
	if cfg.Duration <= 0 {
		cfg.Duration = 10 * time.Second
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 8
	}
	if cfg.BystanderEvery <= 0 {
		cfg.BystanderEvery = 20 * time.Millisecond
	}
	if cfg.AttackerAddr == "" {
		cfg.AttackerAddr = "203.0.113.66"
	}
	if cfg.BystanderAddr == "" {
		cfg.BystanderAddr = "198.51.100.1"
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if err := CheckLoopback(cfg.URL); err != nil {
		return AbuseResult{}, err
	}
	gates := AbuseGates
	if len(cfg.Gates) > 0 {
		gates = nil
		for _, name := range cfg.Gates {
			i := slices.IndexFunc(AbuseGates, func(g AbuseGate) bool { return g.Name == name })
			if i < 0 {
				return AbuseResult{}, fmt.Errorf("no gate %q (gates: %s)", name, gateNames())
			}
			gates = append(gates, AbuseGates[i])
		}
	}
	var res AbuseResult
	fmt.Fprintf(cfg.Log, "idle: the bystander alone for %v\n", cfg.Duration)
	res.Phases = append(res.Phases, runPhase(ctx, cfg, nil))
	for _, g := range gates {
		fmt.Fprintf(cfg.Log, "%s: %s, %d workers from %s for %v\n", g.Name, g.What, cfg.Workers, cfg.AttackerAddr, cfg.Duration)
		res.Phases = append(res.Phases, runPhase(ctx, cfg, &g))
		if err := ctx.Err(); err != nil {
			return res, err
		}
	}
	return res, nil
}

func gateNames() string {
	names := make([]string, len(AbuseGates))
	for i, g := range AbuseGates {
		names[i] = g.Name
	}
	return strings.Join(names, ", ")
}

// runPhase runs the bystander for cfg.Duration, and gate's attacker beside it unless nil.
func runPhase(ctx context.Context, cfg AbuseConfig, gate *AbuseGate) AbusePhase {
	ph := &AbusePhase{Gate: "idle", What: "the bystander alone", Statuses: map[int]int{}, Seconds: cfg.Duration.Seconds()}
	ctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var sent, refused atomic.Int64
	if gate != nil {
		ph.Gate, ph.What = gate.Name, gate.What
		jar, _ := cookiejar.New(nil)
		a := &attacker{base: strings.TrimSuffix(cfg.URL, "/"), addr: cfg.AttackerAddr,
			client: &http.Client{Jar: jar, Timeout: time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
		if gate.prepare != nil {
			if err := gate.prepare(ctx, a); err != nil {
				ph.Err = err.Error()
				return *ph
			}
		}
		for range cfg.Workers {
			wg.Go(func() {
				for ctx.Err() == nil {
					r, err := gate.request(ctx, a)
					if err != nil {
						return
					}
					res, err := a.client.Do(r)
					if err != nil {
						continue
					}
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					sent.Add(1)
					if res.StatusCode == http.StatusTooManyRequests {
						refused.Add(1)
					}
					mu.Lock()
					ph.Statuses[res.StatusCode]++
					mu.Unlock()
				}
			})
		}
	}
	// The bystander: a page of the public line at a steady pace, from an address of its own.
	lat := bystand(ctx, cfg)
	cancel()
	wg.Wait()
	ph.Sent, ph.Refused = int(sent.Load()), int(refused.Load())
	slices.Sort(lat)
	ph.Pages = len(lat)
	if len(lat) > 0 {
		ph.P50, ph.P99 = lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)]
	}
	return *ph
}

// bystand reads the public line at cfg's pace until ctx ends, and returns each page's latency.
func bystand(ctx context.Context, cfg AbuseConfig) []time.Duration {
	var lat []time.Duration
	client := &http.Client{Timeout: 30 * time.Second}
	tick := time.NewTicker(cfg.BystanderEvery)
	defer tick.Stop()
	for ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-tick.C:
			r, _ := http.NewRequestWithContext(context.WithoutCancel(ctx), http.MethodGet, strings.TrimSuffix(cfg.URL, "/")+"/api/v1/public?limit=20", nil)
			r.Header.Set("X-Forwarded-For", cfg.BystanderAddr)
			began := time.Now()
			res, err := client.Do(r)
			if err != nil {
				continue
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				lat = append(lat, time.Since(began))
			}
		}
	}
	return lat
}

// Summary is the result as a table: each gate's attack and the bystander's p99 against idle.
func (r AbuseResult) Summary() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 2, 8, 2, ' ', 0)
	fmt.Fprintln(w, "gate\tattacker answers/s\trefused (429)\tbystander p50\tp99\tp99 / idle p99\tp99 / flood p99\t")
	var idle, flood time.Duration
	for _, p := range r.Phases {
		switch p.Gate {
		case "idle":
			idle = p.P99
		case "flood":
			flood = p.P99
		}
		if p.Err != "" {
			fmt.Fprintf(w, "%s\t(not run: %s)\t\t\t\t\t\n", p.Gate, p.Err)
			continue
		}
		ratio, vsFlood := "-", "-"
		if idle > 0 && p.Gate != "idle" {
			ratio = fmt.Sprintf("%.2f", float64(p.P99)/float64(idle))
		}
		if flood > 0 && p.Gate != "idle" && p.Gate != "flood" {
			vsFlood = fmt.Sprintf("%.2f", float64(p.P99)/float64(flood))
		}
		refused := "-"
		if p.Sent > 0 {
			refused = fmt.Sprintf("%.1f%%", 100*float64(p.Refused)/float64(p.Sent))
		}
		fmt.Fprintf(w, "%s\t%.0f\t%s\t%v\t%v\t%s\t%s\t\n", p.Gate, float64(p.Sent)/max(p.Seconds, 1e-9), refused, p.P50.Round(10*time.Microsecond), p.P99.Round(10*time.Microsecond), ratio, vsFlood)
	}
	w.Flush()
	return b.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
