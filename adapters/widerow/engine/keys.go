package engine

import (
	"crypto/md5"
	"fmt"
	"math/big"
	"strings"
)

// Key layout (see the package documentation for the picture).
const (
	metaPrefix = 0x00 // engine metadata keys
	dataPrefix = 'd'  // all column family data

	kindRowTombstone = 0x00 // rowPrefix|0x00: the row-level deletion marker
	kindColumns      = 0x01 // rowPrefix|0x01|...: the columns (or super columns)

	kindSuperTombstone = 0x00 // ...|sc|0x00: a super column deletion marker
	kindSubcolumn      = 0x01 // ...|sc|0x01|sub: a subcolumn
)

const (
	metaFormatKey = "\x00widerow/format"
	metaCFPrefix  = "\x00widerow/cf/"
	// metaRowDelTracked marks a store that records row deletions per column family, each
	// under metaRowDelPrefix + the column family's prefix (see cfInfo.rowDeletes).
	metaRowDelTracked = "\x00widerow/rowdel"
	metaRowDelPrefix  = "\x00widerow/rowdel/"
	formatVersion     = "twissandra-widerow-engine format 1"
)

const tokenLen = 16

// Token returns the partitioner token of a row key as Cassandra prints it:
// the decimal abs(signed 128-bit MD5) under RandomPartitioner, the key
// itself under OrderPreservingPartitioner.
func (p Partitioner) Token(key string) string {
	if p != RandomPartitioner {
		return key
	}
	var t [tokenLen]byte
	md5Token(&t, key)
	return new(big.Int).SetBytes(t[:]).String()
}

// md5Token writes abs(BigInteger(md5(key))) as 16 unsigned big-endian bytes.
// The magnitude is at most 2^127, which fits.
func md5Token(dst *[tokenLen]byte, key string) {
	var buf [64]byte // row keys are mostly short: hash them without a heap copy
	if len(key) <= len(buf) {
		*dst = md5.Sum(append(buf[:0], key...))
	} else {
		*dst = md5.Sum([]byte(key))
	}
	if dst[0]&0x80 == 0 {
		return
	}
	// Two's complement negation: invert and add one.
	carry := uint16(1)
	for i := tokenLen - 1; i >= 0; i-- {
		v := uint16(^dst[i]) + carry
		dst[i] = byte(v)
		carry = v >> 8
	}
}

// maxRandomToken is 2**127, the largest RandomPartitioner token.
var maxRandomToken = new(big.Int).Lsh(big.NewInt(1), 127)

// parseRandomToken parses a decimal RandomPartitioner token.
func parseRandomToken(s string) ([tokenLen]byte, error) {
	var t [tokenLen]byte
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || n.Sign() < 0 || n.Cmp(maxRandomToken) > 0 {
		return t, invalidf("Tokens must be integers between 0 and 2**127: %q", s)
	}
	n.FillBytes(t[:])
	return t, nil
}

// appendRowPrefix appends the key prefix shared by everything stored in one
// row: cfPrefix | [16-byte token under RandomPartitioner] | escaped key.
func (n *Node) appendRowPrefix(dst []byte, cf *cfInfo, key string) []byte {
	dst = append(dst, cf.prefix...)
	if n.partitioner == RandomPartitioner {
		var t [tokenLen]byte
		md5Token(&t, key)
		dst = append(dst, t[:]...)
	}
	return appendEscapedString(dst, key)
}

// appendEscapedString appends s with each escByte doubled as escByte escEsc, then the
// terminator escByte escTerm. Most keys hold no escByte and are copied whole.
func appendEscapedString(dst []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, escByte)
		if i < 0 {
			break
		}
		dst = append(append(dst, s[:i+1]...), escEsc)
		s = s[i+1:]
	}
	return append(append(dst, s...), escByte, escTerm)
}

// splitRowKey parses the row part of a data key (after the CF prefix) and
// returns the row key and the length of the row prefix within rest.
func (n *Node) splitRowKey(rest []byte, scratch []byte) (key []byte, prefixLen int, err error) {
	off := 0
	if n.partitioner == RandomPartitioner {
		if len(rest) < tokenLen {
			return nil, 0, errCorruptKey
		}
		off = tokenLen
	}
	l, err := encodedNameLen(BytesType, rest[off:], true)
	if err != nil {
		return nil, 0, err
	}
	key, _, err = decodeEscaped(scratch[:0], rest[off:off+l])
	return key, off + l, err
}

// prefixSuccessor returns the smallest key greater than every key with the
// given prefix. Every prefix we pass ends in a terminator or kind byte below
// 0xFF, so incrementing the last byte is enough.
func prefixSuccessor(dst, prefix []byte) []byte {
	dst = append(dst, prefix...)
	if dst[len(dst)-1] == 0xFF {
		panic(fmt.Sprintf("widerow: prefixSuccessor of %x", prefix))
	}
	dst[len(dst)-1]++
	return dst
}
