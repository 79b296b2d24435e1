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
