package web

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports"
	"twissandra/web/metrics"
)

// metricSample finds name{labels} in a text exposition.
func metricSample(exposition, name string, labels map[string]string) float64 {
	want := make([]string, 0, len(labels))
	for k, v := range labels {
		want = append(want, k+`="`+v+`"`)
	}
	for _, line := range strings.Split(exposition, "\n") {
		if !strings.HasPrefix(line, name+"{") {
			continue
		}
		end := strings.LastIndexByte(line, '}')
		got := strings.Split(line[len(name)+1:end], ",")
		if len(got) != len(want) {
			continue
		}
		all := true
		for _, w := range want {
			found := false
			for _, g := range got {
				found = found || g == w
			}
			all = all && found
		}
		if all {
			f, _ := strconv.ParseFloat(strings.TrimSpace(line[end+1:]), 64)
			return f
		}
	}
	return 0
}

// After some API requests, /metrics shows them under their route templates, and the storage
// calls they made under the adapter's name, with the fan-out of each post.
func TestMetricsEndpoint(t *testing.T) {
	t.Parallel()
	// The server records into the process-wide metrics; a label of this test's own keeps its
	// storage series apart from other tests'.
	const adapter = "memory_metrics_test"
	m := metrics.Default()
	store := memory.New()
	w := m.Stores(ports.Stores{Users: store, Tweets: store, Lines: store}, adapter)
	svc := social.New(w.Users, w.Tweets, w.Lines, newFakeClock(), domain.NewPasswordHasher(bcrypt.MinCost))
	srv, err := NewServer(Config{TokenSecret: testSecret}, Deps{Social: svc, Access: social.NewAccess(svc, memory.NewSessions(), nil)})
	if err != nil {
		t.Fatal(err)
	}
	e := &testEnv{t: t, srv: srv, store: store, svc: svc}
	httpCount := func(text, route, method, status string) float64 {
		return metricSample(text, "twissandra_http_request_duration_seconds_count", map[string]string{"route": route, "method": method, "status": status})
	}
	before := e.rawBody("/metrics", "")

	tok := e.user("jericevans")
	e.user("ericflo")
	e.do(http.MethodPut, "/api/v1/users/ericflo/friends/jericevans", "", e.logIn("ericflo"))
	for range 3 {
		e.post(tok, "hello")
	}
	e.page("/api/v1/public", "")
	e.page("/api/v1/users/jericevans/tweets", "")
	e.do(http.MethodGet, "/api/v1/users/nobody_metrics", "", "")

	after := e.rawBody("/metrics", "")
	for _, c := range []struct {
		route, method, status string
		atLeast               float64
	}{
		{"/api/v1/users", "POST", "201", 2},
		{"/api/v1/tweets", "POST", "201", 3},
		{"/api/v1/public", "GET", "200", 1},
		{"/api/v1/users/:username/tweets", "GET", "200", 1},
		{"/api/v1/users/:username", "GET", "404", 1},
		{"/api/v1/users/:username/friends/:friend", "PUT", "204", 1},
	} {
		if d := httpCount(after, c.route, c.method, c.status) - httpCount(before, c.route, c.method, c.status); d < c.atLeast {
			t.Errorf("%s %s %s: count rose by %v, want at least %v", c.method, c.route, c.status, d, c.atLeast)
		}
	}
	if strings.Contains(after, "nobody_metrics") || strings.Contains(after, `route="/api/v1/users/jericevans`) {
		t.Error("a raw path is a label")
	}
	// What this run added: the registry is the process's, and -count=N runs the test again.
	rose := func(name string, labels map[string]string) float64 {
		return metricSample(after, name, labels) - metricSample(before, name, labels)
	}
	ops := func(op, result string) float64 {
		return rose("twissandra_storage_operations_total", map[string]string{"adapter": adapter, "op": op, "result": result})
	}
	if got := ops("create_user", "ok"); got != 2 {
		t.Errorf("create_user ok = %v, want 2", got)
	}
	if got := ops("get_user", "not_found"); got < 1 {
		t.Errorf("get_user not_found = %v, want at least 1", got)
	}
	if got := ops("save_tweet", "ok"); got != 3 {
		t.Errorf("save_tweet ok = %v, want 3", got)
	}
	// Each post goes to the userline, the public line, the author's timeline and one follower's.
	fan := map[string]string{"adapter": adapter}
	if n, sum := rose("twissandra_line_fanout_lines_count", fan), rose("twissandra_line_fanout_lines_sum", fan); n != 3 || sum != 12 {
		t.Errorf("fan-out: %v appends of %v lines in all, want 3 of 12", n, sum)
	}
	if rose("twissandra_storage_operation_duration_seconds_count", map[string]string{"adapter": adapter, "op": "slice"}) < 2 {
		t.Error("slice durations missing")
	}
}
