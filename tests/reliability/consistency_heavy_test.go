package reliability

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"twissandra/adapters/cql3"
	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/ports/teaching"
)

// The consistency lab on a real cluster: three nodes on 127.0.0.1-3:9048 (storage port 7048),
// a keyspace of replication factor 3, each level tried by the cql3 adapter's TryLevels (what
// the consistency lesson shows when serve runs on a cluster). With every node up, every level
// succeeds; with one node stopped, ONE and QUORUM still do, and ALL is refused by the
// coordinator as Unavailable, 3 replicas required and 2 alive, as the driver reports it.
func TestCQL3ThreeNodesLevels(t *testing.T) {
	heavy(t)
	var nodes []node
	root := t.TempDir()
	for i := 1; i <= 3; i++ {
		n := node{listen: fmt.Sprintf("127.0.0.%d", i), port: 9048, storagePort: 7048, cluster: "twissandra-levels", seeds: "127.0.0.1",
			token: strconv.FormatInt(int64(i-2)*3074457345618258602, 10), data: filepath.Join(root, fmt.Sprintf("node%d", i))}
		n.up(t)
		nodes = append(nodes, n)
	}
	for deadline := time.Now().Add(time.Minute); ; {
		peers := nodes[0].output(t, "cassandra.sh", "cql", "SELECT peer FROM system.peers")
		if strings.Contains(peers, "127.0.0.2") && strings.Contains(peers, "127.0.0.3") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the nodes did not form one cluster within a minute: peers of 127.0.0.1: %q", peers)
		}
		time.Sleep(500 * time.Millisecond) // polling gossip, with a deadline
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	store, err := cql3.Open(ctx, cql3.Config{Hosts: []string{"127.0.0.1", "127.0.0.2", "127.0.0.3"}, Port: 9048, Keyspace: "twissandra_levels",
		Replication: "SimpleStrategy:3", Timeout: 5 * time.Second, StartTimeout: 3 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })

	all, err := cqlteach.New(store).TryLevels(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("three nodes up, %s: %s", all.Replication, levelsLine(all.Levels))
	if got := levelsLine(all.Levels); got != "ONE succeeded/succeeded QUORUM succeeded/succeeded ALL succeeded/succeeded" {
		t.Errorf("three nodes up: %s", got)
	}

	stopped := time.Now()
	nodes[2].script(t, "cassandra.sh", "down")
	t.Logf("stopped %s:%d in %s", nodes[2].listen, nodes[2].port, time.Since(stopped).Round(time.Millisecond))
	// The coordinators learn of the stop by gossip; until they do, ALL times out instead of
	// being refused. Ask again, with a deadline, until the refusal comes.
	const want = "ONE succeeded/succeeded QUORUM succeeded/succeeded ALL Unavailable: 3 replicas required, 2 alive/Unavailable: 3 replicas required, 2 alive"
	var got string
	tries := 0
	for deadline := time.Now().Add(2 * time.Minute); ; {
		tries++
		two, err := cqlteach.New(store).TryLevels(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got = levelsLine(two.Levels); got == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("two minutes after the stop: %s\nwant %s", got, want)
		}
		time.Sleep(time.Second) // polling the cluster's view of the stop, with a deadline
	}
	t.Logf("one node of three stopped: %s (after %d tries, %s)", got, tries, time.Since(stopped).Round(time.Millisecond))
}

// levelsLine writes each level's write and read: "ONE succeeded/succeeded ALL Unavailable: …/…".
func levelsLine(levels []teaching.LevelTry) string {
	var parts []string
	for _, l := range levels {
		parts = append(parts, l.Level+" "+l.Write.String()+"/"+l.Read.String())
	}
	return strings.Join(parts, " ")
}
