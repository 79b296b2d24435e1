package engine

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Comparator is a column name type of Cassandra 0.6 (a CompareWith or
// CompareSubcolumnsWith value). It validates names and orders them.
type Comparator uint8

// The six built-in comparators of Cassandra 0.6 (org.apache.cassandra.db.marshal).
const (
	BytesType Comparator = iota + 1
	AsciiType
	UTF8Type
	LongType
	LexicalUUIDType
	TimeUUIDType
)

// Comparators lists every comparator, in declaration order.
var Comparators = []Comparator{BytesType, AsciiType, UTF8Type, LongType, LexicalUUIDType, TimeUUIDType}

const marshalPackage = "org.apache.cassandra.db.marshal."

var comparatorNames = map[Comparator]string{
	BytesType:       "BytesType",
	AsciiType:       "AsciiType",
	UTF8Type:        "UTF8Type",
	LongType:        "LongType",
	LexicalUUIDType: "LexicalUUIDType",
	TimeUUIDType:    "TimeUUIDType",
}

// String returns the short name, e.g. "UTF8Type".
func (c Comparator) String() string {
	if n, ok := comparatorNames[c]; ok {
		return n
	}
	return fmt.Sprintf("Comparator(%d)", uint8(c))
}

// ClassName returns the Java class name Cassandra 0.6 reports, e.g.
// "org.apache.cassandra.db.marshal.UTF8Type".
func (c Comparator) ClassName() string { return marshalPackage + c.String() }

// ParseComparator accepts a short name ("LongType") or the fully qualified
// class name ("org.apache.cassandra.db.marshal.LongType").
func ParseComparator(s string) (Comparator, error) {
	short := strings.TrimPrefix(strings.TrimSpace(s), marshalPackage)
	for c, n := range comparatorNames {
		if n == short {
			return c, nil
		}
	}
	return 0, fmt.Errorf("unknown comparator %q (want one of BytesType, AsciiType, UTF8Type, LongType, LexicalUUIDType, TimeUUIDType)", s)
}

// Validate checks a name the way Cassandra 0.6.6's AbstractType.validate does
// (getString of the type in org.apache.cassandra.db.marshal; UTF8Type
// validates from 0.6.4 on, CASSANDRA-1232, and accepted any bytes before).
// The empty name is accepted (it is meaningful as a slice bound); callers
// that store a name reject empty names separately. The returned error is an
// *InvalidRequestError carrying 0.6's MarshalException message.
func (c Comparator) Validate(name []byte) error {
	switch c {
	case UTF8Type:
		if !utf8.Valid(name) {
			return invalidf("invalid UTF8 bytes %s", javaBytes(name))
		}
	case LongType:
		if len(name) != 0 && len(name) != 8 {
			return invalidf("A long is exactly 8 bytes")
		}
	case LexicalUUIDType:
		if len(name) != 0 && len(name) != 16 {
			return invalidf("UUIDs must be exactly 16 bytes")
		}
	case TimeUUIDType:
		if len(name) != 0 && len(name) != 16 {
			return invalidf("UUIDs must be exactly 16 bytes")
		}
		if len(name) == 16 && name[6]>>4 != 1 {
			return invalidf("TimeUUID only makes sense with version 1 UUIDs")
		}
	}
	return nil
}

// javaBytes formats like java.util.Arrays.toString(byte[]): signed decimals.
func javaBytes(b []byte) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, x := range b {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%d", int8(x))
	}
	sb.WriteByte(']')
	return sb.String()
}

// Compare orders two valid names as Cassandra 0.6.6 does: the empty name sorts
// first under every comparator. UTF8Type compares bytes, as it does from 0.6.4 on
// (it extends BytesType, CASSANDRA-1232); 0.6.0 to 0.6.3 compared the decoded
// strings' UTF-16 code units (String.compareTo), which for valid UTF-8 differs
// only where a character above U+FFFF meets one from U+E000 to U+FFFF. This is
// the reference implementation; the storage layer never calls it on the hot path
// because the key encoding (see AppendName) makes Pebble's byte order equal to it.
func (c Comparator) Compare(a, b []byte) int {
	if len(a) == 0 || len(b) == 0 {
		return cmp.Compare(len(a), len(b))
	}
	switch c {
	case LongType:
		return cmp.Compare(int64(binary.BigEndian.Uint64(a)), int64(binary.BigEndian.Uint64(b)))
	case LexicalUUIDType:
		if r := cmp.Compare(int64(binary.BigEndian.Uint64(a[:8])), int64(binary.BigEndian.Uint64(b[:8]))); r != 0 {
			return r
		}
		return cmp.Compare(int64(binary.BigEndian.Uint64(a[8:])), int64(binary.BigEndian.Uint64(b[8:])))
	case TimeUUIDType:
		if r := cmp.Compare(timeUUIDTimestamp(a), timeUUIDTimestamp(b)); r != 0 {
			return r
		}
		return bytes.Compare(a, b)
	}
	return bytes.Compare(a, b)
}

// timeUUIDTimestamp extracts the 60-bit timestamp of a version 1 UUID
// (bytes 6&0x0F,7,4,5,0,1,2,3 read as one unsigned big-endian number).
// It repeats domain.TimeUUIDTicks on purpose: the engine imports nothing of the domain.
func timeUUIDTimestamp(u []byte) uint64 {
	return uint64(u[6]&0x0F)<<56 | uint64(u[7])<<48 | uint64(u[4])<<40 | uint64(u[5])<<32 |
		uint64(u[0])<<24 | uint64(u[1])<<16 | uint64(u[2])<<8 | uint64(u[3])
}

// Escaping for variable-length components that are followed by more key
// bytes: 0x00 becomes 0x00 0xFF and the component ends with 0x00 0x01. The
// terminator sorts below every continuation, so a proper prefix sorts first,
// exactly as in unsigned byte order.
const (
	escByte  = 0x00
	escEsc   = 0xFF
	escTerm  = 0x01
	termSize = 2
)

func appendEscaped(dst, s []byte) []byte {
	for {
		i := bytes.IndexByte(s, escByte)
		if i < 0 {
			dst = append(dst, s...)
			break
		}
		dst = append(dst, s[:i+1]...)
		dst = append(dst, escEsc)
		s = s[i+1:]
	}
	return append(dst, escByte, escTerm)
}

// decodeEscaped undoes appendEscaped. It appends the component to dst and
// returns the bytes after the terminator.
func decodeEscaped(dst, src []byte) (out, rest []byte, err error) {
	for {
		i := bytes.IndexByte(src, escByte)
		if i < 0 || i+1 >= len(src) {
			return dst, nil, errCorruptKey
		}
		dst = append(dst, src[:i]...)
		switch src[i+1] {
		case escTerm:
			return dst, src[i+2:], nil
		case escEsc:
			dst = append(dst, escByte)
			src = src[i+2:]
		default:
			return dst, nil, errCorruptKey
		}
	}
}

// AppendName appends the order-preserving encoding of a non-empty, valid
// name to dst: for any two valid names a and b,
// bytes.Compare(AppendName(nil,c,a,t), AppendName(nil,c,b,t)) == c.Compare(a,b).
//
//   - BytesType, AsciiType, UTF8Type: the raw bytes; escaped and terminated
//     when terminated is true (the name is followed by more key bytes).
//   - LongType: 8 bytes with the sign bit flipped, so signed order becomes
//     unsigned order.
//   - LexicalUUIDType: 16 bytes with the sign bits of both 8-byte halves
//     flipped (java.util.UUID.compareTo compares two signed longs).
//   - TimeUUIDType: the 60-bit timestamp as 8 big-endian bytes, then the
//     raw 16 bytes (24 bytes in all).
//
// Fixed-width encodings are self-delimiting, so terminated changes nothing.
func AppendName(dst []byte, c Comparator, name []byte, terminated bool) []byte {
	switch c {
	case LongType:
		n := len(dst)
		dst = append(dst, name...)
		dst[n] ^= 0x80
		return dst
	case LexicalUUIDType:
		n := len(dst)
		dst = append(dst, name...)
		dst[n] ^= 0x80
		dst[n+8] ^= 0x80
		return dst
	case TimeUUIDType:
		dst = binary.BigEndian.AppendUint64(dst, timeUUIDTimestamp(name))
		return append(dst, name...)
	}
	if terminated {
		return appendEscaped(dst, name)
	}
	return append(dst, name...)
}

// DecodeName undoes AppendName. The name is appended to dst; rest is what
// follows the component (always empty for an unterminated byte name).
func DecodeName(dst []byte, c Comparator, src []byte, terminated bool) (name, rest []byte, err error) {
	switch c {
	case LongType:
		if len(src) < 8 {
			return dst, nil, errCorruptKey
		}
		n := len(dst)
		dst = append(dst, src[:8]...)
		dst[n] ^= 0x80
		return dst, src[8:], nil
	case LexicalUUIDType:
		if len(src) < 16 {
			return dst, nil, errCorruptKey
		}
		n := len(dst)
		dst = append(dst, src[:16]...)
		dst[n] ^= 0x80
		dst[n+8] ^= 0x80
		return dst, src[16:], nil
	case TimeUUIDType:
		if len(src) < 24 {
			return dst, nil, errCorruptKey
		}
		return append(dst, src[8:24]...), src[24:], nil
	}
	if terminated {
		return decodeEscaped(dst, src)
	}
	return append(dst, src...), nil, nil
}

// encodedNameLen returns the length of the encoded component at the start
// of src without decoding it (used to split keys without copying).
func encodedNameLen(c Comparator, src []byte, terminated bool) (int, error) {
	switch c {
	case LongType:
		if len(src) < 8 {
			return 0, errCorruptKey
		}
		return 8, nil
	case LexicalUUIDType:
		if len(src) < 16 {
			return 0, errCorruptKey
		}
		return 16, nil
	case TimeUUIDType:
		if len(src) < 24 {
			return 0, errCorruptKey
		}
		return 24, nil
	}
	if !terminated {
		return len(src), nil
	}
	off := 0
	for {
		i := bytes.IndexByte(src[off:], escByte)
		if i < 0 || off+i+1 >= len(src) {
			return 0, errCorruptKey
		}
		off += i
		switch src[off+1] {
		case escTerm:
			return off + termSize, nil
		case escEsc:
			off += 2
		default:
			return 0, errCorruptKey
		}
	}
}
