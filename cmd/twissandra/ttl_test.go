package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// serve wires the TTL lesson's lab on cql3, and on compare mode's cql3: the lesson offers its
// run on the node there, and says what the backend lacks elsewhere.
func TestServeTTLLesson(t *testing.T) {
	t.Parallel()
	get := func(addr string) string {
		t.Helper()
		r, err := http.Get("http://" + addr + "/learn/ttl")
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
	if !strings.Contains(mem, `id="ttl-no-node"`) || strings.Contains(mem, `id="ttl-form"`) {
		t.Errorf("memory: the lesson offers a run on a node it has not")
	}
	hosts, port, ks := cqlKeyspace(t)
	cql := get(startServer(t, append([]string{"--backend", "cql3"}, cqlFlags("", hosts, port, ks)...)...).addr)
	if !strings.Contains(cql, `id="ttl-form"`) || !strings.Contains(cql, `id="ttl-options"`) || !strings.Contains(cql, `id="ex-ttl-1"`) {
		t.Errorf("cql3: the lesson offers no run on the node")
	}
	base, _ := compareServer(t)
	both := get(strings.TrimPrefix(base, "http://"))
	if !strings.Contains(both, `id="ttl-form"`) || !strings.Contains(both, "Compare mode: this part runs on cql3") {
		t.Errorf("compare mode: the lesson does not run on the attached node")
	}
}
