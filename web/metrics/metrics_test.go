package metrics_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/ports"
	"twissandra/ports/porttest"
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

// Each call through Stores is counted once, under its adapter and operation, by its result; an
// Append also records how many lines it went to.
func TestStorageOperationsAndFanout(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	store := memory.New()
	s := m.Stores(ports.Stores{Users: store, Tweets: store, Lines: store}, "widerow")
	ctx := context.Background()
	u := domain.User{Username: "jericevans", PasswordHash: []byte("x"), CreatedAt: time.Now()}
	if err := s.Users.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := s.Users.CreateUser(ctx, u); !errors.Is(err, domain.ErrAlreadyExists) {
		t.Fatalf("second create: %v", err)
	}
	if _, err := s.Users.GetUser(ctx, "nobody"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("get nobody: %v", err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Users.GetUser(gone, "jericevans"); err == nil || errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("get with a cancelled context: %v", err)
	}
	few := []domain.LineKey{domain.PublicLine(), domain.UserlineOf("jericevans"), domain.TimelineOf("jericevans")}
	many := make([]domain.LineKey, 1003)
	for i := range many {
		many[i] = domain.TimelineOf(fmt.Sprintf("fan%d", i))
	}
	for _, lines := range [][]domain.LineKey{few, many} {
		if err := s.Lines.Append(ctx, domain.LineEntry{Time: 1}, lines...); err != nil {
			t.Fatal(err)
		}
	}

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
		{"twissandra_storage_operations_total", map[string]string{"adapter": "widerow", "op": "append", "result": "ok"}, 2},
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

// The wrapped stores pass the same contract suites as the stores they wrap.
func TestWrappedStoresKeepTheContract(t *testing.T) {
	m := metrics.New()
	porttest.Run(t, func(t *testing.T) porttest.Stores {
		s := memory.New()
		w := m.Stores(ports.Stores{Users: s, Tweets: s, Lines: s}, "memory")
		return porttest.Stores{Users: w.Users, Tweets: w.Tweets, Lines: w.Lines}
	})
	porttest.RunBlog(t, func(t *testing.T) porttest.BlogStores {
		s := memory.NewBlog()
		w := m.Stores(ports.Stores{Authors: s, Entries: s, Tags: s, Comments: s}, "memory")
		return porttest.BlogStores{Authors: w.Authors, Entries: w.Entries, Tags: w.Tags, Comments: w.Comments}
	})
	text := scrape(t, m.Handler())
	for _, op := range []string{"create_user", "append", "slice", "slice_many", "create_entry", "add_comment"} {
		if n, _ := Sample(text, "twissandra_storage_operation_duration_seconds_count", map[string]string{"adapter": "memory", "op": op}); n == 0 {
			t.Errorf("no calls of %s recorded", op)
		}
	}
}
