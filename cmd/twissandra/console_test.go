package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"

	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/internal/testkit/cqltest"
)

// consoleLanguages is what GET /api/v1/console says base offers.
func consoleLanguages(t *testing.T, base string) []string {
	t.Helper()
	c := callAPI(t, http.MethodGet, base+"/api/v1/console", "", "")
	var langs []string
	for _, l := range c.body["languages"].([]any) {
		langs = append(langs, l.(string))
	}
	if c.status != http.StatusOK {
		t.Fatalf("GET /api/v1/console: %d %v", c.status, c.body)
	}
	return langs
}

// serve wires each backend's consoles from the teach module's group: cli on widerow, none on
// memory.
func TestServeConsoles(t *testing.T) {
	t.Parallel()
	if got := consoleLanguages(t, "http://"+startServer(t, "--backend", "widerow", "--data-dir", t.TempDir()).addr); !slices.Equal(got, []string{"cli"}) {
		t.Errorf("widerow offers %v, want cli", got)
	}
	if got := consoleLanguages(t, "http://"+startServe(t)); len(got) != 0 {
		t.Errorf("memory offers %v, want none", got)
	}
}

// In compare mode both backends' consoles are served: cli on widerow, and cql on the second
// backend's node, whose statements are that model's operations (Storage-Ops-Secondary).
func TestCompareModeConsoles(t *testing.T) {
	base, ks := compareServer(t)
	t.Cleanup(func() { dropKeyspace(t, cqlteach.ConsoleKeyspace(ks)) })
	if got := consoleLanguages(t, base); !slices.Equal(got, []string{"cli", "cql"}) {
		t.Fatalf("compare mode offers %v, want cli and cql", got)
	}
	c := callAPI(t, http.MethodPost, base+"/api/v1/console", "", `{"language":"cql","statement":"SELECT username FROM `+ks+`.users LIMIT 1"}`)
	if c.status != http.StatusOK || c.secondary == "" {
		t.Fatalf("a CQL statement in compare mode: %d %v, secondary ops %q", c.status, c.body, c.secondary)
	}
	out, _ := json.Marshal(c.body)
	if !strings.Contains(string(out), "rows)") {
		t.Errorf("the SELECT printed no rows' count: %s", out)
	}
}

// dropKeyspace drops ks on the test node.
func dropKeyspace(t *testing.T, ks string) {
	hosts, port := cqltest.Node(t)
	cl := gocql.NewCluster(hosts...)
	cl.Port, cl.Timeout = port, time.Minute
	sess, err := cl.CreateSession()
	if err != nil {
		t.Errorf("drop keyspace %s: %v", ks, err)
		return
	}
	defer sess.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := sess.Query("DROP KEYSPACE IF EXISTS " + ks).WithContext(ctx).Exec(); err != nil {
		t.Errorf("drop keyspace %s: %v", ks, err)
	}
}

// Two servers on one cql3 keyspace, as behind a load balancer: a run on one is shown by the
// other on the page after the redirect, which the first server kept in the store's ledger.
func TestConsoleRunShownByAnotherServer(t *testing.T) {
	hosts, port, ks := cqlKeyspace(t)
	t.Cleanup(func() { dropKeyspace(t, cqlteach.ConsoleKeyspace(ks)) })
	args := append([]string{"--backend", "cql3", "--token-secret", "console-two-servers-0123456789abcdef"}, cqlFlags("", hosts, port, ks)...)
	a := newFormClient(t, "http://"+startServer(t, args...).addr)
	b := &formClient{t: t, base: "http://" + startServer(t, args...).addr, c: a.c} // the same browser
	if r := a.post("/learn/console", url.Values{"language": {"cql"}, "statements": {"CONSISTENCY QUORUM;"}}); r.status != http.StatusSeeOther {
		t.Fatalf("run: %d\n%s", r.status, r.body)
	}
	r := b.get("/learn/console?lang=cql")
	if r.status != http.StatusOK || !strings.Contains(r.body, "Consistency level set to QUORUM.") {
		t.Fatalf("the other server's page after the run: %d, without the run's output\n%s", r.status, r.body)
	}
}
