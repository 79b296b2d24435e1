package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// The server wires the counters lesson to the node that has counters: in compare mode, the
// cql3 side's table, and its exercises on the node in the course the API serves.
func TestCountersLessonOnCompareModesNode(t *testing.T) {
	base, ks := compareServer(t)
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d\n%s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	page := get("/learn/counters")
	for _, want := range []string{`id="counters-schema"`, "CREATE TABLE IF NOT EXISTS " + ks + ".lesson_likes", "on compare mode&#39;s cql3 side"} {
		if !strings.Contains(page, want) {
			t.Errorf("the lesson lacks %q", want)
		}
	}
	course := get("/api/v1/course")
	for _, id := range []string{`"counters-1"`, `"counters-2"`, `"counters-3"`, `"counter"`} {
		if !strings.Contains(course, id) {
			t.Errorf("the course lacks %s", id)
		}
	}
}
