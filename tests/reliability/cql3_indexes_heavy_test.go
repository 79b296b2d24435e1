package reliability

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"twissandra/adapters/cql3"
	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/ports/teaching"
)

// Which nodes each way of the lesson on indexes asks, as the nodes' own traces say, on a
// three-node cluster (127.0.0.1-3, CQL port 9056, storage port 7056) with the keyspace at
// SimpleStrategy:2: the 2i's and the SAI's reads by name, which name no partition, are worked on
// by every node; the hand-kept table's read of the name's partition and the view's only by that
// partition's replicas (and the coordinator).
func TestCQL3IndexAsksEveryNode(t *testing.T) {
	heavy(t)
	root := t.TempDir()
	tokens := []int64{-6000000000000000000, -1000000000000000000, 4000000000000000000}
	var nodes []node
	var hosts []string
	for i := 1; i <= 3; i++ {
		n := node{listen: fmt.Sprintf("127.0.0.%d", i), port: 9056, storagePort: 7056, cluster: "twissandra-indexes", seeds: "127.0.0.1",
			token: strconv.FormatInt(tokens[i-1], 10), data: filepath.Join(root, fmt.Sprintf("node%d", i))}
		n.up(t)
		nodes = append(nodes, n)
		hosts = append(hosts, n.listen)
	}
	waitOneCluster(t, nodes)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	store, err := cql3.Open(ctx, cql3.Config{Hosts: hosts, Port: 9056, Keyspace: "twissandra_indexes", Replication: "SimpleStrategy:2",
		Timeout: 20 * time.Second, StartTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	lab := cqlteach.New(store)
	run, err := lab.FindUser(ctx, "heavy", "ann")
	if err != nil {
		t.Fatal(err)
	}
	if run.Nodes != 3 {
		t.Fatalf("the driver knows %d nodes", run.Nodes)
	}
	sess, err := store.Session()
	if err != nil {
		t.Fatal(err)
	}
	// The replicas of the name's partition (the hand-kept table's and the view's key).
	kr, err := lab.PlaceKey(ctx, run.User, teaching.RingSim{})
	if err != nil {
		t.Fatal(err)
	}
	var replicas []string
	for _, r := range kr.Replicas {
		host, _, _ := strings.Cut(kr.Nodes[r].Name, ":")
		replicas = append(replicas, host)
	}
	all := slices.Clone(hosts)
	// The indexes first: waiting for their three nodes' events gives the partitions' reads,
	// traced before them, the time to have all of theirs too.
	ways := slices.Clone(run.Ways)
	slices.SortStableFunc(ways, func(a, b teaching.WayRun) int {
		return boolInt(!isIndex(a.Way)) - boolInt(!isIndex(b.Way))
	})
	for _, w := range ways {
		if w.Refused != "" {
			t.Errorf("%s refused: %s", w.Way, w.Refused)
			continue
		}
		read := w.Read[0] // by the name: the index table's, the view's or the index's
		index := isIndex(w.Way)
		want := 1
		if index {
			want = 3
		}
		sources, coordinator := traceSources(t, ctx, sess.Session, read.TraceID, want)
		if !index && !strings.Contains(read.CQL, "'"+run.User+"'") {
			t.Fatalf("%s: the read is not by the name: %s", w.Way, read.CQL)
		}
		switch {
		case index && !slices.Equal(sources, all):
			t.Errorf("%s: the read by name was worked on by %v, want every node %v", w.Way, sources, all)
		case index && !read.RangeRead():
			t.Errorf("%s: no range requests in the trace:\n%s", w.Way, strings.Join(read.Events, "\n"))
		case !index:
			for _, s := range sources {
				if s != coordinator && !slices.Contains(replicas, s) {
					t.Errorf("%s: node %s worked on the read of one partition, whose replicas are %v (coordinator %s)", w.Way, s, replicas, coordinator)
				}
			}
		}
		t.Logf("%s: %s → nodes %v (coordinator %s; the name's replicas %v)", w.Way, read.CQL, sources, coordinator, replicas)
	}
}

// traceSources waits until the trace id names at least want nodes among its events' sources
// (the replicas write theirs after the coordinator answered), or a deadline passes, and
// returns them sorted, with the session's coordinator.
func traceSources(t *testing.T, ctx context.Context, s *gocql.Session, id string, want int) ([]string, string) {
	t.Helper()
	u, err := gocql.ParseUUID(id)
	if err != nil {
		t.Fatalf("trace id %q: %v", id, err)
	}
	var coordinator string
	if err := s.Query("SELECT coordinator FROM system_traces.sessions WHERE session_id = ?", u).WithContext(ctx).Scan(&coordinator); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		iter := s.Query("SELECT source FROM system_traces.events WHERE session_id = ?", u).WithContext(ctx).Iter()
		var (
			src string
			got []string
		)
		for iter.Scan(&src) {
			if !slices.Contains(got, src) {
				got = append(got, src)
			}
		}
		if err := iter.Close(); err != nil {
			t.Fatal(err)
		}
		if len(got) >= want || time.Now().After(deadline) {
			slices.Sort(got)
			return got, coordinator
		}
		time.Sleep(100 * time.Millisecond) // polling the trace tables, with a deadline
	}
}

func isIndex(way string) bool { return way == teaching.Way2i || way == teaching.WaySAI }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
