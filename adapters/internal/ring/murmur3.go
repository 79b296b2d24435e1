// Package ring is what the adapters share to place a key on a Cassandra ring: the tokens of
// the partitioners (Murmur3Partitioner's here; RandomPartitioner's MD5 is the widerow engine's
// own) and the walk of the ring that picks a key's replicas (0.6's RackUnawareStrategy, CQL's
// SimpleStrategy, NetworkTopologyStrategy without racks).
package ring

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Murmur3Token is the token Cassandra's Murmur3Partitioner gives a partition key's bytes (the
// serialized key: a text key's UTF-8, a uuid's 16 bytes): the first 64 bits of Cassandra's
// MurmurHash.hash3_x64_128 with seed 0, read as a signed long, with Long.MIN_VALUE moved to
// Long.MAX_VALUE (it is the ring's minimum token, which no key may take). The empty key is the
// minimum token itself.
//
// Cassandra's hash differs from the reference MurmurHash3 in one place, which this keeps: the
// tail bytes (the last length%16) are read as Java's signed bytes, so a tail byte of 0x80 or
// more is sign-extended before it is shifted into place.
func Murmur3Token(key []byte) int64 {
	if len(key) == 0 {
		return math.MinInt64
	}
	h1 := cassandraMurmur3(key)
	if h1 == math.MinInt64 {
		return math.MaxInt64
	}
	return h1
}

const (
	c1 = 0x87c37b91114253d5
	c2 = 0x4cf5ad432745937f
)

func cassandraMurmur3(key []byte) int64 {
	n := len(key)
	var h1, h2 uint64
	nblocks := n / 16
	for i := range nblocks {
		k1 := binary.LittleEndian.Uint64(key[i*16:])
		k2 := binary.LittleEndian.Uint64(key[i*16+8:])
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
		h1 = bits.RotateLeft64(h1, 27)
		h1 += h2
		h1 = h1*5 + 0x52dce729
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
		h2 = bits.RotateLeft64(h2, 31)
		h2 += h1
		h2 = h2*5 + 0x38495ab5
	}
	tail := key[nblocks*16:]
	// signed is Java's (long) of a byte: sign-extended.
	signed := func(b byte) uint64 { return uint64(int64(int8(b))) }
	var k1, k2 uint64
	switch len(tail) {
	case 15:
		k2 ^= signed(tail[14]) << 48
		fallthrough
	case 14:
		k2 ^= signed(tail[13]) << 40
		fallthrough
	case 13:
		k2 ^= signed(tail[12]) << 32
		fallthrough
	case 12:
		k2 ^= signed(tail[11]) << 24
		fallthrough
	case 11:
		k2 ^= signed(tail[10]) << 16
		fallthrough
	case 10:
		k2 ^= signed(tail[9]) << 8
		fallthrough
	case 9:
		k2 ^= signed(tail[8])
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
		fallthrough
	case 8:
		k1 ^= signed(tail[7]) << 56
		fallthrough
	case 7:
		k1 ^= signed(tail[6]) << 48
		fallthrough
	case 6:
		k1 ^= signed(tail[5]) << 40
		fallthrough
	case 5:
		k1 ^= signed(tail[4]) << 32
		fallthrough
	case 4:
		k1 ^= signed(tail[3]) << 24
		fallthrough
	case 3:
		k1 ^= signed(tail[2]) << 16
		fallthrough
	case 2:
		k1 ^= signed(tail[1]) << 8
		fallthrough
	case 1:
		k1 ^= signed(tail[0])
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
	}
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1 = fmix(h1)
	h2 = fmix(h2)
	h1 += h2
	return int64(h1)
}

func fmix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
