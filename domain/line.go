package domain

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// LineKind names the three kinds of line. Every line is newest first.
type LineKind uint8

const (
	// Userline holds the tweets a user posted.
	Userline LineKind = iota + 1
	// Timeline holds the tweets of the user and of everyone the user follows (the home timeline).
	Timeline
	// Public holds every tweet (the public line).
	Public
)

func (k LineKind) String() string {
	switch k {
	case Userline:
		return "userline"
	case Timeline:
		return "timeline"
	case Public:
		return "public"
	}
	return "unknown"
}

// LineKey names one line: a kind and the owning username ("" for the public line).
type LineKey struct {
	Kind  LineKind
	Owner string
}

// UserlineOf, TimelineOf and PublicLine build LineKeys.
func UserlineOf(username string) LineKey { return LineKey{Kind: Userline, Owner: username} }

// TimelineOf is the home timeline of username.
func TimelineOf(username string) LineKey { return LineKey{Kind: Timeline, Owner: username} }

// PublicLine is the line of every tweet.
func PublicLine() LineKey { return LineKey{Kind: Public} }

func (k LineKey) String() string {
	if k.Kind == Public {
		return "public"
	}
	return k.Kind.String() + ":" + k.Owner
}

// LineEntry is one tweet's place in a line. Time (Unix microseconds) is the entry's name in the
// line; the same tweet has the same Time in every line it is in, which is what makes unfollow
// cleanup exact: the unfollowed user's userline names the timeline entries to delete.
type LineEntry struct {
	Time    int64
	TweetID uuid.UUID
	// Tweet, when a store keeps it in the line (a query-first table: the line carries what a
	// page shows), is the tweet itself; nil means the reader fetches it by TweetID. A store
	// that keeps only IDs ignores it on writes and leaves it nil on reads.
	Tweet *Tweet
}

// LineSlice asks for a slice of one line: at most Limit entries, newest first, strictly older
// than Before (Before <= 0: from the newest).
type LineSlice struct {
	Line   LineKey
	Before int64
	Limit  int
}

// PageLines is a store's lines as one page's PagePlan reads them: the store's own Slice and
// SliceMany (ports.LineReader), and the name of the lines they read.
type PageLines interface {
	Slice(ctx context.Context, line LineKey, before int64, limit int) ([]LineEntry, error)
	SliceMany(ctx context.Context, reqs []LineSlice) ([][]LineEntry, error)
	// LinesID names the lines read: the same for every page read of one store's lines, another
	// for another store's. What the server keeps of them between pages (the pulled authors'
	// userline heads, domain/social) is kept by it, so that the two models of compare mode keep
	// theirs apart. NoLinesID: nothing is kept.
	LinesID() LinesID
}

// LinesID names one store's lines (PageLines.LinesID): a store takes one from NewLinesID when
// it is made, and gives it for every page read of its lines.
type LinesID uint64

// NoLinesID names no lines: the server keeps nothing of them between pages.
const NoLinesID LinesID = 0

var linesIDs atomic.Uint64

// NewLinesID returns a LinesID no other call of this process returned.
func NewLinesID() LinesID { return LinesID(linesIDs.Add(1)) }

// PagePlan chooses the entries of one page from a store's lines: it slices them as it needs
// (through lines, never another store) and returns the page's entries newest first, with one
// more past the page when a next page exists. A store runs it on its own lines
// (ports.LineReader.ReadPage), so that each data model reads a page as it would alone: compare
// mode runs it on both. It may be run more than once, and keeps no state between runs.
type PagePlan func(ctx context.Context, lines PageLines) ([]LineEntry, error)

// Paging limits of the lines and lists.
const (
	DefaultPageSize = 40
	MaxPageSize     = 200
	// MaxFollowPage bounds one read of friends or followers, as the original's 5000.
	MaxFollowPage = 5000
)

// ValidateLimit checks a page size; 0 means the default.
func ValidateLimit(limit int) (int, error) {
	if limit == 0 {
		return DefaultPageSize, nil
	}
	if limit < 1 || limit > MaxPageSize {
		return 0, Invalid("limit", "must be between 1 and %d", MaxPageSize)
	}
	return limit, nil
}

// lineCursorLen is the decoded length of a line cursor: a version byte and the 8-byte time.
const lineCursorLen = 9

const lineCursorVersion = 1

// EncodeLineCursor makes the opaque "next" cursor of a line page: the page continues with the
// entries strictly older than the time given.
func EncodeLineCursor(before int64) string {
	var b [lineCursorLen]byte
	b[0] = lineCursorVersion
	binary.BigEndian.PutUint64(b[1:], uint64(before))
	var enc [(lineCursorLen*8 + 5) / 6]byte
	base64.RawURLEncoding.Encode(enc[:], b[:])
	return string(enc[:])
}

// ParseLineCursor reads a cursor made by EncodeLineCursor. "" means the newest entry.
func ParseLineCursor(s string) (before int64, err error) {
	if s == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != lineCursorLen || b[0] != lineCursorVersion {
		return 0, Invalid("start", "is not a cursor this server made")
	}
	before = int64(binary.BigEndian.Uint64(b[1:]))
	if before <= 0 {
		return 0, Invalid("start", "is not a cursor this server made")
	}
	return before, nil
}

// followCursorVersion tells follow cursors from line cursors (1) and blog cursors (2).
const followCursorVersion = 3

// MaxFollowCursorLen bounds the adapter cursor a follow cursor wraps (adapters use a username).
const MaxFollowCursorLen = 256

// EncodeFollowCursor wraps an adapter's follow cursor (at most MaxFollowCursorLen bytes) so that
// clients see one opaque format, versioned as the line cursor is.
func EncodeFollowCursor(c string) string {
	if c == "" {
		return ""
	}
	b := make([]byte, 0, 1+len(c))
	b = append(b, followCursorVersion)
	b = append(b, c...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ParseFollowCursor unwraps EncodeFollowCursor. "" means the first page; anything this server
// did not make (another version, another kind of cursor, an empty or overlong one) is refused
// before it reaches an adapter.
func ParseFollowCursor(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	if base64.RawURLEncoding.DecodedLen(len(s)) > 1+MaxFollowCursorLen {
		return "", Invalid("start", "is not a cursor this server made")
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 2 || len(b) > 1+MaxFollowCursorLen || b[0] != followCursorVersion {
		return "", Invalid("start", "is not a cursor this server made")
	}
	return string(b[1:]), nil
}

// Clock tells the time; tests substitute a fixed or stepping one.
type Clock interface{ Now() time.Time }

// SystemClock is the wall clock.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// Stamper hands out line times: the clock's microseconds, but strictly increasing, so two tweets
// posted in the same microsecond still get different names in every line (the original stored
// both under one column name and lost one). Within one process this makes every line time unique.
type Stamper struct {
	clock Clock
	mu    sync.Mutex
	last  int64
}

// NewStamper returns a Stamper reading clock.
func NewStamper(clock Clock) *Stamper { return &Stamper{clock: clock} }

// Next returns a time in microseconds greater than every time it returned before.
func (s *Stamper) Next() int64 {
	now := s.clock.Now().UnixMicro()
	s.mu.Lock()
	defer s.mu.Unlock()
	if now <= s.last {
		now = s.last + 1
	}
	s.last = now
	return now
}

// TimeFromMicros converts a line time to a UTC time.Time.
func TimeFromMicros(micros int64) time.Time { return time.UnixMicro(micros).UTC() }

// MicrosDate reads n as microseconds since 1970 when that gives a date between 1990 and 2200
// ("2010-05-12 09:20:00.123456 UTC"), "" otherwise: how the teaching views annotate a LongType
// column name or a column's timestamp that stands for a time.
func MicrosDate(n int64) string {
	const lo, hi = 631152000000000, 7258118400000000
	if n < lo || n > hi {
		return ""
	}
	return TimeFromMicros(n).Format("2006-01-02 15:04:05.000000 UTC")
}
