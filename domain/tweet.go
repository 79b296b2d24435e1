package domain

import (
	"crypto/rand"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// MaxTweetLen is the longest tweet body in Unicode code points, after trimming.
const MaxTweetLen = 140

// Tweet is one post. ID is a version-1 (time) UUID whose timestamp is the tweet's line time, so
// the ID alone says when the tweet was posted and where it sits in every line.
type Tweet struct {
	ID        uuid.UUID
	Username  string
	Body      string
	CreatedAt time.Time
}

// Time is the tweet's line time in microseconds since the Unix epoch.
func (t Tweet) Time() int64 { return t.CreatedAt.UnixMicro() }

// NormalizeBody trims surrounding white space and checks 1 to 140 code points of valid UTF-8.
func NormalizeBody(body string) (string, error) {
	if !utf8.ValidString(body) {
		return "", Invalid("body", "must be valid UTF-8")
	}
	body = strings.TrimSpace(body)
	n := utf8.RuneCountInString(body)
	if n == 0 {
		return "", Invalid("body", "must not be empty")
	}
	if n > MaxTweetLen {
		return "", Invalid("body", "must be at most %d characters (got %d)", MaxTweetLen, n)
	}
	return body, nil
}

// uuidEpochOffset is the number of 100-ns intervals between the Gregorian epoch of UUIDs
// (1582-10-15) and the Unix epoch.
const uuidEpochOffset = 0x01B21DD213814000

// NewTimeUUID returns a version-1 UUID carrying the given Unix time in microseconds and a random
// clock sequence and node (multicast bit set, as RFC 4122 asks for random nodes), so two UUIDs of
// the same microsecond differ.
func NewTimeUUID(micros int64) uuid.UUID {
	var u uuid.UUID
	ts := uint64(micros)*10 + uuidEpochOffset
	u[0] = byte(ts >> 24)
	u[1] = byte(ts >> 16)
	u[2] = byte(ts >> 8)
	u[3] = byte(ts)
	u[4] = byte(ts >> 40)
	u[5] = byte(ts >> 32)
	u[6] = byte(ts>>56)&0x0F | 0x10
	u[7] = byte(ts >> 48)
	_, _ = rand.Read(u[8:])
	u[8] = u[8]&0x3F | 0x80
	u[10] |= 0x01
	return u
}

// TimeUUIDMicros returns the Unix time in microseconds carried by a version-1 UUID.
func TimeUUIDMicros(u uuid.UUID) int64 {
	ts := uint64(u[6]&0x0F)<<56 | uint64(u[7])<<48 | uint64(u[4])<<40 | uint64(u[5])<<32 |
		uint64(u[0])<<24 | uint64(u[1])<<16 | uint64(u[2])<<8 | uint64(u[3])
	return int64((ts - uuidEpochOffset) / 10)
}

// ParseTweetID parses a tweet ID and checks that it is a time UUID.
func ParseTweetID(s string) (uuid.UUID, error) {
	u, err := uuid.Parse(s)
	if err != nil || u.Version() != 1 || len(s) != 36 {
		return uuid.Nil, Invalid("id", "must be a time UUID like 6ba7b810-9dad-11d1-80b4-00c04fd430c8")
	}
	return u, nil
}
