// Package metrics is Twissandra's Prometheus instrumentation, on a registry of its own (never
// prometheus.DefaultRegisterer, so libraries cannot slip series into it and tests can make
// fresh ones):
//
//	twissandra_http_request_duration_seconds{route,method,status}  histogram; route is gin's
//	                                                                  route template, never the raw path
//	twissandra_storage_operation_duration_seconds{adapter,op}       histogram
//	twissandra_storage_operations_total{adapter,op,result}           counter; result ok, not_found,
//	                                                                  already_exists or error
//	twissandra_line_fanout_lines{adapter}                            histogram of lines per Append
//
// plus the Go runtime and process collectors. Metrics.Stores wraps a backend's stores so that
// every port call is counted and timed (stores.go, and stores_gen.go made from the ports).
package metrics

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// UnmatchedRoute is the route label of requests that matched no route: raw paths would make one
// series per URL anyone cares to try.
const UnmatchedRoute = "unmatched"

// Metrics holds the collectors and their registry.
type Metrics struct {
	reg      *prometheus.Registry
	httpDur  *prometheus.HistogramVec
	storeDur *prometheus.HistogramVec
	storeOps *prometheus.CounterVec
	fanout   *prometheus.HistogramVec

	// observers caches the histogram child of each (route, method, status): WithLabelValues
	// hashes its labels and allocates on every call, a map lookup under a read lock does not.
	mu        sync.RWMutex
	observers map[httpKey]prometheus.Observer
	compare   *prometheus.CounterVec
}

type httpKey struct {
	route, method string
	status        int
}

// New makes a Metrics on a fresh registry.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		httpDur: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "twissandra_http_request_duration_seconds",
			Help:    "HTTP request durations by route template, method and status.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"route", "method", "status"}),
		storeDur: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "twissandra_storage_operation_duration_seconds",
			Help:    "Storage port call durations by adapter and operation.",
			Buckets: []float64{.00001, .000025, .00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}, []string{"adapter", "op"}),
		storeOps: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "twissandra_storage_operations_total",
			Help: "Storage port calls by adapter, operation and result.",
		}, []string{"adapter", "op", "result"}),
		fanout: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "twissandra_line_fanout_lines",
			Help:    "Lines one LineStore.Append wrote an entry to (3 plus the author's followers for a tweet).",
			Buckets: prometheus.ExponentialBuckets(1, 4, 10), // 1 .. 262144
		}, []string{"adapter"}),
		compare: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "twissandra_compare_reports_total",
			Help: "Compare mode: reads the two models answered differently (divergence) and calls the secondary model failed (secondary_failure), by kind of operation.",
		}, []string{"kind", "op"}),
		observers: map[httpKey]prometheus.Observer{},
	}
	m.reg.MustRegister(m.httpDur, m.storeDur, m.storeOps, m.fanout, m.compare,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

var (
	defaultOnce sync.Once
	defaultM    *Metrics
)

// Default is the process's Metrics, shared by the HTTP layer and the storage decorators that
// serve wires up (made on first use, on its own registry).
func Default() *Metrics {
	defaultOnce.Do(func() { defaultM = New() })
	return defaultM
}

// Registry is the registry the collectors are on.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in the Prometheus exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Middleware times every request and records it under its route template (c.FullPath()).
func (m *Metrics) Middleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		m.observeHTTP(c.FullPath(), c.Request.Method, c.Writer.Status(), time.Since(start))
	}
}

func (m *Metrics) observeHTTP(route, method string, status int, d time.Duration) {
	k := httpKey{route: route, method: method, status: status}
	m.mu.RLock()
	o, ok := m.observers[k]
	m.mu.RUnlock()
	if !ok {
		o = m.httpObserver(k)
	}
	o.Observe(d.Seconds())
}

// httpObserver makes and caches the child of k. Unknown methods share one label, as unmatched
// routes do, so clients cannot grow the cache or the series without bound.
func (m *Metrics) httpObserver(k httpKey) prometheus.Observer {
	if !knownMethod(k.method) {
		k.method = "OTHER"
	}
	route := k.route
	if route == "" {
		route = UnmatchedRoute
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if o, ok := m.observers[k]; ok {
		return o
	}
	o := m.httpDur.WithLabelValues(route, k.method, strconv.Itoa(k.status))
	if len(m.observers) < maxCachedObservers {
		m.observers[k] = o
	}
	return o
}

// maxCachedObservers bounds the cache; past it lookups still work, through WithLabelValues.
const maxCachedObservers = 4096

func knownMethod(m string) bool {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

// Divergence counts a read that compare mode's two models answered differently; op is the
// operation as compare mode names it (its first word, the port method, is the label).
func (m *Metrics) Divergence(op string) { m.compareReport("divergence", op) }

// SecondaryFailure counts a call compare mode's second model failed.
func (m *Metrics) SecondaryFailure(op string) { m.compareReport("secondary_failure", op) }

func (m *Metrics) compareReport(kind, op string) {
	word, _, _ := strings.Cut(op, " ") // a bounded label: "get_user", "slice", ...
	m.compare.WithLabelValues(kind, word).Inc()
}
