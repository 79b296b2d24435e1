package engine

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"time"
	"twissandra/ports/oplog"
)

// rangeSegment is a half-open walk over rows, in stored (token) order:
// from the first row whose encoded row part is >= lo, up to and including
// rows whose comparison part is <= hi (hi nil = to the end of the CF).
// With tokenOnly, only the first tokenLen bytes of the row part are
// compared against hi (RandomPartitioner token ranges).
type rangeSegment struct {
	lo, hi    []byte
	tokenOnly bool
}

// GetRangeSlices returns up to r.Count rows of a column family in
// partitioner order, each with the columns pred selects. Rows that hold
// only tombstones (or nothing pred selects) come back with an empty list,
// as Cassandra's "range ghosts" did.
//
// By key (StartKey, EndKey) both bounds are inclusive. By token the range
// is (StartToken, EndToken], and a StartToken at or after EndToken wraps
// around the ring, as Cassandra's Range does. RandomPartitioner tokens are
// decimal integers (see Partitioner.Token); OrderPreservingPartitioner
// tokens are keys.
func (n *Node) GetRangeSlices(ctx context.Context, keyspace string, parent ColumnParent, pred SlicePredicate, kr KeyRange, cl ConsistencyLevel) (res []KeySlice, err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() {
			cf := n.cfOf(keyspace, parent.ColumnFamily)
			p, touched := showPredicate(cf, parent, pred), outcome(err, len(res), "rows")
			oplog.Record(ctx, op(oplog.Read, "get_range_slices", keyspace+"."+parent.ColumnFamily, nil, 0, fmt.Sprintf("count=%d %s", kr.Count, p), touched, start, cl,
				fmt.Sprintf("get_range_slices %s count=%d %s -> %s", showParent(cf, keyspace, parent), kr.Count, p, touched)))
		}()
	}
	cf, names, err := n.prepareRead(ctx, keyspace, &parent, &pred, cl)
	if err != nil {
		return nil, err
	}
	segs, err := n.rangeSegments(cf, &kr)
	if err != nil {
		return nil, err
	}
	r, err := n.newReader()
	if err != nil {
		return nil, err
	}
	defer r.close()
	var (
		keyBuf  []byte
		seekBuf []byte
		rowPart []byte
	)
	it := r.pit
	for _, seg := range segs {
		seek := append(seekBuf[:0], cf.prefix...)
		seek = append(seek, seg.lo...)
		for len(res) < int(kr.Count) {
			if len(res)%64 == 63 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			if !it.SeekGE(seek) {
				break
			}
			k := it.Key()
			if !bytes.HasPrefix(k, cf.prefix) {
				break
			}
			key, plen, err := n.splitRowKey(k[len(cf.prefix):], keyBuf)
			if err != nil {
				return nil, err
			}
			keyBuf = key
			rowPart = append(rowPart[:0], k[len(cf.prefix):len(cf.prefix)+plen]...)
			if seg.hi != nil {
				cmpPart := rowPart
				if seg.tokenOnly {
					cmpPart = rowPart[:tokenLen]
				}
				if bytes.Compare(cmpPart, seg.hi) > 0 {
					break
				}
			}
			r.row = append(append(r.row[:0], cf.prefix...), rowPart...)
			seek = prefixSuccessor(seek[:0], r.row)
			rowDel, err := r.deletionAt(append(append(r.k[:0], r.row...), kindRowTombstone))
			if err != nil {
				return nil, err
			}
			out := collector{}
			if err := r.readRow(cf, &parent, names, pred.SliceRange, rowDel, &out); err != nil {
				return nil, err
			}
			res = append(res, KeySlice{Key: string(key), Columns: out.result(cf, &parent)})
		}
		seekBuf = seek
	}
	if res == nil {
		res = []KeySlice{}
	}
	return res, it.Error()
}

func (n *Node) rangeSegments(cf *cfInfo, kr *KeyRange) ([]rangeSegment, error) {
	if kr.Count <= 0 {
		return nil, invalidf("maxRows must be positive")
	}
	byKey := kr.StartKey != "" || kr.EndKey != ""
	byToken := kr.StartToken != "" || kr.EndToken != ""
	if byKey && byToken {
		return nil, invalidf("exactly one of {start key, end key} or {start token, end token} must be specified")
	}
	for _, k := range []string{kr.StartKey, kr.EndKey} {
		if k != "" {
			if err := validateKey(k); err != nil {
				return nil, err
			}
		}
	}
	rowPart := func(key string) []byte {
		full := n.appendRowPrefix(nil, cf, key)
		return full[len(cf.prefix):]
	}
	if !byToken {
		seg := rangeSegment{}
		if kr.StartKey != "" {
			seg.lo = rowPart(kr.StartKey)
		}
		if kr.EndKey != "" {
			seg.hi = rowPart(kr.EndKey)
		}
		if seg.lo != nil && seg.hi != nil && bytes.Compare(seg.lo, seg.hi) > 0 {
			if n.partitioner == RandomPartitioner {
				return nil, invalidf("start key's md5 sorts after end key's md5.  this is not allowed; you probably should not specify end key at all, under RandomPartitioner")
			}
			return nil, invalidf("start key must sort before (or equal to) finish key in your partitioner!")
		}
		return []rangeSegment{seg}, nil
	}

	// Token ranges are (start, end].
	var lo, hi []byte
	if n.partitioner == RandomPartitioner {
		if kr.StartToken != "" {
			t, err := parseRandomToken(kr.StartToken)
			if err != nil {
				return nil, err
			}
			// The first token after start: rows at exactly start are excluded.
			next := new(big.Int).Add(new(big.Int).SetBytes(t[:]), big.NewInt(1))
			lo = next.FillBytes(make([]byte, tokenLen))
		}
		if kr.EndToken != "" {
			t, err := parseRandomToken(kr.EndToken)
			if err != nil {
				return nil, err
			}
			hi = t[:]
		}
	} else {
		if kr.StartToken != "" {
			lo = prefixSuccessor(nil, appendEscapedString(nil, kr.StartToken))
		}
		if kr.EndToken != "" {
			hi = appendEscapedString(nil, kr.EndToken)
		}
	}
	tokenOnly := n.partitioner == RandomPartitioner
	if lo != nil && hi != nil && bytes.Compare(lo, hi) > 0 {
		// Wrapping range: (start, max] then [min, end].
		return []rangeSegment{{lo: lo}, {hi: hi, tokenOnly: tokenOnly}}, nil
	}
	return []rangeSegment{{lo: lo, hi: hi, tokenOnly: tokenOnly}}, nil
}
