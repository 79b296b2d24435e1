package domain

import (
	"encoding/hex"

	"github.com/google/uuid"
)

// UUIDTextLen is the length of a UUID's canonical text, 8-4-4-4-12 lower-case hex digits.
const UUIDTextLen = 36

// AppendUUID appends u's canonical text (what u.String() returns: 36 bytes, 8-4-4-4-12
// lower-case hex digits) to b. Unlike u.String() it allocates nothing when b has room, which
// matters where a page formats forty IDs at a time: the widerow adapter's tweet row keys and
// the API's JSON.
func AppendUUID(b []byte, u uuid.UUID) []byte {
	var s [UUIDTextLen]byte
	hex.Encode(s[0:8], u[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], u[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], u[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], u[8:10])
	s[23] = '-'
	hex.Encode(s[24:], u[10:])
	return append(b, s[:]...)
}

// unhex maps a hex digit's byte to its value, and every other byte to 0xff.
var unhex = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range "0123456789abcdef" {
		t[c] = byte(i)
	}
	for i, c := range "ABCDEF" {
		t[c] = byte(10 + i)
	}
	return t
}()

// ParseUUIDText reads a UUID's canonical text, what AppendUUID writes (hex digits of either
// case): ok is false for anything else. It is uuid.ParseBytes for those 36 bytes alone, without
// the other forms it accepts, for where a page reads forty IDs stored as text (the widerow
// adapter's lines).
func ParseUUIDText(b []byte) (u uuid.UUID, ok bool) {
	if len(b) != UUIDTextLen || b[8] != '-' || b[13] != '-' || b[18] != '-' || b[23] != '-' {
		return u, false
	}
	// The 32 digits without the dashes, in an array: the loop below needs no bounds checks.
	var h [32]byte
	copy(h[0:8], b[0:8])
	copy(h[8:12], b[9:13])
	copy(h[12:16], b[14:18])
	copy(h[16:20], b[19:23])
	copy(h[20:32], b[24:36])
	var bad byte
	for i := range u {
		hi, lo := unhex[h[2*i]], unhex[h[2*i+1]]
		bad |= hi | lo
		u[i] = hi<<4 | lo
	}
	if bad&0xf0 != 0 { // 0xff: not a hex digit
		return uuid.UUID{}, false
	}
	return u, true
}
