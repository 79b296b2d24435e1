package domain

import (
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

// NormalizeBody trims surrounding white space and checks 1 to 140 code points of valid UTF-8,
// with no character a user may not write (CheckText).
func NormalizeBody(body string) (string, error) {
	if !utf8.ValidString(body) {
		return "", Invalid("body", "must be valid UTF-8")
	}
	if err := CheckText("body", body); err != nil {
		return "", err
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

// ParseTweetID parses a tweet ID and checks that it is a time UUID.
func ParseTweetID(s string) (uuid.UUID, error) {
	u, err := uuid.Parse(s)
	if err != nil || u.Version() != 1 || len(s) != 36 {
		return uuid.Nil, Invalid("id", "must be a time UUID like 6ba7b810-9dad-11d1-80b4-00c04fd430c8")
	}
	return u, nil
}
