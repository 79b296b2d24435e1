// Package bench drives a running Twissandra server over HTTP with many concurrent clients and
// reports throughput and latency percentiles (`twissandra bench`).
//
// A run has four phases:
//
//  1. setup: users sign up and log in through the API, follow each other in a Zipf-shaped
//     graph (a few users have most followers, as on Twitter) and post a first tweet each;
//  2. baseline: GET /api/v1/public against a bare gin server in this process that answers the
//     bytes of one real public-line response: the floor of HTTP and gin on this machine;
//  3. public: the same requests against the server;
//  4. mixed: reads (public line, home timelines, Zipf-chosen userlines) and tweets, at the
//     configured read share;
//  5. paced: the baseline and the public line again, now offered at a fixed rate, PacedShare
//     of the baseline's throughput (0.6 by default), spread over the same clients.
//
// Phases 2 to 4 are closed loops: each client sends its next request as soon as the last one
// is answered, so they measure the most a server can do, and their latencies are mostly the
// queue of Clients requests in front of each one (Little's law: latency = clients/throughput).
// The paced phases are open loops, as users are: requests are due on a schedule whether or not
// earlier ones were answered, and each latency is counted from when the request was due, so a
// server that falls behind shows it (no coordinated omission). They answer the question "at
// this load, how fast are answers?".
//
// The load generator's own garbage collector is held off while it measures (a soft memory limit
// of 1 GiB still bounds it): its pauses would otherwise be counted as the server's latency.
//
// The server's overhead is the public phase's throughput as a share of the baseline's. Phases
// stop at Duration or after Requests requests, whichever comes first. Only loopback servers
// are accepted: this is a load generator.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
)

// Config is one run.
type Config struct {
	// URL is the server, e.g. http://127.0.0.1:8080; its host must be a loopback address.
	URL string
	// Clients is the number of concurrent clients (default 64).
	Clients int
	// Duration bounds each measured phase (default 10s).
	Duration time.Duration
	// Requests bounds each measured phase (default 1,000,000).
	Requests int
	// Users is how many users setup makes (default 200); Follows how many users each follows
	// on average (default 10), drawn from a Zipf distribution.
	Users, Follows int
	// ReadShare is the share of reads in the mixed phase, 0 to 1 (default 0.9).
	ReadShare float64
	// Prefix starts every username of this run (default: random), so runs can share a server.
	Prefix string
	// PacedShare is the rate the paced phases offer, as a share of the baseline's throughput
	// (default 0.6); negative leaves the paced phases out.
	PacedShare float64
	// Seed makes the workload repeatable.
	Seed uint64
	// Log receives progress lines; nil discards them.
	Log io.Writer
}

func (c *Config) defaults() error {
	if c.Clients <= 0 {
		c.Clients = 64
	}
	if c.Duration <= 0 {
		c.Duration = 10 * time.Second
	}
	if c.Requests <= 0 {
		c.Requests = 1_000_000
	}
	if c.Users <= 1 {
		c.Users = 200
	}
	if c.Follows < 0 {
		return errors.New("follows must not be negative")
	}
	if c.Follows == 0 {
		c.Follows = 10
	}
	if c.ReadShare < 0 || c.ReadShare > 1 {
		return fmt.Errorf("read share %v: want 0 to 1", c.ReadShare)
	}
	if c.PacedShare == 0 {
		c.PacedShare = 0.6
	}
	if c.PacedShare > 1 {
		return fmt.Errorf("paced share %v: want at most 1 (a share of the baseline's throughput)", c.PacedShare)
	}
	if c.Prefix == "" {
		c.Prefix = "b" + strconv.FormatUint(rand.Uint64()%1e6, 36) + "_"
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	return CheckLoopback(c.URL)
}

// CheckLoopback refuses a URL whose host is not a loopback address.
func CheckLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("url %q: want http://127.0.0.1:PORT", raw)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("url %q: only loopback servers may be benchmarked", raw)
	}
	return nil
}

// Result is a run's outcome.
type Result struct {
	Baseline, Public, Mixed Stats
	// Ratio is the public phase's throughput over the baseline's.
	Ratio float64
	// Mix counts the mixed phase's requests by kind.
	Mix map[string]int
	// Offered is the rate of the paced phases (requests per second), and BaselinePaced and
	// PublicPaced what they measured; Offered is 0 when they were left out.
	Offered                    float64
	BaselinePaced, PublicPaced Stats
}

// Phases lists the measured phases in order.
func (r *Result) Phases() []Stats {
	ps := []Stats{r.Baseline, r.Public, r.Mixed}
	if r.Offered > 0 {
		ps = append(ps, r.BaselinePaced, r.PublicPaced)
	}
	return ps
}

type user struct {
	name, token string
}

type runner struct {
	cfg    Config
	base   string
	client *http.Client
	users  []user
	zipf   func(r *rand.Rand) int
}

// publicTarget is the page both the baseline and the public phase ask for.
const publicTarget = "/api/v1/public?limit=40"

// Run sets up the workload and measures the three phases.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	tr := &http.Transport{
		MaxIdleConns: cfg.Clients * 2, MaxIdleConnsPerHost: cfg.Clients * 2,
		IdleConnTimeout: time.Minute, DisableCompression: true,
		DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
	}
	defer tr.CloseIdleConnections()
	r := &runner{cfg: cfg, base: cfg.URL, client: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
	// Zipf over user indexes: s=1.1 gives a head of very popular users and a long tail.
	r.zipf = func(rr *rand.Rand) int {
		return int(rand.NewZipf(rr, 1.1, 1, uint64(cfg.Users-1)).Uint64())
	}

	start := time.Now()
	if err := r.setup(ctx); err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	fmt.Fprintf(cfg.Log, "setup: %d users, ~%d follows each, in %s\n", cfg.Users, cfg.Follows, time.Since(start).Round(time.Millisecond))

	body, err := r.get(ctx, r.base+publicTarget, "")
	if err != nil {
		return nil, fmt.Errorf("public line: %w", err)
	}
	baseURL, stop, err := bareServer(body)
	if err != nil {
		return nil, err
	}
	defer stop()

	defer holdGC()()
	res := &Result{Mix: map[string]int{}}
	baseline := func(*rand.Rand, int) (string, *http.Request) {
		return "public", mustRequest(http.MethodGet, baseURL+publicTarget, nil, "")
	}
	public := func(*rand.Rand, int) (string, *http.Request) {
		return "public", mustRequest(http.MethodGet, r.base+publicTarget, nil, "")
	}
	res.Baseline = r.phase(ctx, "baseline (bare gin, same bytes)", 0, baseline, nil)
	res.Public = r.phase(ctx, "public line", 0, public, nil)
	var mu sync.Mutex
	res.Mixed = r.phase(ctx, fmt.Sprintf("mixed (%.0f%% reads)", 100*cfg.ReadShare), 0, r.mixed, func(kind string) {
		mu.Lock()
		res.Mix[kind]++
		mu.Unlock()
	})
	if res.Baseline.Throughput > 0 {
		res.Ratio = res.Public.Throughput / res.Baseline.Throughput
	}
	if cfg.PacedShare > 0 && res.Baseline.Throughput > 0 {
		res.Offered = cfg.PacedShare * res.Baseline.Throughput
		res.BaselinePaced = r.phase(ctx, fmt.Sprintf("baseline, paced %.0f/s", res.Offered), res.Offered, baseline, nil)
		res.PublicPaced = r.phase(ctx, fmt.Sprintf("public line, paced %.0f/s", res.Offered), res.Offered, public, nil)
	}
	return res, nil
}

// holdGC turns this process's collector off, under a 1 GiB soft memory limit, and returns what
// turns it back on.
func holdGC() (restore func()) {
	gc := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(1 << 30)
	return func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(gc)
	}
}

func line(s Stats) string {
	return fmt.Sprintf("%-32s %8d req %6d err %9.0f req/s  p50 %-9s p99 %-9s p999 %-9s max %s",
		s.Name, s.Requests, s.Errors, s.Throughput, fmtDur(s.P50), fmtDur(s.P99), fmtDur(s.P999), fmtDur(s.Max))
}

// Summary is the result as text.
func (r *Result) Summary() string {
	var b bytes.Buffer
	for _, s := range r.Phases() {
		fmt.Fprintln(&b, line(s))
	}
	fmt.Fprintf(&b, "server/baseline throughput ratio on the public line: %.2f\n", r.Ratio)
	if r.Offered > 0 {
		fmt.Fprintf(&b, "offered %.0f req/s (%.2f of the baseline) to the public line: served %.0f req/s (%.2f of the baseline), p99 %s\n",
			r.Offered, r.Offered/r.Baseline.Throughput, r.PublicPaced.Throughput, r.PublicPaced.Throughput/r.Baseline.Throughput, fmtDur(r.PublicPaced.P99))
	}
	fmt.Fprintf(&b, "mixed phase requests by kind: %v\n", r.Mix)
	return b.String()
}

// mixed picks one request of the mixed workload.
func (r *runner) mixed(rr *rand.Rand, client int) (string, *http.Request) {
	u := r.users[rr.IntN(len(r.users))]
	if rr.Float64() >= r.cfg.ReadShare {
		b, _ := json.Marshal(map[string]string{"body": "load test tweet " + strconv.Itoa(rr.IntN(1e9))})
		return "post", mustRequest(http.MethodPost, r.base+"/api/v1/tweets", b, u.token)
	}
	switch rr.IntN(3) {
	case 0:
		return "public", mustRequest(http.MethodGet, r.base+publicTarget, nil, "")
	case 1:
		return "timeline", mustRequest(http.MethodGet, r.base+"/api/v1/timeline?limit=40", nil, u.token)
	default:
		who := r.users[r.zipf(rr)].name
		return "userline", mustRequest(http.MethodGet, r.base+"/api/v1/users/"+who+"/tweets?limit=40", nil, "")
	}
}

// phase runs Clients clients until Duration passes or Requests requests are made. With rate 0
// each client sends its next request when the last is answered (a closed loop); with a rate
// (requests per second, over all clients) the requests are due on a fixed schedule, each
// client's staggered from the others', and a latency counts from when its request was due.
func (r *runner) phase(ctx context.Context, name string, rate float64, next func(*rand.Rand, int) (string, *http.Request), count func(string)) Stats {
	// Progress only: the results are printed once, by the caller (Summary), so that a
	// terminal showing stdout and stderr together does not show the table twice.
	if r.cfg.Log != nil {
		fmt.Fprintf(r.cfg.Log, "measuring %s for up to %s\n", name, r.cfg.Duration)
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Duration)
	defer cancel()
	var issued atomic.Int64
	per := make([][]sample, r.cfg.Clients)
	var every time.Duration // one client's interval between requests when paced
	if rate > 0 {
		every = time.Duration(float64(r.cfg.Clients) / rate * float64(time.Second))
	}
	start := time.Now()
	var wg sync.WaitGroup
	for c := range r.cfg.Clients {
		wg.Go(func() {
			rr := rand.New(rand.NewPCG(r.cfg.Seed, uint64(c)))
			due := start.Add(every * time.Duration(c) / time.Duration(r.cfg.Clients))
			for ctx.Err() == nil && issued.Add(1) <= int64(r.cfg.Requests) {
				kind, req := next(rr, c)
				t0 := time.Now()
				if every > 0 {
					if wait := time.Until(due); wait > 0 {
						select {
						case <-time.After(wait):
						case <-ctx.Done():
							return
						}
					}
					t0, due = due, due.Add(every)
				}
				ok := r.do(req.WithContext(ctx))
				if ctx.Err() != nil && !ok {
					break // cut off by the deadline: not the server's failure
				}
				per[c] = append(per[c], sample{at: t0.Sub(start), latency: time.Since(t0), ok: ok})
				if count != nil {
					count(kind)
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []sample
	for _, p := range per {
		all = append(all, p...)
	}
	return summarise(name, all, elapsed)
}

// do sends req, reads the whole body and says whether the status was 2xx.
func (r *runner) do(req *http.Request) bool {
	resp, err := r.client.Do(req)
	if err != nil {
		return false
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return err == nil && resp.StatusCode/100 == 2
}

func mustRequest(method, target string, body []byte, token string) *http.Request {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, target, rd)
	if err != nil {
		panic(err) // targets are built from a checked base URL
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

func (r *runner) get(ctx context.Context, target, token string) ([]byte, error) {
	return r.call(ctx, http.MethodGet, target, nil, token, http.StatusOK)
}

// call sends one request and wants one of the statuses.
func (r *runner) call(ctx context.Context, method, target string, body any, token string, want ...int) ([]byte, error) {
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	resp, err := r.client.Do(mustRequest(method, target, b, token).WithContext(ctx))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	for _, w := range want {
		if resp.StatusCode == w {
			return out, nil
		}
	}
	return nil, fmt.Errorf("%s %s: %d %s", method, target, resp.StatusCode, out)
}

const password = "bench password"

// setup makes the users, their tokens, the follow graph and one tweet each, Clients at a time.
func (r *runner) setup(ctx context.Context) error {
	r.users = make([]user, r.cfg.Users)
	for i := range r.users {
		r.users[i].name = r.cfg.Prefix + strconv.Itoa(i)
	}
	if err := r.each(ctx, func(i int) error {
		u := &r.users[i]
		cred := map[string]string{"username": u.name, "password": password}
		if _, err := r.call(ctx, http.MethodPost, r.base+"/api/v1/users", cred, "", http.StatusCreated, http.StatusConflict); err != nil {
			return err
		}
		b, err := r.call(ctx, http.MethodPost, r.base+"/api/v1/sessions", cred, "", http.StatusOK)
		if err != nil {
			return err
		}
		var s struct{ Token string }
		if err := json.Unmarshal(b, &s); err != nil || s.Token == "" {
			return fmt.Errorf("log in %s: %s", u.name, b)
		}
		u.token = s.Token
		return nil
	}); err != nil {
		return err
	}
	return r.each(ctx, func(i int) error {
		rr := rand.New(rand.NewPCG(r.cfg.Seed, uint64(i)+1<<32))
		u := r.users[i]
		for range r.cfg.Follows {
			friend := r.users[r.zipf(rr)].name
			if friend == u.name {
				continue
			}
			if _, err := r.call(ctx, http.MethodPut, r.base+"/api/v1/users/"+u.name+"/friends/"+friend, nil, u.token, http.StatusNoContent); err != nil {
				return err
			}
		}
		_, err := r.call(ctx, http.MethodPost, r.base+"/api/v1/tweets", map[string]string{"body": "hello from " + u.name}, u.token, http.StatusCreated)
		return err
	})
}

// each runs f(0..Users-1) on Clients goroutines and returns the first error.
func (r *runner) each(ctx context.Context, f func(i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(r.cfg.Clients, len(r.users)) {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(r.users) {
					return
				}
				if err := f(i); err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return ctx.Err()
}

// bareServer serves body at /api/v1/public from a bare gin engine on 127.0.0.1:0.
func bareServer(body []byte) (base string, stop func(), err error) {
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.GET("/api/v1/public", func(c *gin.Context) { c.Data(http.StatusOK, "application/json; charset=utf-8", body) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}
