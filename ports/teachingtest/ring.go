package teachingtest

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"strconv"
	"testing"

	"twissandra/ports/teaching"
)

// RingKind says what ring a store has.
type RingKind int

// The kinds of ring.
const (
	RingNone      RingKind = iota // no partitioner (memory): ErrNoRing
	RingSimulated                 // a simulated ring of the size asked (widerow)
	RingReal                      // a cluster's ring (cql3)
)

// RunRing checks a teaching.Ring: the bounds of what may be asked (ErrBadRing), and on a
// store with a ring, that a key's token is stable, lies on the ring, and that its replicas are
// distinct nodes of the ring, as many as the factor (or the nodes, if fewer), the first being
// the owner of the first token at or after the key's (the ring wraps), and on a ring of one
// token per node the next ones clockwise. Tokens of one-column keys of container (a column
// family or table keyed by text) are PlaceKey's.
func RunRing(t *testing.T, r teaching.Ring, kind RingKind, container string) {
	ctx := context.Background()
	t.Run("bounds", func(t *testing.T) {
		bad := []teaching.RingSim{{Nodes: 3}}
		if kind == RingSimulated {
			bad = append(bad, teaching.RingSim{Nodes: 0}, teaching.RingSim{Nodes: teaching.MaxSimNodes + 1}, teaching.RingSim{Nodes: 3, RF: -1},
				teaching.RingSim{Nodes: 3, RF: teaching.MaxSimNodes + 1})
		}
		for i, sim := range bad {
			key := "jericevans"
			if i == 0 {
				key = ""
			}
			if _, err := r.PlaceKey(ctx, key, sim); !errors.Is(err, teaching.ErrBadRing) {
				t.Errorf("PlaceKey(%q, %+v): %v, want ErrBadRing", key, sim, err)
			}
		}
		if _, err := r.PlaceKey(ctx, string(make([]byte, teaching.MaxKeyBytes+1)), teaching.RingSim{Nodes: 3}); !errors.Is(err, teaching.ErrBadRing) {
			t.Errorf("a key of %d bytes: %v, want ErrBadRing", teaching.MaxKeyBytes+1, err)
		}
	})
	if kind == RingNone {
		if _, err := r.PlaceKey(ctx, "jericevans", teaching.RingSim{Nodes: 3}); !errors.Is(err, teaching.ErrNoRing) {
			t.Errorf("PlaceKey on a store without a ring: %v, want ErrNoRing", err)
		}
		if _, err := r.Tokens(ctx, container, [][]string{{"jericevans"}}); !errors.Is(err, teaching.ErrNoRing) {
			t.Errorf("Tokens on a store without a ring: %v, want ErrNoRing", err)
		}
		return
	}
	sims := []teaching.RingSim{{Nodes: 1}}
	if kind == RingSimulated {
		sims = []teaching.RingSim{{Nodes: 1}, {Nodes: 3}, {Nodes: 3, RF: 3}, {Nodes: 5, RF: 2}, {Nodes: 8, RF: 3}, {Nodes: 2, RF: 5}, {Nodes: teaching.MaxSimNodes, RF: 4}}
	}
	for _, sim := range sims {
		tokens := map[string]bool{}
		for i := range 40 {
			key := "user" + strconv.Itoa(i)
			kr, err := r.PlaceKey(ctx, key, sim)
			if err != nil {
				t.Fatalf("PlaceKey(%q, %+v): %v", key, sim, err)
			}
			again, err := r.PlaceKey(ctx, key, sim)
			if err != nil || again.Token != kr.Token || !slices.Equal(again.Replicas, kr.Replicas) {
				t.Fatalf("PlaceKey(%q) twice: %s %v, then %s %v (%v)", key, kr.Token, kr.Replicas, again.Token, again.Replicas, err)
			}
			tokens[kr.Token] = true
			if toks, err := r.Tokens(ctx, container, [][]string{{key}, {key, key}}); err != nil || len(toks) != 2 || toks[0] != kr.Token || toks[1] != "" {
				t.Fatalf("Tokens(%s, %q and a key of two values): %q (%v), want %s and none", container, key, toks, err, kr.Token)
			}
			checkPlacement(t, kr, sim, kind)
		}
		if len(tokens) < 35 {
			t.Errorf("40 keys took %d tokens: a partitioner spreads them", len(tokens))
		}
	}
}

func checkPlacement(t *testing.T, kr teaching.KeyRing, sim teaching.RingSim, kind RingKind) {
	t.Helper()
	tok, ok := new(big.Int).SetString(kr.Token, 10)
	if !ok || kr.Position < 0 || kr.Position >= 1.000001 || kr.Partitioner == "" || kr.Strategy == "" || kr.Source == "" {
		t.Fatalf("%q: token %q at %v on %q, strategy %q, source %q", kr.Key, kr.Token, kr.Position, kr.Partitioner, kr.Strategy, kr.Source)
	}
	if kind == RingSimulated && (len(kr.Nodes) != sim.Nodes || !kr.Simulated) {
		t.Fatalf("asked a simulated ring of %d nodes, got %d (simulated %v)", sim.Nodes, len(kr.Nodes), kr.Simulated)
	}
	if kind == RingReal && (len(kr.Nodes) == 0 || kr.Simulated) {
		t.Fatalf("a real ring of %d nodes, simulated %v", len(kr.Nodes), kr.Simulated)
	}
	if kind == RingSimulated && sim.RF > 0 && kr.ReplicationFactor != sim.RF {
		t.Errorf("asked RF %d, placed at %d", sim.RF, kr.ReplicationFactor)
	}
	if want := min(kr.ReplicationFactor, len(kr.Nodes)); len(kr.Replicas) != want {
		t.Fatalf("%q: %d replicas at RF %d on %d nodes, want %d", kr.Key, len(kr.Replicas), kr.ReplicationFactor, len(kr.Nodes), want)
	}
	seen := map[int]bool{}
	for _, i := range kr.Replicas {
		if i < 0 || i >= len(kr.Nodes) || seen[i] {
			t.Fatalf("%q: replicas %v of %d nodes", kr.Key, kr.Replicas, len(kr.Nodes))
		}
		seen[i] = true
	}
	// The owner: the node of the first token at or after the key's, or of the smallest.
	type owned struct {
		tok  *big.Int
		node int
	}
	var ring []owned
	single := true
	for i, n := range kr.Nodes {
		single = single && len(n.Tokens) == 1
		for _, nt := range n.Tokens {
			v, ok := new(big.Int).SetString(nt.Token, 10)
			if !ok || nt.Position < 0 || nt.Position > 1 {
				t.Fatalf("node %s: token %q at %v", n.Name, nt.Token, nt.Position)
			}
			ring = append(ring, owned{v, i})
		}
	}
	slices.SortFunc(ring, func(a, b owned) int { return a.tok.Cmp(b.tok) })
	at := slices.IndexFunc(ring, func(o owned) bool { return o.tok.Cmp(tok) >= 0 })
	if at < 0 {
		at = 0
	}
	if kr.Replicas[0] != ring[at].node {
		t.Fatalf("%q (token %s): first replica %s, but %s owns the first token at or after it (%s)", kr.Key, kr.Token,
			kr.Nodes[kr.Replicas[0]].Name, kr.Nodes[ring[at].node].Name, ring[at].tok)
	}
	if single {
		for j, i := range kr.Replicas {
			if want := ring[(at+j)%len(ring)].node; i != want {
				t.Fatalf("%q: replica %d is %s, want the next node clockwise, %s", kr.Key, j, kr.Nodes[i].Name, kr.Nodes[want].Name)
			}
		}
	}
}
