package engine

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// A staged batch (see writer.staged) is added to Pebble in key order. The order is found by a
// radix sort on each key's first eight bytes, then a comparison sort of the rare runs that
// share them. Under RandomPartitioner those bytes are the column family and the start of the
// row's MD5 token, so for a fan-out of 10,000 rows the runs are the cells of one row and the
// sort costs a few linear passes instead of 10,000·log 10,000 key comparisons.

// stagedCell is one staged cell: its key is buf[k0:k1] and its value buf[k1:v1].
type stagedCell struct{ k0, k1, v1 int }

// sortKey is a staged cell's place in the sort: the first eight bytes of its key as a
// big-endian integer (zero-padded, so integers compare as the bytes do) and its index in ents.
type sortKey struct {
	p uint64
	i uint32
}

func keyPrefix(k []byte) uint64 {
	if len(k) >= 8 {
		return binary.BigEndian.Uint64(k)
	}
	var b [8]byte
	copy(b[:], k)
	return binary.BigEndian.Uint64(b[:])
}

// sortedOrder returns the staged cells' indices in key order; cells with equal keys keep the
// order they were staged in (the later one is applied later, as without staging).
func (w *writer) sortedOrder() []sortKey {
	n := len(w.ents)
	order, tmp := slices.Grow(w.order[:0], n)[:n], slices.Grow(w.tmp[:0], n)[:n]
	for i, e := range w.ents {
		order[i] = sortKey{keyPrefix(w.buf[e.k0:e.k1]), uint32(i)}
	}
	w.order, w.tmp = order, tmp // kept apart: the sort's result may be either
	order = radixSort(order, tmp)
	for i := 0; i < n; {
		j := i + 1
		for j < n && order[j].p == order[i].p {
			j++
		}
		if j-i > 1 {
			slices.SortStableFunc(order[i:j], func(a, b sortKey) int {
				ea, eb := w.ents[a.i], w.ents[b.i]
				return bytes.Compare(w.buf[ea.k0:ea.k1], w.buf[eb.k0:eb.k1])
			})
		}
		i = j
	}
	return order
}

// radixSort sorts a by p, stably, one byte at a time from the least significant, skipping the
// bytes every key shares. tmp is scratch of the same length; the result is a or tmp.
func radixSort(a, tmp []sortKey) []sortKey {
	if len(a) < 2 {
		return a
	}
	var counts [8][256]int
	for _, e := range a {
		for d := range 8 {
			counts[d][byte(e.p>>(8*d))]++
		}
	}
	src, dst := a, tmp
	for d := range 8 {
		c := &counts[d]
		if c[byte(src[0].p>>(8*d))] == len(src) {
			continue // every key has this byte
		}
		sum := 0
		for b, k := range c {
			c[b] = sum
			sum += k
		}
		for _, e := range src {
			b := byte(e.p >> (8 * d))
			dst[c[b]] = e
			c[b]++
		}
		src, dst = dst, src
	}
	return src
}
