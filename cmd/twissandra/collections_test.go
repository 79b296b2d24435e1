package main

import (
	"html"
	"io"
	"net/http"
	"strings"
	"testing"
)

// serve wires the collections lesson's node lab on cql3 and on compare mode's cql3 side: the
// lesson shows the lesson's tables there, and on memory says there is no CQL node, the engine's
// super column alone.
func TestServeCollectionsLesson(t *testing.T) {
	t.Parallel()
	get := func(addr string) string {
		t.Helper()
		r, err := http.Get("http://" + addr + "/learn/collections")
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%d: %s", r.StatusCode, b)
		}
		return html.UnescapeString(string(b))
	}
	mem := get(startServe(t))
	if !strings.Contains(mem, `id="coll-nonode"`) || strings.Contains(mem, `id="coll-ddl"`) || !strings.Contains(mem, `id="coll-form"`) {
		t.Errorf("memory: the lesson does not say it has no node, or lacks the engine's form")
	}
	hosts, port, ks := cqlKeyspace(t)
	cql := get(startServer(t, append([]string{"--backend", "cql3"}, cqlFlags("", hosts, port, ks)...)...).addr)
	if !strings.Contains(cql, `id="coll-ddl"`) || !strings.Contains(cql, "CREATE TABLE IF NOT EXISTS "+ks+".addressbook_map") || strings.Contains(cql, `id="coll-nonode"`) {
		t.Errorf("cql3: the lesson shows no tables of the node")
	}
	base, _ := compareServer(t)
	both := get(strings.TrimPrefix(base, "http://"))
	if !strings.Contains(both, `id="coll-ddl"`) || !strings.Contains(both, "on compare mode's cql3 node") {
		t.Errorf("compare mode: the lesson does not run on the attached node")
	}
}
