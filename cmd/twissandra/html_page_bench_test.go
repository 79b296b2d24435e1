package main

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// htmlPages are the pages of 40 tweets that BenchmarkHTMLPageVersusAPI serves both ways: the
// HTML page a browser asks for, and the same page through the JSON API.
var htmlPages = []struct {
	name      string
	html, api string // paths; {next} is the public line's second page cursor
	signedIn  bool
}{
	// The API keeps the public line's first page encoded between posts (Page-Cache) on the
	// embedded stores; the page does not: it reads the stores and renders its footer.
	{"public-first", "/public", "/api/v1/public?limit=40", false},
	{"public-second", "/public?start={next}", "/api/v1/public?limit=40&start={next}", false},
	{"userline", "/users/author0", "/api/v1/users/author0/tweets?limit=40", false},
	{"home", "/", "/api/v1/timeline?limit=40", true},
}

var csrfField = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// signIn logs the reader in through the pages, as a browser does, and returns the session
// cookie.
func (e *apiPageEnv) signIn(b testing.TB) string {
	b.Helper()
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/login", nil))
	m := csrfField.FindStringSubmatch(rec.Body.String())
	if m == nil {
		b.Fatalf("no CSRF token on /login: %d", rec.Code)
	}
	form := url.Values{"username": {"reader"}, "password": {"password1"}, "csrf_token": {m[1]}}
	req := httptest.NewRequest(http.MethodPost, "/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, c := range rec.Result().Cookies() {
		req.AddCookie(c)
	}
	rec = httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther || len(rec.Result().Cookies()) == 0 {
		b.Fatalf("log-in: %d", rec.Code)
	}
	cookie := rec.Result().Cookies()[0]
	// The page after the log-in shows its welcome once and writes the session without it, as a
	// browser then sends it.
	req = httptest.NewRequest(http.MethodGet, "/", nil)
	req.AddCookie(cookie)
	rec = httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || len(rec.Result().Cookies()) == 0 || !strings.Contains(rec.Body.String(), "Welcome back") {
		b.Fatalf("the page after the log-in: %d, %d cookies", rec.Code, len(rec.Result().Cookies()))
	}
	return rec.Result().Cookies()[0].String()
}

// sink is a ResponseWriter that counts the body's bytes and keeps none, as a connection's
// buffered writer would pass them on: the page and the API pay for their bodies alike, and
// neither for a recorder growing its buffer.
type sink struct {
	header http.Header
	status int
	n      int
}

func (s *sink) Header() http.Header         { return s.header }
func (s *sink) WriteHeader(status int)      { s.status = status }
func (s *sink) Write(b []byte) (int, error) { s.n += len(b); return len(b), nil }

// serve answers n requests for path and returns how long they took; each must be a 200 with at
// least min bytes.
func (e *apiPageEnv) serve(b *testing.B, path string, header http.Header, min, n int) time.Duration {
	req := httptest.NewRequest(http.MethodGet, replaceNext(path, e.next), nil)
	for k, v := range header {
		req.Header[k] = v
	}
	w := &sink{header: http.Header{}}
	start := time.Now()
	for range n {
		clear(w.header)
		w.status, w.n = http.StatusOK, 0
		e.h.ServeHTTP(w, req)
		if w.status != http.StatusOK || w.n < min {
			b.Fatalf("%s: %d, %d bytes", path, w.status, w.n)
		}
	}
	return time.Since(start)
}

// BenchmarkHTMLPageVersusAPI serves each page of 40 tweets as HTML (with the footer of the
// storage operations it cost) and through the JSON API, from serve's own handler on memory and
// on widerow (on disk), alternating rounds of 128 requests of each in one process, and reports
// the rate of the HTML page against the API's (html/api; the target is at least 0.5). A page
// is signed in where a browser would be: the home page with the session cookie of a log-in,
// the API with the reader's bearer token.
//
//	go test -run '^$' -bench HTMLPageVersusAPI -benchtime 10x ./cmd/twissandra/
func BenchmarkHTMLPageVersusAPI(b *testing.B) {
	for _, backend := range []string{"memory", "widerow"} {
		e := newAPIPageEnv(b, backend)
		cookie := e.signIn(b)
		for _, p := range htmlPages {
			b.Run(backend+"/"+p.name, func(b *testing.B) {
				const round = 128
				htmlHeader, apiHeader := http.Header{}, http.Header{}
				if p.signedIn {
					htmlHeader.Set("Cookie", cookie)
					apiHeader.Set("Authorization", "Bearer "+e.token)
				}
				var html, api time.Duration
				for b.Loop() {
					html += e.serve(b, p.html, htmlHeader, 40*100, round)
					api += e.serve(b, p.api, apiHeader, 40*100, round)
				}
				b.ReportMetric(float64(api)/float64(html), "html/api")
				b.ReportMetric(float64(html.Microseconds())/float64(round*b.N), "html-us/page")
				b.ReportMetric(float64(api.Microseconds())/float64(round*b.N), "api-us/page")
			})
		}
	}
}

// replaceNext puts the public line's second page cursor in a path.
func replaceNext(path, next string) string { return strings.ReplaceAll(path, "{next}", next) }
