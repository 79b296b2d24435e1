package teach

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"unicode/utf8"

	"twissandra/adapters/internal/ring"
	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
)

// token is the partitioner's token of a row key, as Cassandra 0.6 printed it.
func (in *Inspector) token(key string) string { return in.node.Partitioner().Token(key) }

// rackUnaware names 0.6's default replica placement, the one the storage-conf gives every
// keyspace: the key's replicas are the owner of its token range and the next nodes clockwise.
const rackUnaware = "RackUnawareStrategy"

// PlaceKey implements teaching.Ring on a simulated ring: the engine is one node, so the ring
// is sim.Nodes nodes at evenly spaced tokens (what 0.6's operators set as InitialToken,
// i·2**127/N), and a key's sim.RF replicas (0: the Twissandra keyspace's ReplicationFactor in
// the storage-conf) are placed by RackUnawareStrategy on it. The key's token is the engine's
// own: RandomPartitioner's abs(MD5).
func (in *Inspector) PlaceKey(ctx context.Context, key string, sim teaching.RingSim) (teaching.KeyRing, error) {
	if key == "" || len(key) > teaching.MaxKeyBytes || !utf8.ValidString(key) {
		return teaching.KeyRing{}, fmt.Errorf("%w: a row key of 1 to %d bytes of UTF-8, please", teaching.ErrBadRing, teaching.MaxKeyBytes)
	}
	if sim.Nodes < 1 || sim.Nodes > teaching.MaxSimNodes {
		return teaching.KeyRing{}, fmt.Errorf("%w: a ring of 1 to %d nodes, please (asked: %d)", teaching.ErrBadRing, teaching.MaxSimNodes, sim.Nodes)
	}
	if sim.RF < 0 || sim.RF > teaching.MaxSimNodes {
		return teaching.KeyRing{}, fmt.Errorf("%w: a ReplicationFactor of 1 to %d, please (asked: %d)", teaching.ErrBadRing, teaching.MaxSimNodes, sim.RF)
	}
	if p := in.node.Partitioner(); p != engine.RandomPartitioner {
		return teaching.KeyRing{}, fmt.Errorf("the storage-conf names %s: the simulated ring is drawn for RandomPartitioner's tokens", p)
	}
	rf := sim.RF
	if rf == 0 {
		rf = 1
		if ks, ok := in.node.Schema().Keyspace(widerow.KeyspaceTwissandra); ok {
			rf = ks.ReplicationFactor
		}
	}
	tok, err := ring.Random.ParseToken(in.token(key))
	if err != nil {
		return teaching.KeyRing{}, err
	}
	out := teaching.KeyRing{Key: key, Partitioner: ring.Random.Name, Token: tok.String(), Position: ring.Random.Position(tok),
		Keyspace: widerow.KeyspaceTwissandra, Strategy: rackUnaware, ReplicationFactor: rf, Simulated: true,
		Source: fmt.Sprintf("a simulated ring of %d nodes at evenly spaced InitialTokens (i·2**127/%d): the engine itself is one node", sim.Nodes, sim.Nodes)}
	nodes := make([]ring.Node, sim.Nodes)
	for i, t := range ring.Random.Even(sim.Nodes) {
		nodes[i] = ring.Node{Name: "node " + strconv.Itoa(i+1), Tokens: []*big.Int{t}}
		out.Nodes = append(out.Nodes, teaching.RingNode{Name: nodes[i].Name, Tokens: []teaching.RingToken{{Token: t.String(), Position: ring.Random.Position(t)}}})
	}
	out.Replicas = ring.Strategy{RF: rf}.Replicas(nodes, tok)
	if oplog.Detailed(ctx) {
		oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: oplog.Note, Call: "token", Family: widerow.KeyspaceTwissandra, Keys: []string{strconv.Quote(key)}, KeyCount: 1,
			Touched: "no call", Text: fmt.Sprintf("token(%q) = %s: the MD5 of the key, as RandomPartitioner hashes it; no call to a node. Replicas: %s on a simulated ring of %d nodes",
				key, out.Token, rackUnaware, sim.Nodes)})
	}
	return out, nil
}

// Tokens implements teaching.Ring: every column family's rows are placed by the node's
// partitioner, RandomPartitioner's MD5 of the row key.
func (in *Inspector) Tokens(_ context.Context, _ string, keys [][]string) ([]string, error) {
	out := make([]string, len(keys))
	for i, k := range keys {
		if len(k) == 1 {
			out[i] = in.token(k[0])
		}
	}
	return out, nil
}
