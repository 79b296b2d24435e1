package social

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"sync"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
)

// usedTimes are the line times PostAt has handed out. Post needs no such set: its Stamper makes
// times unique by only ever moving forward, which imports, arriving in any order, cannot do.
type usedTimes struct {
	mu   sync.Mutex
	used map[int64]struct{}
}

// claim returns at, or the first free microsecond after it, and marks it used: as the Stamper
// does for Post, two tweets imported for one microsecond get different names in every line.
func (u *usedTimes) claim(at int64) int64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	for {
		if _, taken := u.used[at]; !taken {
			u.used[at] = struct{}{}
			return at
		}
		at++
	}
}

// PostAt creates a tweet as posted at a given time, with Post's fan-out (the author's userline
// and timeline, the public line, every follower's timeline). It is for imports and generated
// data: the time is the one given (to the microsecond), moved forward only if this Service has
// already used that microsecond, so every line time stays unique.
//
// The tweet's ID is a time UUID of that time whose clock sequence and node are derived from the
// author and the time rather than drawn at random, so importing the same tweet again (a re-run)
// writes the same ID and the same line entries: an upsert, not a duplicate.
func (s *Service) PostAt(ctx context.Context, username, body string, at time.Time) (domain.Tweet, error) {
	body, err := domain.NormalizeBody(body)
	if err != nil {
		return domain.Tweet{}, err
	}
	if err := domain.ValidateUsername(username); err != nil {
		return domain.Tweet{}, err
	}
	if at.UnixMicro() <= 0 {
		return domain.Tweet{}, domain.Invalid("at", "must be after 1970")
	}
	micros := s.imported.claim(at.UnixMicro())
	t := domain.Tweet{ID: importTweetID(username, micros), Username: username, Body: body, CreatedAt: domain.TimeFromMicros(micros)}
	if err := s.publish(ctx, t); err != nil {
		return domain.Tweet{}, err
	}
	return t, nil
}

// importTweetID is NewTimeUUID's layout with the clock sequence and node taken from a hash of
// the author and the time instead of random bytes.
func importTweetID(username string, micros int64) uuid.UUID {
	u := domain.NewTimeUUID(micros)
	h := sha256.New()
	h.Write([]byte(username))
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(micros)))
	sum := h.Sum(nil)
	copy(u[8:], sum[:8])
	u[8] = u[8]&0x3F | 0x80
	u[10] |= 0x01
	return u
}
