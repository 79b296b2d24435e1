package teaching

import (
	"context"
	"errors"
)

// Ring places a row or partition key on the store's ring of nodes: the partitioner's token of
// the key, and the nodes that hold its replicas under the keyspace's replica placement. The
// tokens-and-replicas lesson draws it; "where does it live" shows each key's token.
//
// On cql3 the ring is the cluster's, as the driver knows it (each host and its tokens, from
// the nodes' system tables) and the keyspace's replication; on widerow, one node of 0.6, it is
// a simulated ring of sim.Nodes nodes at evenly spaced tokens with 0.6's RackUnawareStrategy.
// A store without a partitioner returns an error that wraps ErrNoRing and says why.
type Ring interface {
	PlaceKey(ctx context.Context, key string, sim RingSim) (KeyRing, error)
	// Tokens are the partitioner's tokens of keys of one container, in decimal, in the order
	// asked: a container is a column family ("Twissandra.User") on widerow, whose keys are
	// one row key each, or a table ("timeline") on cql3, whose keys are the values of its
	// partition key columns, as text (a uuid, a date 2010-05-12), hashed as Cassandra
	// serializes them. A token the store cannot compute (a key of a type it does not hash, a
	// key of the wrong arity) is "".
	Tokens(ctx context.Context, container string, keys [][]string) ([]string, error)
}

// ErrNoRing is what a store without a partitioner (memory) answers PlaceKey with.
var ErrNoRing = errors.New("no ring on this backend")

// ErrBadRing wraps a simulated ring the learner asked for that cannot be: a size or factor
// out of bounds, an empty key.
var ErrBadRing = errors.New("bad ring")

// RingSim is the simulated ring a learner asks for (widerow): Nodes nodes, and RF replicas of
// each key (0: the keyspace's own ReplicationFactor). A real ring ignores it.
type RingSim struct {
	Nodes, RF int
}

// The bounds of a simulated ring.
const (
	MaxSimNodes = 32
	MaxKeyBytes = 1024
)

// KeyRing is a key on the ring.
type KeyRing struct {
	// Key is the row or partition key, as text.
	Key string
	// Partitioner names the token function: "RandomPartitioner" (MD5), "Murmur3Partitioner".
	Partitioner string
	// Token is the key's token, in decimal as Cassandra prints it; Position is where it lies on
	// the ring, from 0 (the smallest token) towards 1.
	Token    string
	Position float64
	// Keyspace, Strategy and ReplicationFactor are the replica placement: "Twissandra",
	// "RackUnawareStrategy", 1; "twissandra", "SimpleStrategy", 3. Replication is the
	// factor per data centre under NetworkTopologyStrategy.
	Keyspace          string
	Strategy          string
	ReplicationFactor int
	// Simulated reports a ring the store made up for the lesson (widerow's), not a cluster's.
	Simulated bool
	// Nodes are the ring's nodes, each with its tokens; Replicas are the indexes in Nodes of
	// the key's replicas, in the order the strategy picks them (the first is the node whose
	// token range holds the key).
	Nodes    []RingNode
	Replicas []int
	// Source says where the ring came from: "the driver's token metadata (system.local and
	// system.peers)", "a simulated ring of 5 nodes at evenly spaced InitialTokens".
	Source string
}

// RingNode is one node of a ring.
type RingNode struct {
	// Name is its address ("127.0.0.2:9042", or "node 3" on a simulated ring); DC its data
	// centre ("" for none).
	Name, DC string
	Tokens   []RingToken
}

// RingToken is one token a node owns, and where it lies on the ring (0 to 1).
type RingToken struct {
	Token    string
	Position float64
}
