package reliability

import (
	"context"
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"twissandra/adapters/cql3"
	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/ports/teaching"
)

// The replicas the cql3 store derives from the driver's token metadata are the nodes' own: on
// a three-node cluster (127.0.0.1-3, CQL port 9046, storage port 7046) with a keyspace at
// SimpleStrategy:2, for each of many keys, PlaceKey's token is what the node says (SELECT
// token), its replicas are the two nodes the ring of the tokens each node reports in its own
// system.local gives, and a write of the key at ALL, traced, is applied (added to a memtable)
// on exactly those two nodes, as the nodes' trace events say.
func TestCQL3ReplicasAreTheNodes(t *testing.T) {
	heavy(t)
	root := t.TempDir()
	// Uneven tokens, so that each node owns a range of another size.
	tokens := []int64{-6000000000000000000, -1000000000000000000, 4000000000000000000}
	var nodes []node
	var hosts []string
	for i := 1; i <= 3; i++ {
		n := node{listen: fmt.Sprintf("127.0.0.%d", i), port: 9046, storagePort: 7046, cluster: "twissandra-tokens", seeds: "127.0.0.1",
			token: strconv.FormatInt(tokens[i-1], 10), data: filepath.Join(root, fmt.Sprintf("node%d", i))}
		n.up(t)
		nodes = append(nodes, n)
		hosts = append(hosts, n.listen)
	}
	waitOneCluster(t, nodes)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	store, err := cql3.Open(ctx, cql3.Config{Hosts: hosts, Port: 9046, Keyspace: "twissandra_tokens", Replication: "SimpleStrategy:2",
		Consistency: "ALL", Timeout: 20 * time.Second, StartTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()

	// What each node says of itself: its own system.local, asked of it alone.
	type owned struct {
		tok  *big.Int
		addr string
	}
	var ring []owned
	sessions := map[string]*gocql.Session{}
	for _, n := range nodes {
		c := gocql.NewCluster(n.listen)
		c.Port, c.Timeout, c.DisableInitialHostLookup = n.port, 20*time.Second, true
		c.HostFilter = gocql.WhiteListHostFilter(n.listen)
		s, err := c.CreateSession()
		if err != nil {
			t.Fatalf("a session on %s alone: %v", n.listen, err)
		}
		defer s.Close()
		sessions[n.listen] = s
		var own []string
		var addr string
		if err := s.Query("SELECT tokens, listen_address FROM system.local").WithContext(ctx).Scan(&own, &addr); err != nil {
			t.Fatal(err)
		}
		for _, tk := range own {
			v, _ := new(big.Int).SetString(tk, 10)
			ring = append(ring, owned{v, n.listen})
		}
	}
	sort.Slice(ring, func(a, b int) bool { return ring[a].tok.Cmp(ring[b].tok) < 0 })
	nodesSay := func(tok *big.Int) []string {
		at := sort.Search(len(ring), func(i int) bool { return ring[i].tok.Cmp(tok) >= 0 })
		var out []string
		for i := 0; len(out) < 2 && i < len(ring); i++ {
			if a := ring[(at+i)%len(ring)].addr; !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
		return out
	}

	s := sessions["127.0.0.1"]
	if err := s.Query("CREATE TABLE IF NOT EXISTS twissandra_tokens.token_check (k text PRIMARY KEY, v int)").WithContext(ctx).Exec(); err != nil {
		t.Fatal(err)
	}
	if err := s.AwaitSchemaAgreement(ctx); err != nil {
		t.Fatal(err)
	}
	const keys, traced = 300, 30
	perNode := map[string]int{}
	for i := range keys {
		key := "user_" + strconv.Itoa(i)
		kr, err := cqlteach.New(store).PlaceKey(ctx, key, teaching.RingSim{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range kr.Replicas {
			host, _, _ := strings.Cut(kr.Nodes[r].Name, ":")
			got = append(got, host)
			perNode[host]++
		}
		tok, _ := new(big.Int).SetString(kr.Token, 10)
		if want := nodesSay(tok); !slices.Equal(got, want) {
			t.Errorf("%s (token %s): replicas %v from the driver, the nodes' tokens say %v", key, kr.Token, got, want)
		}
		if len(kr.Nodes) != 3 || kr.ReplicationFactor != 2 {
			t.Fatalf("the driver knows %d nodes, RF %d", len(kr.Nodes), kr.ReplicationFactor)
		}
		if i >= traced {
			continue
		}
		// The node's token, and the nodes that apply a write at ALL.
		var nodeTok int64
		tr := &traceID{}
		if err := s.Query("INSERT INTO twissandra_tokens.token_check (k, v) VALUES (?, ?)", key, i).Consistency(gocql.All).Trace(tr).WithContext(ctx).Exec(); err != nil {
			t.Fatal(err)
		}
		if err := s.Query("SELECT token(k) FROM twissandra_tokens.token_check WHERE k = ?", key).WithContext(ctx).Scan(&nodeTok); err != nil {
			t.Fatal(err)
		}
		if strconv.FormatInt(nodeTok, 10) != kr.Token {
			t.Errorf("%s: token %s, the node says %d", key, kr.Token, nodeTok)
		}
		applied := waitAppliedOn(t, ctx, s, tr.id, 2)
		slices.Sort(applied)
		want := slices.Clone(got)
		slices.Sort(want)
		if !slices.Equal(applied, want) {
			t.Errorf("%s: a write at ALL was applied on %v; the driver's replicas are %v", key, applied, got)
		}
	}
	t.Logf("%d keys placed, the driver's replicas the nodes' own for each; %d writes traced, each applied on exactly its two replicas; keys per node: %v", keys, traced, perNode)
}

// traceID keeps the id of a traced statement.
type traceID struct{ id []byte }

func (t *traceID) Trace(id []byte) { t.id = append([]byte(nil), id...) }

// waitAppliedOn returns the nodes whose trace events say they added the traced write to a
// memtable, once at least want have (trace events are written asynchronously), or what it has
// after a deadline.
func waitAppliedOn(t *testing.T, ctx context.Context, s *gocql.Session, id []byte, want int) []string {
	t.Helper()
	u, err := gocql.UUIDFromBytes(id)
	if err != nil {
		t.Fatalf("trace id %x: %v", id, err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		iter := s.Query("SELECT source, activity FROM system_traces.events WHERE session_id = ?", u).WithContext(ctx).Iter()
		var (
			src      string
			activity string
			got      []string
		)
		for iter.Scan(&src, &activity) {
			if strings.Contains(activity, "memtable") && !slices.Contains(got, src) {
				got = append(got, src)
			}
		}
		if err := iter.Close(); err != nil {
			t.Fatal(err)
		}
		if len(got) >= want || time.Now().After(deadline) {
			return got
		}
		time.Sleep(100 * time.Millisecond) // polling the trace tables, with a deadline
	}
}
