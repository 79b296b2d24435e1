package cql3

import (
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"

	"twissandra/domain"
)

// Cassandra orders timeuuid values by their 60-bit timestamp, then by their last eight bytes
// compared as SIGNED bytes (domain.TieSigned). The smallest and largest "clock sequence and node"
// halves under that order are the ones minTimeuuid() and maxTimeuuid() use; with them Go computes
// the bounds that the queries bind, so no CQL is ever built from values.

// minTimeUUID is the smallest timeuuid of the microsecond micros, maxTimeUUID the largest: a
// line slice "strictly older than T" is time < minTimeUUID(T), and the rows of microsecond T
// are minTimeUUID(T) <= time <= maxTimeUUID(T).
func minTimeUUID(micros int64) uuid.UUID { return domain.TieSigned.MinTimeUUID(micros) }
func maxTimeUUID(micros int64) uuid.UUID { return domain.TieSigned.MaxTimeUUID(micros) }

// tickBounds are the smallest and largest timeuuids of u's 100-ns tick.
func tickBounds(u uuid.UUID) (lo, hi uuid.UUID) { return domain.TieSigned.TickBounds(u) }

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
	return domain.TimeUUIDFromTicks(domain.MicrosTicks(e.Time), [8]byte(e.TweetID[8:]))
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
