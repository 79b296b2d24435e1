package domain

import (
	"bytes"
	"crypto/rand"

	"github.com/google/uuid"
)

// A version-1 (time) UUID carries a 60-bit timestamp: the number of 100-ns ticks since the
// Gregorian epoch of UUIDs (1582-10-15), spread over its first eight bytes as time_low (bytes
// 0-3), time_mid (bytes 4-5) and time_hi (the low nibble of byte 6, then byte 7), with the
// version (1) in the high nibble of byte 6. The last eight bytes are the clock sequence and
// node. This file is the one place that reads and writes that layout; the widerow engine's
// TimeUUIDType comparator keeps a reading of its own because the engine imports nothing of the
// domain.

// UnixEpochTicks is the timestamp of the Unix epoch (1970-01-01) in a version-1 UUID: the
// number of 100-ns ticks between 1582-10-15 and 1970-01-01.
const UnixEpochTicks = 0x01B21DD213814000

// TimeUUIDTicks returns the 60-bit timestamp of a version-1 UUID: 100-ns ticks since 1582-10-15.
// It reads the bytes whatever u's version is.
func TimeUUIDTicks(u uuid.UUID) uint64 {
	return uint64(u[6]&0x0F)<<56 | uint64(u[7])<<48 | uint64(u[4])<<40 | uint64(u[5])<<32 |
		uint64(u[0])<<24 | uint64(u[1])<<16 | uint64(u[2])<<8 | uint64(u[3])
}

// TimeUUIDFromTicks returns the version-1 UUID of timestamp ts (its low 60 bits) whose last
// eight bytes (clock sequence and node) are lsb, copied as they are.
func TimeUUIDFromTicks(ts uint64, lsb [8]byte) uuid.UUID {
	var u uuid.UUID
	u[0] = byte(ts >> 24)
	u[1] = byte(ts >> 16)
	u[2] = byte(ts >> 8)
	u[3] = byte(ts)
	u[4] = byte(ts >> 40)
	u[5] = byte(ts >> 32)
	u[6] = byte(ts>>56)&0x0F | 0x10
	u[7] = byte(ts >> 48)
	copy(u[8:], lsb[:])
	return u
}

// TieBreak is how TimeUUIDType orders two names of one time: by their last eight bytes (clock
// sequence and node), compared unsigned in 0.6 and as signed
// bytes from 0.7 on, where the comparators read java.nio.ByteBuffers and ByteBuffer.compareTo
// compares signed bytes; Cassandra's timeuuid, CQL3's included, still does. The widerow
// emulation follows 0.6, the cql3 backend's node the later order; the smallest and largest
// names of a time, which bound a slice by time alone, differ with it.
type TieBreak int

const (
	TieUnsigned TieBreak = iota // 0.6: 0x00 smallest, 0xff largest
	TieSigned                   // 0.7 on and CQL3: 0x80 smallest, 0x7f largest
)

func (o TieBreak) String() string {
	if o == TieSigned {
		return "signed"
	}
	return "unsigned"
}

// lsb is the last eight bytes of the smallest (max false) or largest name of a time under o.
func (o TieBreak) lsb(max bool) (b [8]byte) {
	switch {
	case o == TieSigned && max:
		b = [8]byte{0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f}
	case o == TieSigned:
		b = [8]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80}
	case max:
		b = [8]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	}
	return b
}

// MinTimeUUID is the smallest TimeUUID of the microsecond micros under o: its first tick, the
// smallest last eight bytes (CQL's minTimeuuid() under TieSigned).
func (o TieBreak) MinTimeUUID(micros int64) uuid.UUID {
	return TimeUUIDFromTicks(MicrosTicks(micros), o.lsb(false))
}

// MaxTimeUUID is the largest TimeUUID of the microsecond micros under o: its last tick, the
// largest last eight bytes (CQL's maxTimeuuid() under TieSigned).
func (o TieBreak) MaxTimeUUID(micros int64) uuid.UUID {
	return TimeUUIDFromTicks(MicrosTicks(micros)+9, o.lsb(true))
}

// TickBounds are the smallest and largest TimeUUIDs of u's 100-ns tick under o.
func (o TieBreak) TickBounds(u uuid.UUID) (lo, hi uuid.UUID) {
	ts := TimeUUIDTicks(u)
	return TimeUUIDFromTicks(ts, o.lsb(false)), TimeUUIDFromTicks(ts, o.lsb(true))
}

// Compare orders a and b as TimeUUIDType does under o: by their time, then by their last eight
// bytes.
func (o TieBreak) Compare(a, b uuid.UUID) int {
	ta, tb := TimeUUIDTicks(a), TimeUUIDTicks(b)
	switch {
	case ta < tb:
		return -1
	case ta > tb:
		return 1
	}
	if o == TieSigned {
		for i := 8; i < 16; i++ {
			if x, y := int8(a[i]), int8(b[i]); x != y {
				if x < y {
					return -1
				}
				return 1
			}
		}
		return 0
	}
	return bytes.Compare(a[8:], b[8:])
}

// MicrosTicks returns the version-1 UUID timestamp of a Unix time in microseconds: the first
// of the ten 100-ns ticks of that microsecond.
func MicrosTicks(micros int64) uint64 { return uint64(micros)*10 + UnixEpochTicks }

// NewTimeUUID returns a version-1 UUID carrying the given Unix time in microseconds and a random
// clock sequence and node (multicast bit set, as RFC 4122 asks for random nodes), so two UUIDs of
// the same microsecond differ.
func NewTimeUUID(micros int64) uuid.UUID {
	var lsb [8]byte
	_, _ = rand.Read(lsb[:])
	lsb[0] = lsb[0]&0x3F | 0x80
	lsb[2] |= 0x01
	return TimeUUIDFromTicks(MicrosTicks(micros), lsb)
}

// TimeUUIDMicros returns the Unix time in microseconds carried by a version-1 UUID, truncated
// to the microsecond. It is meaningful for times from the Unix epoch on (the subtraction is
// unsigned), which every time UUID of this project is.
func TimeUUIDMicros(u uuid.UUID) int64 {
	return int64((TimeUUIDTicks(u) - UnixEpochTicks) / 10)
}
