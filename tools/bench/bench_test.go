package bench

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
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
	srv, err := web.NewServer(web.Config{TokenSecret: []byte("0123456789abcdef0123456789abcdef")}, web.Deps{Social: svc})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	res, err := Run(context.Background(), Config{URL: ts.URL, Clients: 4, Duration: 2 * time.Second, Requests: 200, Users: 12, Follows: 3, ReadShare: 0.7})
	if err != nil {
		t.Fatal(err)
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
	dec := xml.NewDecoder(&svg)
	lines := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG: %v", err)
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "polyline" {
			lines++
		}
	}
	if lines != 9 { // p50, p99 and throughput of three phases
		t.Errorf("%d polylines, want 9", lines)
	}
}

func TestRefusesRemoteServers(t *testing.T) {
	t.Parallel()
	if _, err := Run(context.Background(), Config{URL: "http://192.0.2.1:80"}); err == nil {
		t.Fatal("a non-loopback server was accepted")
	}
}
