package reliability

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The heavy tests start Cassandra nodes of their own (a second JVM, or three) beside the one
// of TWISSANDRA_CQL_HOSTS, on other loopback addresses and ports: make heavy runs them.

func heavy(t *testing.T) {
	t.Helper()
	if os.Getenv("TWISSANDRA_HEAVY") != "1" {
		t.Skip("heavy: starts Cassandra nodes of its own; run with TWISSANDRA_HEAVY=1 (make heavy)")
	}
}

// node is one Cassandra node of scripts/cassandra.sh, known by its knobs.
type node struct {
	listen      string
	port        int
	storagePort int
	cluster     string
	seeds       string
	token       string
	data        string
}

func (n node) env() []string {
	return append(os.Environ(),
		"TWISSANDRA_CASSANDRA_LISTEN="+n.listen,
		"TWISSANDRA_CASSANDRA_PORT="+strconv.Itoa(n.port),
		"TWISSANDRA_CASSANDRA_STORAGE_PORT="+strconv.Itoa(n.storagePort),
		"TWISSANDRA_CASSANDRA_CLUSTER="+n.cluster,
		"TWISSANDRA_CASSANDRA_SEEDS="+n.seeds,
		"TWISSANDRA_CASSANDRA_INITIAL_TOKEN="+n.token,
		"TWISSANDRA_CASSANDRA_DATA="+n.data,
	)
}

// script runs one of the node scripts (cassandra.sh or cassandra-restart.sh) for n.
func (n node) script(t *testing.T, name string, args ...string) time.Duration {
	t.Helper()
	start := time.Now()
	n.output(t, name, args...)
	return time.Since(start)
}

// output runs a node script for n and returns its standard output.
func (n node) output(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(repoRoot(t), "scripts", name), args...)
	cmd.Env = n.env()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v on %s:%d: %v\n%s%s", name, args, n.listen, n.port, err, out, stderr.String())
	}
	return string(out)
}

// up starts n and stops it (wiping its data) when the test ends.
func (n node) up(t *testing.T) {
	t.Helper()
	t.Cleanup(func() {
		cmd := exec.Command(filepath.Join(repoRoot(t), "scripts", "cassandra.sh"), "down")
		cmd.Env = n.env()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("cassandra.sh down %s:%d: %v\n%s", n.listen, n.port, err, out)
		}
	})
	d := n.script(t, "cassandra.sh", "up")
	t.Logf("node %s:%d up in %s", n.listen, n.port, d.Round(time.Second))
}

func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(out))
}

var servingAddr = regexp.MustCompile(`msg=serving addr=(127\.0\.0\.1:\d+)`)

// startServeArgs runs the binary's serve with args on a free loopback port and returns its base
// URL once /healthz answers; its log goes to a file printed if the test fails.
func startServeArgs(t *testing.T, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "serve.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--bcrypt-cost", "4",
		"--token-secret", string(testSecret)}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		logFile.Close()
		if t.Failed() {
			if b, err := os.ReadFile(logPath); err == nil {
				lines := strings.Split(string(b), "\n")
				t.Logf("serve log (tail):\n%s", strings.Join(lines[max(0, len(lines)-40):], "\n"))
			}
		}
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			fmt.Fprintln(logFile, sc.Text())
			if m := servingAddr.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case a := <-addr:
		base := "http://" + a
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if resp, err := http.Get(base + "/healthz"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return cmd, base
				}
			}
			time.Sleep(20 * time.Millisecond) // polling for readiness, with a deadline
		}
		t.Fatalf("serve at %s never became healthy", base)
	case <-time.After(3 * time.Minute):
		t.Fatal("serve did not start within 3 minutes")
	}
	return nil, ""
}

// sample is one request of the load: when it was sent, how long it took, what it got.
type sample struct {
	at      time.Time
	took    time.Duration
	status  int // 0: no response (transport error)
	tweetID string
	writer  int
}

// Stopping the only node under a write load: while it is down every request gets a 503 within
// outageBound (never a 500, never a hang, the server does not crash); once it is back on the same
// data, requests succeed again within recoveryBound without restarting the server, and every
// tweet acknowledged with a 201 (before, during or after) is there.
func TestCQL3NodeStopDuringLoad(t *testing.T) {
	heavy(t)
	const (
		outageBound   = 3 * time.Second
		recoveryBound = 90 * time.Second
		outageFor     = 10 * time.Second
		writers       = 4
	)
	n := node{listen: "127.0.0.2", port: 9043, storagePort: 7043, cluster: "twissandra-outage", seeds: "127.0.0.2", token: "0",
		data: filepath.Join(t.TempDir(), "node")}
	n.up(t)
	bin := buildServer(t)
	proc, base := startServeArgs(t, bin, "--backend", "cql3", "--cql-hosts", n.listen, "--cql-port", strconv.Itoa(n.port),
		"--cql-keyspace", "twissandra_outage", "--cql-timeout", "1s", "--cql-connect-timeout", "1s", "--cql-retries", "1")
	c := &client{base: base, http: &http.Client{Timeout: 30 * time.Second}}
	tokens := make([]string, writers)
	for w := range writers {
		tokens[w] = c.user(t, userName(w))
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		mu      sync.Mutex
		samples []sample
		wg      sync.WaitGroup
	)
	for w := range writers {
		wg.Go(func() {
			tick := time.NewTicker(20 * time.Millisecond) // a steady request rate, not a busy loop on fast 503s
			defer tick.Stop()
			for i := 0; ctx.Err() == nil; i++ {
				s := sample{at: time.Now(), writer: w}
				status, body, err := c.call(http.MethodPost, "/api/v1/tweets", map[string]string{"body": fmt.Sprintf("%s #%d", userName(w), i)}, tokens[w])
				s.took = time.Since(s.at)
				if err == nil {
					s.status = status
					var tw tweet
					if status == http.StatusCreated && json.Unmarshal(body, &tw) == nil {
						s.tweetID = tw.ID
					}
				}
				mu.Lock()
				samples = append(samples, s)
				mu.Unlock()
				select {
				case <-tick.C:
				case <-ctx.Done():
				}
			}
		})
	}
	acked := func() int {
		mu.Lock()
		defer mu.Unlock()
		k := 0
		for _, s := range samples {
			if s.status == http.StatusCreated {
				k++
			}
		}
		return k
	}
	waitFor := func(what string, d time.Duration, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(d)
		for !ok() {
			if time.Now().After(deadline) {
				cancel()
				wg.Wait()
				t.Fatalf("%s: not within %s", what, d)
			}
			time.Sleep(50 * time.Millisecond) // polling with a deadline
		}
	}
	waitFor("100 acknowledged tweets before the stop", time.Minute, func() bool { return acked() >= 100 })

	stopAt := time.Now()
	stopTook := n.script(t, "cassandra-restart.sh", "stop")
	downAt := time.Now()
	waitFor("the outage", outageFor+time.Minute, func() bool { return time.Since(downAt) >= outageFor })
	startAt := time.Now()
	startTook := n.script(t, "cassandra-restart.sh", "start")
	upAt := time.Now()
	var recoveredAt time.Time
	waitFor("a 201 after the node is back", recoveryBound, func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, s := range samples {
			if s.status == http.StatusCreated && s.at.After(startAt) {
				recoveredAt = s.at.Add(s.took)
				return true
			}
		}
		return false
	})
	afterRecovery := acked()
	waitFor("50 more acknowledged tweets after recovery", time.Minute, func() bool { return acked() >= afterRecovery+50 })
	cancel()
	wg.Wait()

	if err := proc.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("serve is gone: %v", err)
	}
	statuses := func(from, to time.Time) (map[int]int, time.Duration) {
		m, worst := map[int]int{}, time.Duration(0)
		for _, s := range samples {
			if !s.at.Before(from) && s.at.Before(to) {
				m[s.status]++
				worst = max(worst, s.took)
			}
		}
		return m, worst
	}
	during, worstDuring := statuses(downAt, startAt)
	stopping, worstStopping := statuses(stopAt, downAt)
	starting, worstStarting := statuses(startAt, recoveredAt)
	t.Logf("node stop took %s (SIGTERM, drain), start on the kept data %s", stopTook.Round(time.Millisecond), startTook.Round(time.Millisecond))
	t.Logf("while stopping: statuses %v, slowest %s", stopping, worstStopping.Round(time.Millisecond))
	t.Logf("while down (%s): statuses %v, slowest %s", startAt.Sub(downAt).Round(time.Millisecond), during, worstDuring.Round(time.Millisecond))
	t.Logf("while starting and until the first 201: statuses %v, slowest %s", starting, worstStarting.Round(time.Millisecond))
	// The script polls for CQL once a second, so the server may well be served before it says so.
	t.Logf("recovery: first 201 %s after the start began; the script saw CQL answer after %s",
		recoveredAt.Sub(startAt).Round(time.Millisecond), upAt.Sub(startAt).Round(time.Millisecond))

	for _, s := range samples {
		if s.status == http.StatusInternalServerError || s.status == 0 {
			t.Errorf("request at %s (+%s from the stop): status %d", s.at.Format(time.TimeOnly), s.at.Sub(stopAt).Round(time.Millisecond), s.status)
		}
	}
	if during[http.StatusServiceUnavailable] == 0 || len(during) != 1 {
		t.Errorf("while the node was down: statuses %v, want only 503", during)
	}
	if worst := max(worstStopping, worstDuring, worstStarting); worst > outageBound {
		t.Errorf("from the stop to the recovery the slowest answer took %s, want at most %s", worst, outageBound)
	}

	// Every acknowledged tweet is there: by ID, and in its author's userline.
	ids := make([][]string, writers)
	total := 0
	for _, s := range samples {
		if s.tweetID != "" {
			ids[s.writer] = append(ids[s.writer], s.tweetID)
			total++
		}
	}
	lost := 0
	for w := range writers {
		inLine := map[string]bool{}
		for _, tw := range c.line(t, "/api/v1/users/"+userName(w)+"/tweets", "") {
			inLine[tw.ID] = true
		}
		for _, id := range ids[w] {
			status, _, err := c.call(http.MethodGet, "/api/v1/tweets/"+id, nil, "")
			if err != nil || status != http.StatusOK || !inLine[id] {
				lost++
				if lost < 10 {
					t.Errorf("acknowledged tweet %s of %s: GET %d %v, in the userline: %v", id, userName(w), status, err, inLine[id])
				}
			}
		}
	}
	t.Logf("%d requests, %d tweets acknowledged, %d of them lost", len(samples), total, lost)
	if lost > 0 {
		t.Fatalf("%d of %d acknowledged tweets lost", lost, total)
	}
}

// A three-node cluster with RF=3 keeps serving at LOCAL_QUORUM with one node stopped: sign-ups
// (lightweight transactions at LOCAL_SERIAL), follows, posts and timelines all succeed.
func TestCQL3ThreeNodesOneDown(t *testing.T) {
	heavy(t)
	var nodes []node
	root := t.TempDir()
	for i := 1; i <= 3; i++ {
		n := node{listen: fmt.Sprintf("127.0.0.%d", i), port: 9044, storagePort: 7044, cluster: "twissandra-rf3", seeds: "127.0.0.1",
			token: strconv.FormatInt(int64(i-2)*3074457345618258602, 10), data: filepath.Join(root, fmt.Sprintf("node%d", i))}
		n.up(t)
		nodes = append(nodes, n)
	}
	waitOneCluster(t, nodes)
	bin := buildServer(t)
	_, base := startServeArgs(t, bin, "--backend", "cql3", "--cql-hosts", "127.0.0.1,127.0.0.2,127.0.0.3", "--cql-port", "9044",
		"--cql-keyspace", "twissandra_rf3", "--cql-replication", "SimpleStrategy:3", "--cql-consistency", "LOCAL_QUORUM",
		"--cql-serial-consistency", "LOCAL_SERIAL", "--cql-timeout", "5s")
	c := &client{base: base, http: &http.Client{Timeout: 60 * time.Second}}

	post := func(tok, body string) string {
		t.Helper()
		var tw tweet
		if err := json.Unmarshal(c.must(t, http.StatusCreated, http.MethodPost, "/api/v1/tweets", map[string]string{"body": body}, tok), &tw); err != nil {
			t.Fatal(err)
		}
		return tw.ID
	}
	alice, bob := c.user(t, "alice"), c.user(t, "bob")
	c.must(t, http.StatusNoContent, http.MethodPut, "/api/v1/users/bob/friends/alice", nil, bob)
	want := []string{post(alice, "all three nodes up")}
	checkLine(t, "bob's timeline, three nodes", c.line(t, "/api/v1/timeline", bob), want)

	stopped := time.Now()
	nodes[2].script(t, "cassandra.sh", "down")
	t.Logf("stopped %s:%d in %s", nodes[2].listen, nodes[2].port, time.Since(stopped).Round(time.Millisecond))

	// The driver learns of the stop from the cluster's events and its broken connections; give
	// it a bounded moment, counting what failed meanwhile.
	failed, first := 0, time.Now()
	var carol string
	for deadline := time.Now().Add(time.Minute); ; {
		status, _, err := c.call(http.MethodPost, "/api/v1/users", map[string]string{"username": "carol", "password": password}, "")
		if err == nil && (status == http.StatusCreated || status == http.StatusConflict) {
			carol = c.login(t, "carol")
			break
		}
		failed++
		if time.Now().After(deadline) {
			t.Fatalf("no sign-up succeeded within a minute of the stop (last: %d %v)", status, err)
		}
		time.Sleep(100 * time.Millisecond) // polling with a deadline
	}
	t.Logf("with one node down: first sign-up after %s, %d failed attempts before it", time.Since(first).Round(time.Millisecond), failed)

	// From now on everything must succeed.
	start := time.Now()
	const rounds = 10
	toks := []string{carol}
	for i := range rounds {
		name := "two_nodes_" + strconv.Itoa(i)
		tok := c.user(t, name)
		c.must(t, http.StatusNoContent, http.MethodPut, "/api/v1/users/"+name+"/friends/alice", nil, tok)
		toks = append(toks, tok)
		want = append(want, post(alice, fmt.Sprintf("two nodes, round %d", i)))
	}
	checkLine(t, "bob's timeline, two nodes", c.line(t, "/api/v1/timeline", bob), want)
	checkLine(t, "alice's userline, two nodes", c.line(t, "/api/v1/users/alice/tweets", ""), want)
	for i, tok := range toks[1:] {
		// Following backfills alice's earlier tweets: every timeline holds all of them.
		checkLine(t, "timeline of two_nodes_"+strconv.Itoa(i), c.line(t, "/api/v1/timeline", tok), want)
	}
	t.Logf("with one of three nodes down: %d sign-ups, %d follows, %d posts and %d timelines read in %s, all succeeded",
		rounds+1, rounds, rounds, rounds+1, time.Since(start).Round(time.Millisecond))
}

// waitOneCluster waits until the three nodes 127.0.0.1-3 are one cluster, not three: the first
// node knows the other two as peers. A node answers CQL before gossip has told the others of
// it, so the first node is asked until it knows.
func waitOneCluster(t *testing.T, nodes []node) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; {
		peers := nodes[0].output(t, "cassandra.sh", "cql", "SELECT peer FROM system.peers")
		if strings.Contains(peers, "127.0.0.2") && strings.Contains(peers, "127.0.0.3") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the nodes did not form one cluster within a minute: peers of 127.0.0.1: %q", peers)
		}
		time.Sleep(500 * time.Millisecond) // polling gossip, with a deadline
	}
}

// login returns a token of name.
func (c *client) login(t testing.TB, name string) string {
	t.Helper()
	var s struct{ Token string }
	if err := json.Unmarshal(c.must(t, http.StatusOK, http.MethodPost, "/api/v1/sessions", map[string]string{"username": name, "password": password}, ""), &s); err != nil || s.Token == "" {
		t.Fatalf("log in %s: %v", name, err)
	}
	return s.Token
}
