package metrics_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/web/metrics"
)

// Sample finds the value of the series name{labels} in a text exposition; ok is false when the
// series is absent.
func Sample(exposition, name string, labels map[string]string) (float64, bool) {
	for _, line := range strings.Split(exposition, "\n") {
		if !strings.HasPrefix(line, name+"{") {
			continue
		}
		end := strings.LastIndexByte(line, '}')
		got := map[string]string{}
		for _, pair := range strings.Split(line[len(name)+1:end], ",") {
			k, v, _ := strings.Cut(pair, "=")
			got[k] = strings.Trim(v, `"`)
		}
		if len(got) != len(labels) {
			continue
		}
		match := true
		for k, v := range labels {
			if got[k] != v {
				match = false
			}
		}
		if match {
			f, err := strconv.ParseFloat(strings.TrimSpace(line[end+1:]), 64)
			return f, err == nil
		}
	}
	return 0, false
}

func scrape(t *testing.T, h http.Handler) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /metrics: %d", rec.Code)
	}
	return rec.Body.String()
}

func TestHTTPDurationsByRouteTemplate(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.HandleMethodNotAllowed = true
	e.Use(m.Middleware())
	e.GET("/users/:username", func(c *gin.Context) {
		if c.Param("username") == "nobody" {
			c.Status(http.StatusNotFound)
			return
		}
		c.Status(http.StatusOK)
	})
	e.GET("/metrics", gin.WrapH(m.Handler()))
	for _, target := range []string{"/users/jericevans", "/users/ericflo", "/users/ericflo", "/users/nobody", "/no/such/path", "/another/one"} {
		e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, target, nil))
	}
	e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("BREW", "/users/x", nil))

	text := scrape(t, e)
	const name = "twissandra_http_request_duration_seconds_count"
	for _, c := range []struct {
		route, method, status string
		want                  float64
	}{
		{"/users/:username", "GET", "200", 3},
		{"/users/:username", "GET", "404", 1},
		{metrics.UnmatchedRoute, "GET", "404", 2},
		{metrics.UnmatchedRoute, "OTHER", "405", 1},
	} {
		got, ok := Sample(text, name, map[string]string{"route": c.route, "method": c.method, "status": c.status})
		if !ok || got != c.want {
			t.Errorf("%s %s %s: count %v (present %v), want %v", c.method, c.route, c.status, got, ok, c.want)
		}
	}
	for _, raw := range []string{"jericevans", "ericflo", "/no/such/path", "BREW"} {
		if strings.Contains(text, raw) {
			t.Errorf("exposition names the raw request %q", raw)
		}
	}
}

func TestStorageOperationsAndFanout(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	create := m.Op("widerow", "create_user")
	create.Done(time.Millisecond, nil)
	create.Done(time.Millisecond, fmt.Errorf("insert: %w", domain.ErrAlreadyExists))
	get := m.Op("widerow", "get_user")
	get.Done(time.Microsecond, domain.ErrNotFound)
	get.Done(time.Microsecond, errors.New("disk on fire"))
	fan := m.Fanout("widerow")
	fan.Observe(3)
	fan.Observe(1003)

	text := scrape(t, m.Handler())
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"twissandra_storage_operations_total", map[string]string{"adapter": "widerow", "op": "create_user", "result": "ok"}, 1},
		{"twissandra_storage_operations_total", map[string]string{"adapter": "widerow", "op": "create_user", "result": "already_exists"}, 1},
		{"twissandra_storage_operations_total", map[string]string{"adapter": "widerow", "op": "get_user", "result": "not_found"}, 1},
		{"twissandra_storage_operations_total", map[string]string{"adapter": "widerow", "op": "get_user", "result": "error"}, 1},
		{"twissandra_storage_operation_duration_seconds_count", map[string]string{"adapter": "widerow", "op": "create_user"}, 2},
		{"twissandra_line_fanout_lines_count", map[string]string{"adapter": "widerow"}, 2},
		{"twissandra_line_fanout_lines_sum", map[string]string{"adapter": "widerow"}, 1006},
		{"twissandra_line_fanout_lines_bucket", map[string]string{"adapter": "widerow", "le": "4"}, 1},
	} {
		got, ok := Sample(text, c.name, c.labels)
		if !ok || got != c.want {
			t.Errorf("%s%v = %v (present %v), want %v", c.name, c.labels, got, ok, c.want)
		}
	}
	if !strings.Contains(text, "go_goroutines") {
		t.Error("no Go runtime metrics")
	}
}

func TestDefaultIsOneInstance(t *testing.T) {
	t.Parallel()
	first, second := metrics.Default(), metrics.Default()
	if first != second {
		t.Fatal("Default made two instances")
	}
	if metrics.New().Registry() == metrics.Default().Registry() {
		t.Fatal("New shares the default registry")
	}
}

// BenchmarkMiddleware is the middleware's own cost on a route that does nothing.
func BenchmarkMiddleware(b *testing.B) {
	m := metrics.New()
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.Use(m.Middleware())
	e.GET("/users/:username", func(c *gin.Context) { c.Status(http.StatusOK) })
	req := httptest.NewRequest(http.MethodGet, "/users/jericevans", nil)
	b.ReportAllocs()
	for b.Loop() {
		e.ServeHTTP(httptest.NewRecorder(), req)
	}
}
