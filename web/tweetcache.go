package web

import (
	"sync"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/social"
)

// tweetCacheSize bounds the encoded tweets kept: about 2 MB of JSON at ~200 bytes a tweet.
const tweetCacheSize = 10_000

// tweetCache keeps each tweet's JSON by ID. A tweet never changes after it is posted, so an
// entry never goes stale; the lines only decide which tweets a page holds. Encoding a page of
// 40 tweets otherwise costs about as much as everything else in the request together.
type tweetCache struct {
	mu  sync.RWMutex
	enc map[uuid.UUID][]byte
	max int
}

func newTweetCache(max int) *tweetCache {
	return &tweetCache{enc: make(map[uuid.UUID][]byte, min(max, 1024)), max: max}
}

// appendPage writes the page with appendTweetPage, each tweet from the cache where it can; the
// read lock is taken once per page, the write lock only when there were misses.
func (tc *tweetCache) appendPage(b []byte, page social.TweetPage) []byte {
	var missBuf [domain.DefaultPageSize]int
	misses := missBuf[:0]
	tc.mu.RLock()
	b = appendTweetPage(b, page, func(b []byte, i int) []byte {
		if enc, ok := tc.enc[page.Tweets[i].ID]; ok {
			return append(b, enc...)
		}
		misses = append(misses, i)
		return appendTweet(b, page.Tweets[i])
	})
	tc.mu.RUnlock()
	if len(misses) > 0 {
		tc.mu.Lock()
		for _, i := range misses {
			tc.putLocked(page.Tweets[i])
		}
		tc.mu.Unlock()
	}
	return b
}

func (tc *tweetCache) putLocked(t domain.Tweet) {
	if _, ok := tc.enc[t.ID]; ok {
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
	tc.enc[t.ID] = appendTweet(make([]byte, 0, 160+len(t.Body)), t)
}

func (tc *tweetCache) len() int {
	tc.mu.RLock()
	defer tc.mu.RUnlock()
	return len(tc.enc)
}
