package domain

import (
	"regexp"
	"time"

	"github.com/google/uuid"
)

// MaxUsernameLen is the longest username, as in the original Twissandra.
const MaxUsernameLen = 30

// usernamePattern is ^\w{1,30}$ with \w spelled out: ASCII letters, digits and underscore.
// Because '!' can never appear, the public line's row key "!PUBLIC!" cannot collide with a user.
var usernamePattern = regexp.MustCompile(`^[A-Za-z0-9_]{1,30}$`)

// Password limits. bcrypt reads at most 72 bytes; a longer password would be silently truncated,
// so it is refused instead.
const (
	MinPasswordLen = 8
	MaxPasswordLen = 72
)

// User is a registered account. Username is the identity users see and the key every port takes;
// ID is the UUID the Thrift-era model keys its rows by (seed 001: User rows keyed by UUID, with
// the Username column family as the inverted index).
type User struct {
	ID           uuid.UUID
	Username     string
	PasswordHash []byte
	CreatedAt    time.Time
}

// Follow is one side of a follow relationship: the other user and when it started. Cursor is the
// adapter's position of this record in its own stable order, opaque to the domain; paging asks
// for the records after a Cursor.
type Follow struct {
	Username string
	Since    time.Time
	Cursor   string
}

// ValidateUsername checks ^\w{1,30}$ (ASCII word characters), case-sensitive.
func ValidateUsername(name string) error {
	if name == "" {
		return Invalid("username", "is required")
	}
	if !usernamePattern.MatchString(name) {
		return Invalid("username", "must be 1 to %d ASCII letters, digits or underscores", MaxUsernameLen)
	}
	return nil
}

// ValidatePassword checks the password's length in bytes.
func ValidatePassword(pw string) error {
	if len(pw) < MinPasswordLen || len(pw) > MaxPasswordLen {
		return Invalid("password", "must be %d to %d bytes long", MinPasswordLen, MaxPasswordLen)
	}
	return nil
}
