package bench

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/web"
)

func TestPercentile(t *testing.T) {
	t.Parallel()
	var lat []time.Duration
	for i := 1; i <= 1000; i++ {
		lat = append(lat, time.Duration(i))
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{0.5, 500}, {0.99, 990}, {0.999, 999}, {1, 1000}, {0, 1}} {
		if got := percentile(lat, c.p); got != c.want {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if percentile(nil, 0.5) != 0 {
		t.Error("percentile of nothing")
	}
}

func TestCheckLoopback(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:80", "http://127.0.0.2:9"} {
		if err := CheckLoopback(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://10.0.0.1:8080", "http://example.com", "127.0.0.1:8080", "ftp://127.0.0.1", ""} {
		if err := CheckLoopback(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// A short run against a server in this process: every phase makes requests without errors and
// the plot is well-formed SVG.
func TestRunAgainstServer(t *testing.T) {
	t.Parallel()
	store := memory.New()
	svc := social.New(store, store, store, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	srv, err := web.NewServer(web.Config{TokenSecret: []byte("0123456789abcdef0123456789abcdef")}, web.Deps{Social: svc, Access: social.NewAccess(svc, memory.NewSessions(), nil)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	var log bytes.Buffer
	res, err := Run(context.Background(), Config{URL: ts.URL, Clients: 4, Duration: 2 * time.Second, Requests: 200, Users: 12, Follows: 3, ReadShare: 0.7, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	// The log says what is being measured; the figures are in the summary only, once.
	for _, p := range res.Phases() {
		if !strings.Contains(log.String(), "measuring "+p.Name) || strings.Contains(log.String(), line(p)) {
			t.Errorf("progress log of %s:\n%s", p.Name, log.String())
		}
		if strings.Count(res.Summary(), line(p)) != 1 {
			t.Errorf("summary of %s:\n%s", p.Name, res.Summary())
		}
	}
	for _, p := range res.Phases() {
		if p.Requests == 0 || p.Requests > 200 || p.Errors != 0 || p.P99 < p.P50 || len(p.PerSecond) == 0 {
			t.Errorf("%s: %+v", p.Name, p)
		}
	}
	if res.Ratio <= 0 || res.Mix["post"] == 0 || res.Mix["timeline"] == 0 {
		t.Errorf("ratio %v, mix %v", res.Ratio, res.Mix)
	}
	if !strings.Contains(res.Summary(), "ratio") {
		t.Error(res.Summary())
	}
	var svg bytes.Buffer
	if err := WriteSVG(&svg, "test <run>", res.Phases()); err != nil {
		t.Fatal(err)
	}
	if lines := polylines(t, &svg); lines != 15 { // p50, p99 and throughput of five phases
		t.Errorf("%d polylines, want 15", lines)
	}
	if res.Offered <= 0 || res.PublicPaced.Requests == 0 || res.PublicPaced.Errors != 0 || !strings.Contains(res.Summary(), "offered") {
		t.Errorf("paced phases: offered %v, %+v\n%s", res.Offered, res.PublicPaced, res.Summary())
	}
}

// TestPacedPhase offers a fixed rate: no more requests are sent than the schedule holds,
// however fast the server answers, and a server that keeps up serves about all of them.
func TestPacedPhase(t *testing.T) {
	t.Parallel()
	var served atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		served.Add(1)
		w.Write([]byte("ok"))
	}))
	defer ts.Close()
	r := &runner{cfg: Config{Clients: 8, Duration: time.Second, Requests: 1_000_000}, client: ts.Client()}
	const rate = 400.0
	st := r.phase(context.Background(), "paced", rate, func(*rand.Rand, int) (string, *http.Request) {
		return "get", mustRequest(http.MethodGet, ts.URL, nil, "")
	}, nil)
	if limit := int64(rate*r.cfg.Duration.Seconds()) + int64(r.cfg.Clients); served.Load() > limit {
		t.Fatalf("%d requests sent in %s at %v/s: the schedule holds at most %d", served.Load(), r.cfg.Duration, rate, limit)
	}
	// The floor is loose: on a loaded 2-core machine (a -race run of every package) even a
	// trivial handler answers in hundreds of milliseconds; what matters is that the schedule
	// sends, and never more than it allows (above).
	if st.Errors != 0 || st.Requests < int(rate*r.cfg.Duration.Seconds()/20) {
		t.Fatalf("paced phase: %+v", st)
	}
}

func TestRefusesRemoteServers(t *testing.T) {
	t.Parallel()
	if _, err := Run(context.Background(), Config{URL: "http://192.0.2.1:80"}); err == nil {
		t.Fatal("a non-loopback server was accepted")
	}
}

// polylines parses an SVG document, failing on malformed XML, and counts its polylines.
func polylines(t *testing.T, svg io.Reader) int {
	t.Helper()
	dec, n := xml.NewDecoder(svg), 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatalf("SVG: %v", err)
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "polyline" {
			n++
		}
	}
}
