package ring

import (
	"fmt"
	"math/big"
	"slices"
	"sort"
)

// Partitioner is a ring's token space.
type Partitioner struct {
	// Name is Cassandra's: "RandomPartitioner", "Murmur3Partitioner".
	Name string
	// Min and Max bound its tokens (Max included).
	Min, Max *big.Int
}

var (
	// Random is 0.6's RandomPartitioner: tokens from 0 to 2**127 (abs of a signed MD5).
	Random = Partitioner{Name: "RandomPartitioner", Min: big.NewInt(0), Max: new(big.Int).Lsh(big.NewInt(1), 127)}
	// Murmur3 is Murmur3Partitioner, the default since Cassandra 1.2: tokens are signed longs.
	Murmur3 = Partitioner{Name: "Murmur3Partitioner", Min: new(big.Int).Lsh(big.NewInt(-1), 63), Max: new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 63), big.NewInt(1))}
)

// Position is where t lies on the ring, from 0 (the smallest token) towards 1 (the largest),
// for a picture of the ring.
func (p Partitioner) Position(t *big.Int) float64 {
	span := new(big.Float).SetInt(new(big.Int).Sub(p.Max, p.Min))
	off := new(big.Float).SetInt(new(big.Int).Sub(t, p.Min))
	f, _ := new(big.Float).Quo(off, span).Float64()
	return f
}

// Even returns n tokens spread evenly over the ring, the i-th at Min + i*(Max-Min)/n: what
// 0.6's operators set as each node's InitialToken for a balanced ring (i*2**127/n).
func (p Partitioner) Even(n int) []*big.Int {
	span := new(big.Int).Sub(p.Max, p.Min)
	out := make([]*big.Int, n)
	for i := range n {
		t := new(big.Int).Mul(span, big.NewInt(int64(i)))
		out[i] = t.Add(t.Quo(t, big.NewInt(int64(n))), p.Min)
	}
	return out
}

// Node is one node of a ring: its name (an address), its data centre and the tokens it owns.
type Node struct {
	Name, DC string
	Tokens   []*big.Int
}

// Strategy is a keyspace's replica placement: RF replicas walking the ring (0.6's
// RackUnawareStrategy, CQL's SimpleStrategy), or, when PerDC is set, that many in each data
// centre (NetworkTopologyStrategy, racks not considered).
type Strategy struct {
	RF    int
	PerDC map[string]int
}

// Replicas returns the indexes in nodes of the replicas of token t, in the order the strategy
// picks them: the node owning the first token at or after t (the ring wraps after its largest
// token) holds the first replica, and the walk goes on clockwise, taking each node not taken
// yet that its data centre still needs, until every replica is placed or the ring is done (a
// factor above the nodes gets as many replicas as there are nodes, as 0.6 did).
func (s Strategy) Replicas(nodes []Node, t *big.Int) []int {
	type owned struct {
		tok  *big.Int
		node int
	}
	var ring []owned
	for i, n := range nodes {
		for _, tok := range n.Tokens {
			ring = append(ring, owned{tok, i})
		}
	}
	if len(ring) == 0 {
		return nil
	}
	sort.Slice(ring, func(a, b int) bool { return ring[a].tok.Cmp(ring[b].tok) < 0 })
	start := sort.Search(len(ring), func(i int) bool { return ring[i].tok.Cmp(t) >= 0 })
	need := map[string]int{}
	total := 0
	if s.PerDC != nil {
		for dc, n := range s.PerDC {
			need[dc] = n
			total += n
		}
	} else {
		total = s.RF
	}
	var out []int
	for i := 0; i < len(ring) && len(out) < total; i++ {
		n := ring[(start+i)%len(ring)].node
		if slices.Contains(out, n) {
			continue
		}
		if s.PerDC != nil {
			if need[nodes[n].DC] == 0 {
				continue
			}
			need[nodes[n].DC]--
		}
		out = append(out, n)
	}
	return out
}

// ParseToken reads a decimal token of p, and refuses one outside its range.
func (p Partitioner) ParseToken(s string) (*big.Int, error) {
	t, ok := new(big.Int).SetString(s, 10)
	if !ok || t.Cmp(p.Min) < 0 || t.Cmp(p.Max) > 0 {
		return nil, fmt.Errorf("%q is no %s token (%s to %s)", s, p.Name, p.Min, p.Max)
	}
	return t, nil
}
