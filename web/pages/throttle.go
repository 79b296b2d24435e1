package pages

import (
	"sync"
	"time"
)

// limiter counts failures per key in a sliding window: Blocked once a key has max failures
// within the window. It holds at most maxKeys keys: when full it first forgets expired keys,
// then the key whose newest failure is oldest, so memory stays bounded whatever an attacker
// sends.
type limiter struct {
	max     int
	window  time.Duration
	maxKeys int
	now     func() time.Time

	mu   sync.Mutex
	hits map[string][]time.Time // oldest first, at most max entries
}

func newLimiter(max int, window time.Duration, maxKeys int, now func() time.Time) *limiter {
	if now == nil {
		now = time.Now
	}
	return &limiter{max: max, window: window, maxKeys: maxKeys, now: now, hits: map[string][]time.Time{}}
}

// live drops the failures of key older than the window; the caller holds mu.
func (l *limiter) live(key string, now time.Time) []time.Time {
	ts := l.hits[key]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= l.window {
		i++
	}
	ts = ts[i:]
	if len(ts) == 0 {
		delete(l.hits, key)
		return nil
	}
	l.hits[key] = ts
	return ts
}

// Blocked reports whether key has reached max failures in the window, and when the oldest of
// them leaves it.
func (l *limiter) Blocked(key string) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	ts := l.live(key, now)
	if len(ts) < l.max {
		return false, 0
	}
	return true, l.window - now.Sub(ts[0])
}

// Fail records one failure of key.
func (l *limiter) Fail(key string) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	ts := l.live(key, now)
	if ts == nil && len(l.hits) >= l.maxKeys {
		l.evict(now)
	}
	ts = append(ts, now)
	if len(ts) > l.max {
		ts = ts[len(ts)-l.max:]
	}
	l.hits[key] = ts
}

// Reset forgets key (after a successful login).
func (l *limiter) Reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.hits, key)
}

func (l *limiter) evict(now time.Time) {
	var (
		oldestKey string
		oldest    time.Time
	)
	for k := range l.hits {
		ts := l.live(k, now)
		if ts == nil {
			continue
		}
		if last := ts[len(ts)-1]; oldestKey == "" || last.Before(oldest) {
			oldestKey, oldest = k, last
		}
	}
	if len(l.hits) >= l.maxKeys && oldestKey != "" {
		delete(l.hits, oldestKey)
	}
}

// size is the number of keys held.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.hits)
}
