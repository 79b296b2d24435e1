package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// serve wires the consistency lab on every backend, and the levels tried on the cluster on
// cql3, or on compare mode's cql3: the lesson offers the cluster's form there, and says how to
// get it elsewhere.
func TestServeConsistencyLesson(t *testing.T) {
	t.Parallel()
	get := func(addr string) string {
		t.Helper()
		r, err := http.Get("http://" + addr + "/learn/consistency")
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%d: %s", r.StatusCode, b)
		}
		return string(b)
	}
	mem := get(startServe(t))
	for _, want := range []string{`id="consistency-form"`, `id="trials-form"`, `id="cluster-none"`} {
		if !strings.Contains(mem, want) {
			t.Errorf("memory: the lesson lacks %s", want)
		}
	}
	hosts, port, ks := cqlKeyspace(t)
	cql := get(startServer(t, append([]string{"--backend", "cql3"}, cqlFlags("", hosts, port, ks)...)...).addr)
	if !strings.Contains(cql, `id="consistency-form"`) || !strings.Contains(cql, `id="cluster-form"`) || strings.Contains(cql, `id="cluster-none"`) {
		t.Errorf("cql3: the lesson offers no try of the levels on the cluster")
	}
	// Compare mode tries the levels on its attached node, as lessons 9, 11 and 14 use it, and
	// says so.
	base, _ := compareServer(t)
	both := get(strings.TrimPrefix(base, "http://"))
	if !strings.Contains(both, `id="cluster-form"`) || strings.Contains(both, `id="cluster-none"`) || !strings.Contains(both, "compare mode") {
		t.Errorf("compare mode: the lesson does not try the levels on the attached node")
	}
}
