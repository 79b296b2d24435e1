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
	return rec.Result().Cookies()[0].String()
}

// serve answers n requests for path and returns how long they took; each must be a 200 with at
// least min bytes.
func (e *apiPageEnv) serve(b *testing.B, path string, header http.Header, min, n int) time.Duration {
	req := httptest.NewRequest(http.MethodGet, strings.ReplaceAll(path, "{next}", e.next), nil)
	for k, v := range header {
		req.Header[k] = v
	}
	start := time.Now()
	for range n {
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Body.Len() < min {
			b.Fatalf("%s: %d, %d bytes", path, rec.Code, rec.Body.Len())
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
