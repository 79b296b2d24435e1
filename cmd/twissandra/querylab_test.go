package main

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// In compare mode (widerow answering, cql3 beside it) the query-first lesson tries keys on the
// cql3 side's node: serve wires compare mode's second backend's QueryLab into the lesson.
func TestCompareModeQueryLab(t *testing.T) {
	base, _ := compareServer(t)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	get := func(path string) string {
		t.Helper()
		resp, err := c.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		return string(b)
	}
	page := get("/learn/query-first")
	if !strings.Contains(page, "(compare mode&#39;s cql3 side)") {
		t.Fatalf("the lesson does not try keys on cql3:\n%s", page)
	}
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no CSRF token on the lesson")
	}
	resp, err := c.PostForm(base+"/learn/act/key", url.Values{"csrf_token": {m[1]}, "pattern": {"userline"},
		"p1": {"username"}, "c1": {"time"}, "d1": {"desc"}}) // follows the redirect back to the lesson
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if body := string(b); resp.StatusCode != http.StatusOK || !strings.Contains(body, "<strong>One partition.</strong>") {
		t.Fatalf("a key tried: %d\n%s", resp.StatusCode, body)
	}
}
