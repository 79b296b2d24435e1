package cql3

import (
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"

	"twissandra/domain"
)

// Cassandra orders timeuuid values by their 60-bit timestamp, then by their last eight bytes
// compared as SIGNED bytes. The smallest and largest "clock sequence and node" halves under that
// order are the ones minTimeuuid() and maxTimeuuid() use; with them Go computes the bounds that
// the queries bind, so no CQL is ever built from values.
var (
	minLSB = [8]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80}
	maxLSB = [8]byte{0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f}
)

// uuidEpochOffset is the number of 100-ns ticks between 1582-10-15 and the Unix epoch.
const uuidEpochOffset = 0x01B21DD213814000

// ticks returns the 60-bit timestamp of a version-1 UUID (100-ns ticks since 1582).
func ticks(u uuid.UUID) uint64 {
	return uint64(u[6]&0x0F)<<56 | uint64(u[7])<<48 | uint64(u[4])<<40 | uint64(u[5])<<32 |
		uint64(u[0])<<24 | uint64(u[1])<<16 | uint64(u[2])<<8 | uint64(u[3])
}

// fromTicks builds a version-1 UUID of the given timestamp and last eight bytes.
func fromTicks(ts uint64, lsb [8]byte) uuid.UUID {
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

func microsTicks(micros int64) uint64 { return uint64(micros)*10 + uuidEpochOffset }

// minTimeUUID is the smallest timeuuid of the microsecond micros, maxTimeUUID the largest: a
// line slice "strictly older than T" is time < minTimeUUID(T), and the rows of microsecond T
// are minTimeUUID(T) <= time <= maxTimeUUID(T).
func minTimeUUID(micros int64) uuid.UUID { return fromTicks(microsTicks(micros), minLSB) }
func maxTimeUUID(micros int64) uuid.UUID { return fromTicks(microsTicks(micros)+9, maxLSB) }

// tickBounds are the smallest and largest timeuuids of u's 100-ns tick.
func tickBounds(u uuid.UUID) (lo, hi uuid.UUID) {
	ts := ticks(u)
	return fromTicks(ts, minLSB), fromTicks(ts, maxLSB)
}

// lineTime is an entry's clustering value in every line table. It depends on the entry alone,
// so a tweet has the same value in the userline, the public line and every timeline, and a
// row can be named exactly. The domain gives a tweet an ID whose time is the entry's time, so
// normally the value IS the tweet's ID; an entry whose time differs from its tweet's (an import,
// a test) gets the entry's microsecond with the tweet ID's clock sequence and node, which keeps
// two tweets of one microsecond apart.
func lineTime(e domain.LineEntry) uuid.UUID {
	if e.TweetID.Version() == 1 && domain.TimeUUIDMicros(e.TweetID) == e.Time {
		return e.TweetID
	}
	var lsb [8]byte
	copy(lsb[:], e.TweetID[8:])
	return fromTicks(microsTicks(e.Time), lsb)
}

// microsOf is the line time (Unix microseconds) of a clustering value.
func microsOf(u uuid.UUID) int64 { return domain.TimeUUIDMicros(u) }

// dayOf is the public line's bucket of a line time: its UTC day.
func dayOf(micros int64) time.Time {
	return time.UnixMicro(micros).UTC().Truncate(24 * time.Hour)
}

// splitMicros splits a time into what a CQL timestamp holds (milliseconds) and the
// microseconds past that millisecond, which go into the column's _us companion.
func splitMicros(t time.Time) (ms time.Time, us int) {
	t = t.UTC().Truncate(time.Microsecond)
	ms = t.Truncate(time.Millisecond)
	return ms, int(t.Sub(ms) / time.Microsecond)
}

// joinMicros puts a timestamp and its _us companion back together.
func joinMicros(ms time.Time, us int) time.Time {
	return ms.UTC().Add(time.Duration(us) * time.Microsecond)
}

// gu converts to the driver's UUID type (same bytes), which it knows how to marshal.
func gu(u uuid.UUID) gocql.UUID { return gocql.UUID(u) }
