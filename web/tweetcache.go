package web

import (
	"io"
	"sync"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/social"
)

// TweetCacheSize bounds the encoded tweets a TweetCache keeps: about 2 MB of JSON at ~200 bytes
// a tweet, a little more of HTML.
const TweetCacheSize = 10_000

// TweetCache keeps one encoding of each tweet by ID: its JSON for the API, its <li> for the
// pages. A tweet never changes after it is posted and its encoding is the same for every
// reader, so an entry never goes stale; the lines, read from the store on every request (the
// Storage-Ops header and the pages' footer say so), only decide which tweets a page holds.
// Encoding a page of 40 tweets otherwise costs about as much as everything else in the request
// together.
type TweetCache struct {
	mu  sync.RWMutex
	enc map[uuid.UUID][]byte
	max int
}

// NewTweetCache keeps at most max encodings.
func NewTweetCache(max int) *TweetCache {
	return &TweetCache{enc: make(map[uuid.UUID][]byte, min(max, 1024)), max: max}
}

// WriteEach writes the encoding of each tweet of ts to w, sep between two: the cached one, or
// what encode appends, which is kept. The read lock is taken once per call, the write lock only
// when there were misses. An error of encode or of w stops it, and nothing of that call is kept.
func (tc *TweetCache) WriteEach(w io.Writer, ts []domain.Tweet, sep string, encode func(b []byte, t domain.Tweet) ([]byte, error)) error {
	type miss struct{ i, from, to int }
	var missBuf [domain.DefaultPageSize]miss
	misses := missBuf[:0]
	var fresh []byte // the encodings of the misses
	err := func() error {
		tc.mu.RLock()
		defer tc.mu.RUnlock()
		for i, t := range ts {
			if i > 0 && sep != "" {
				if _, err := io.WriteString(w, sep); err != nil {
					return err
				}
			}
			enc, ok := tc.enc[t.ID]
			if !ok {
				from := len(fresh)
				var err error
				if fresh, err = encode(fresh, t); err != nil {
					return err
				}
				enc = fresh[from:]
				misses = append(misses, miss{i, from, len(fresh)})
			}
			if _, err := w.Write(enc); err != nil {
				return err
			}
		}
		return nil
	}()
	if err != nil || len(misses) == 0 {
		return err
	}
	tc.mu.Lock()
	for _, m := range misses {
		tc.putLocked(ts[m.i].ID, fresh[m.from:m.to])
	}
	tc.mu.Unlock()
	return nil
}

// AppendEach is WriteEach appending to b.
func (tc *TweetCache) AppendEach(b []byte, ts []domain.Tweet, sep string, encode func(b []byte, t domain.Tweet) ([]byte, error)) ([]byte, error) {
	w := appendWriter{b}
	err := tc.WriteEach(&w, ts, sep, encode)
	return w.b, err
}

// appendWriter appends what is written to it to a byte slice.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

func (tc *TweetCache) putLocked(id uuid.UUID, enc []byte) {
	if _, ok := tc.enc[id]; ok {
		return
	}
	if len(tc.enc) >= tc.max {
		// Map iteration starts at a random place: this evicts an arbitrary entry, which is
		// good enough for a cache whose hits are the newest tweets of the busiest lines.
		for id := range tc.enc {
			delete(tc.enc, id)
			break
		}
	}
	tc.enc[id] = append([]byte(nil), enc...)
}

func (tc *TweetCache) len() int {
	tc.mu.RLock()
	defer tc.mu.RUnlock()
	return len(tc.enc)
}

// appendPage writes the page as JSON (appendTweetPage), each tweet from the cache where it can.
func (tc *TweetCache) appendPage(b []byte, page social.TweetPage) []byte {
	return appendTweetPage(b, page, func(b []byte) []byte {
		b, _ = tc.AppendEach(b, page.Tweets, ",", appendTweetErr) // appendTweet cannot fail
		return b
	})
}

func appendTweetErr(b []byte, t domain.Tweet) ([]byte, error) { return appendTweet(b, t), nil }
