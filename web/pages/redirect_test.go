package pages

import (
	"net/http"
	"testing"

	"twissandra/internal/testkit/webkit"
)

// TestTrailingSlashes: pages redirect "/blog/" to "/blog" (keeping the query), the JSON API
// never redirects (its clients get the documented 404), and "//host/" is no open redirect.
func TestTrailingSlashes(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	cases := []struct {
		path     string
		status   int
		location string
	}{
		{"/blog/", http.StatusMovedPermanently, "/blog"},
		{"/public/?start=x", http.StatusMovedPermanently, "/public?start=x"},
		{"/api/v1/public/", http.StatusNotFound, ""},
		{"/api/v1/tweets/%2F", http.StatusNotFound, ""},
		{"//evil.example/", http.StatusNotFound, ""},
	}
	for _, tc := range cases {
		res, err := noFollow.Get(app.Srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status || res.Header.Get("Location") != tc.location {
			t.Errorf("GET %s: %d Location %q, want %d %q", tc.path, res.StatusCode, res.Header.Get("Location"), tc.status, tc.location)
		}
	}
}
