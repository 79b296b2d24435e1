package ring

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// javaMurmur3 is Cassandra's MurmurHash.hash3_x64_128 (h1 only) read the way the Java reads:
// byte by byte through a signed-byte buffer, longs wrapping as Java's do. It is the
// independent reading that Murmur3Token's block-wise one is held to; the node's own tokens are
// the other check (adapters/cql3's TestMurmur3TokensAreTheNodes).
func javaMurmur3(key []byte) int64 {
	get := func(i int) int64 { return int64(int8(key[i])) } // ByteBuffer.get: a signed byte
	getblock := func(i int) int64 {
		b := i * 8
		return (get(b) & 0xff) | (get(b+1)&0xff)<<8 | (get(b+2)&0xff)<<16 | (get(b+3)&0xff)<<24 |
			(get(b+4)&0xff)<<32 | (get(b+5)&0xff)<<40 | (get(b+6)&0xff)<<48 | (get(b+7)&0xff)<<56
	}
	rotl := func(v int64, n uint) int64 { return int64(uint64(v)<<n | uint64(v)>>(64-n)) }
	fm := func(k int64) int64 {
		k ^= int64(uint64(k) >> 33)
		k *= -49064778989728563 // 0xff51afd7ed558ccd
		k ^= int64(uint64(k) >> 33)
		k *= -4265267296055464877 // 0xc4ceb9fe1a85ec53
		k ^= int64(uint64(k) >> 33)
		return k
	}
	const jc1, jc2 int64 = -8663945395140668459, 5545529020109919103
	length := len(key)
	nblocks := length >> 4
	var h1, h2 int64
	for i := 0; i < nblocks; i++ {
		k1, k2 := getblock(i*2), getblock(i*2+1)
		k1 *= jc1
		k1 = rotl(k1, 31)
		k1 *= jc2
		h1 ^= k1
		h1 = rotl(h1, 27)
		h1 += h2
		h1 = h1*5 + 0x52dce729
		k2 *= jc2
		k2 = rotl(k2, 33)
		k2 *= jc1
		h2 ^= k2
		h2 = rotl(h2, 31)
		h2 += h1
		h2 = h2*5 + 0x38495ab5
	}
	off := nblocks * 16
	var k1, k2 int64
	rem := length & 15
	for i := rem - 1; i >= 8; i-- {
		k2 ^= get(off+i) << (8 * uint(i-8))
	}
	if rem > 8 {
		k2 *= jc2
		k2 = rotl(k2, 33)
		k2 *= jc1
		h2 ^= k2
	}
	for i := min(rem, 8) - 1; i >= 0; i-- {
		k1 ^= get(off+i) << (8 * uint(i))
	}
	if rem > 0 {
		k1 *= jc1
		k1 = rotl(k1, 31)
		k1 *= jc2
		h1 ^= k1
	}
	h1 ^= int64(length)
	h2 ^= int64(length)
	h1 += h2
	h2 += h1
	h1, h2 = fm(h1), fm(h2)
	h1 += h2
	if h1 == math.MinInt64 {
		return math.MaxInt64
	}
	return h1
}

func TestMurmur3MatchesTheJavaReading(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for n := 1; n <= 100; n++ {
		for range 20 {
			k := make([]byte, n)
			for i := range k {
				k[i] = byte(rng.Uint32())
			}
			if got, want := Murmur3Token(k), javaMurmur3(k); got != want {
				t.Fatalf("%x: %d, the Java reading %d", k, got, want)
			}
		}
	}
	if Murmur3Token(nil) != math.MinInt64 {
		t.Errorf("the empty key: %d, want the minimum token", Murmur3Token(nil))
	}
}

func FuzzMurmur3Token(f *testing.F) {
	for _, s := range []string{"a", "jericevans", "\xff\x80\x7f", "0123456789abcdef0", "!PUBLIC!"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, k []byte) {
		if len(k) == 0 {
			return
		}
		got := Murmur3Token(k)
		if got != javaMurmur3(k) || got == math.MinInt64 {
			t.Fatalf("%x: %d, the Java reading %d", k, got, javaMurmur3(k))
		}
	})
}

// A token parses back to itself within its partitioner's range, and nothing outside it parses.
func FuzzParseToken(f *testing.F) {
	for _, s := range []string{"0", "-9223372036854775808", "9223372036854775807", "170141183460469231731687303715884105728", "-1", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range []Partitioner{Random, Murmur3} {
			tok, err := p.ParseToken(s)
			if err != nil {
				continue
			}
			if tok.Cmp(p.Min) < 0 || tok.Cmp(p.Max) > 0 {
				t.Fatalf("%s: %q parsed to %s, outside the ring", p.Name, s, tok)
			}
			back, err := p.ParseToken(tok.String())
			if err != nil || back.Cmp(tok) != 0 {
				t.Fatalf("%s: %s does not parse back (%v)", p.Name, tok, err)
			}
			if pos := p.Position(tok); pos < 0 || pos > 1 {
				t.Fatalf("%s: %s at %v", p.Name, tok, pos)
			}
		}
	})
}

func TestEvenTokensSplitTheRing(t *testing.T) {
	for _, p := range []Partitioner{Random, Murmur3} {
		for n := 1; n <= 16; n++ {
			ts := p.Even(n)
			for i, tok := range ts {
				if got, want := p.Position(tok), float64(i)/float64(n); math.Abs(got-want) > 1e-9 {
					t.Errorf("%s, %d nodes: token %d at %v, want %v", p.Name, n, i, got, want)
				}
			}
		}
	}
	if got := Random.Even(4)[1].String(); got != new(big.Int).Lsh(big.NewInt(1), 125).String() {
		t.Errorf("the second of 4 RandomPartitioner tokens: %s, want 2**127/4", got)
	}
}

// Replicas is the walk the strategies describe, held to a brute force on random rings: for
// each replica, no node not taken yet owns a token between the key and the replica's token
// (clockwise), unless its data centre was full.
func TestReplicasWalkTheRing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 500 {
		nNodes := 1 + rng.IntN(8)
		dcs := []string{"dc1", "dc2"}
		nodes := make([]Node, nNodes)
		for i := range nodes {
			nodes[i] = Node{Name: string(rune('a' + i)), DC: dcs[rng.IntN(2)]}
			for range 1 + rng.IntN(4) {
				nodes[i].Tokens = append(nodes[i].Tokens, big.NewInt(rng.Int64N(1000)))
			}
		}
		st := Strategy{RF: 1 + rng.IntN(5)}
		if trial%3 == 0 {
			st = Strategy{PerDC: map[string]int{"dc1": rng.IntN(3), "dc2": rng.IntN(3)}}
		}
		key := big.NewInt(rng.Int64N(1000))
		got := st.Replicas(nodes, key)
		// brute force: distance clockwise from the key to each node's nearest token at or after it.
		dist := func(n Node) int64 {
			best := int64(math.MaxInt64)
			for _, tk := range n.Tokens {
				d := tk.Int64() - key.Int64()
				if d < 0 {
					d += 1000
				}
				best = min(best, d)
			}
			return best
		}
		order := make([]int, nNodes)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			da, db := dist(nodes[a]), dist(nodes[b])
			if da != db {
				if da < db {
					return -1
				}
				return 1
			}
			return 0
		})
		var want []int
		need := map[string]int{}
		for k, v := range st.PerDC {
			need[k] = v
		}
		for _, i := range order {
			if st.PerDC == nil {
				if len(want) < st.RF {
					want = append(want, i)
				}
				continue
			}
			if need[nodes[i].DC] > 0 {
				need[nodes[i].DC]--
				want = append(want, i)
			}
		}
		// Two nodes at one distance (a shared token) are placed in ring order, which the brute
		// force cannot tell: compare as sets then.
		gs, ws := slices.Clone(got), slices.Clone(want)
		slices.Sort(gs)
		slices.Sort(ws)
		if !slices.Equal(gs, ws) {
			t.Fatalf("trial %d: key %s, strategy %+v, nodes %v: replicas %v, want %v", trial, key, st, nodes, got, want)
		}
	}
}

func BenchmarkMurmur3Token(b *testing.B) {
	k := []byte("jericevans-the-user")
	b.ReportAllocs()
	for b.Loop() {
		_ = Murmur3Token(k)
	}
}

func BenchmarkReplicas(b *testing.B) {
	nodes := make([]Node, 3)
	even := Murmur3.Even(48)
	for i := range nodes {
		nodes[i] = Node{Name: string(rune('a' + i)), Tokens: even[i*16 : i*16+16]}
	}
	key := big.NewInt(Murmur3Token([]byte("jericevans")))
	b.ReportAllocs()
	for b.Loop() {
		_ = Strategy{RF: 3}.Replicas(nodes, key)
	}
}
