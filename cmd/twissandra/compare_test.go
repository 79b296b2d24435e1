package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"twissandra/internal/testkit/cqltest"
	"twissandra/ports/oplog"
)

// compareServer serves widerow with cql3 (a real node) in compare mode.
func compareServer(t *testing.T) (base, keyspace string) {
	t.Helper()
	hosts, port, ks := cqlKeyspace(t)
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var stderr syncBuffer
	args := append([]string{"serve", "--backend", "widerow", "--data-dir", t.TempDir(), "--compare", "cql3",
		"--addr", addr, "--bcrypt-cost", "4", "--log-level", "warn", "--warm-lessons=false"}, cqlFlags("", hosts, port, ks)...)
	go func() { done <- run(ctx, args, io.Discard, &stderr) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d: %s", code, stderr.String())
		}
	})
	waitHealthy(t, "http://"+addr+"/readyz", done)
	return "http://" + addr, ks
}

type compareCall struct {
	status             int
	primary, secondary string // the Storage-Ops headers of the two models
	body               map[string]any
}

func callAPI(t *testing.T, method, url, token, body string) compareCall {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	c := compareCall{status: resp.StatusCode, primary: resp.Header.Get("Storage-Ops"), secondary: resp.Header.Get("Storage-Ops-Secondary")}
	_ = json.NewDecoder(resp.Body).Decode(&c.body)
	return c
}

// Every action on widerow runs on cql3 as well: each response states both models' operations,
// the 0.6 Thrift calls and the CQL statements, and the two models agree.
func TestCompareModeWiderowCQL3(t *testing.T) {
	base, ks := compareServer(t)
	api := base + "/api/v1"
	type step struct {
		name, method, path, token, body string
		status                          int
		primary, secondary              []string // kinds each model's header must count
	}
	token := map[string]string{}
	logIn := func(name string) {
		c := callAPI(t, "POST", api+"/sessions", "", `{"username":"`+name+`","password":"correct horse"}`)
		if c.status != 200 {
			t.Fatalf("log in %s: %d", name, c.status)
		}
		token[name] = c.body["token"].(string)
	}
	run := func(s step) compareCall {
		t.Helper()
		c := callAPI(t, s.method, api+s.path, token[s.token], s.body)
		if c.status != s.status {
			t.Fatalf("%s: %d %v", s.name, c.status, c.body)
		}
		if !strings.HasPrefix(c.secondary, "cql3: ") {
			t.Fatalf("%s: no secondary operations: %q (primary %q)", s.name, c.secondary, c.primary)
		}
		for _, k := range s.primary {
			if !strings.Contains(c.primary, " "+k+"=") {
				t.Errorf("%s: widerow's operations %q lack %s", s.name, c.primary, k)
			}
		}
		for _, k := range s.secondary {
			if !strings.Contains(c.secondary, " "+k+"=") {
				t.Errorf("%s: cql3's operations %q lack %s", s.name, c.secondary, k)
			}
		}
		if strings.Contains(c.primary, "DIVERGENCE") || strings.Contains(c.primary, "SECONDARY") {
			t.Errorf("%s: the models disagree: %s", s.name, c.primary)
		}
		return c
	}
	for _, name := range []string{"alice", "bob"} {
		run(step{"sign up " + name, "POST", "/users", "", `{"username":"` + name + `","password":"correct horse"}`, 201,
			[]string{"batch_mutate", "insert_if_absent"}, []string{"INSERT"}})
		logIn(name)
	}
	run(step{"follow", "PUT", "/users/bob/friends/alice", "bob", "", 204, []string{"batch_mutate"}, []string{"BATCH"}})
	run(step{"post", "POST", "/tweets", "alice", `{"body":"hello from two models"}`, 201, []string{"batch_mutate"}, []string{"INSERT"}})
	// The same record as JSON, on request: both models' operations, the fan-out's size.
	req, _ := http.NewRequest("POST", api+"/tweets", strings.NewReader(`{"body":"and the record"}`))
	req.Header.Set("Authorization", "Bearer "+token["alice"])
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Storage-Ops-Detail", "json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var rec struct {
		Ops       []oplog.Op
		Secondary struct {
			Model string
			Ops   []oplog.Op
		}
	}
	if err := json.Unmarshal([]byte(resp.Header.Get("Storage-Ops-Detail")), &rec); err != nil {
		t.Fatalf("the record: %v", err)
	}
	// Each model's operations are structured: the widerow batch and the cql3 inserts are
	// writes of their model, timed.
	if !slices.ContainsFunc(rec.Ops, func(op oplog.Op) bool { return strings.Contains(op.Text, "fan-out: the tweet went to 4 lines") }) ||
		!slices.ContainsFunc(rec.Ops, func(op oplog.Op) bool {
			return op.Model == "widerow" && op.Kind == oplog.Write && op.Call == "batch_mutate" && op.Took > 0
		}) ||
		rec.Secondary.Model != "cql3" || !slices.ContainsFunc(rec.Secondary.Ops, func(op oplog.Op) bool {
		return strings.HasPrefix(op.Text, "INSERT INTO timeline") && op.Model == "cql3" && op.Kind == oplog.Write && op.Family == "timeline" && op.Took > 0
	}) {
		t.Fatalf("the record: %+v", rec)
	}
	tl := run(step{"timeline page", "GET", "/timeline", "bob", "", 200, []string{"get_slice", "multiget_slice"}, []string{"SELECT"}})
	if tweets, _ := tl.body["tweets"].([]any); len(tweets) != 2 {
		t.Fatalf("bob's timeline: %v", tl.body)
	}
	run(step{"unfollow", "DELETE", "/users/bob/friends/alice", "bob", "", 204, []string{"batch_mutate"}, []string{"BATCH"}})
	run(step{"blog publish", "POST", "/blog/entries", "alice", `{"slug":"two-models","title":"Two models","body":"b","tags":["cassandra"]}`, 201,
		[]string{"insert_if_absent", "batch_mutate"}, []string{"INSERT"}})

	// The HTML page shows both models side by side.
	resp, err = http.Get(base + "/users/alice")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`data-model="widerow"`, `id="secondary-ops"`, "cql3 (shadow)", "SELECT"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the user page lacks %s", want)
		}
	}
	if strings.Contains(string(page), `id="divergences"`) {
		t.Error("the user page reports a divergence")
	}

	// Now the secondary diverges: alice's row is deleted behind the server's back.
	hosts, port := cqltest.Node(t)
	c := gocql.NewCluster(hosts...)
	c.Port, c.Timeout = port, 20*time.Second
	sess, err := c.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.Query("DELETE FROM " + ks + ".users WHERE username = 'alice'").Exec(); err != nil {
		t.Fatal(err)
	}
	before := compareReports(t, base)
	got := callAPI(t, "GET", api+"/users/alice", "", "")
	if got.status != 200 || !strings.Contains(got.primary, "DIVERGENCE=") {
		t.Fatalf("the divergence is not reported: %d %q", got.status, got.primary)
	}
	if after := compareReports(t, base); after <= before {
		t.Fatalf("twissandra_compare_reports_total{kind=\"divergence\"}: %v, then %v", before, after)
	}
	resp, err = http.Get(base + "/users/alice")
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `id="divergences"`) || !strings.Contains(string(page), "DIVERGENCE get_user alice") {
		t.Fatalf("the page does not show the divergence: %d", resp.StatusCode)
	}
}

// compareReports sums the divergences counted in /metrics.
func compareReports(t *testing.T, base string) float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var sum float64
	for line := range strings.Lines(string(b)) {
		if strings.HasPrefix(line, `twissandra_compare_reports_total{kind="divergence"`) {
			var v float64
			fields := strings.Fields(line)
			fmt.Sscan(fields[len(fields)-1], &v)
			sum += v
		}
	}
	return sum
}
