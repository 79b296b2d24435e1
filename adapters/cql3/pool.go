package cql3

import (
	"context"
	"sync"
)

// keyLocks is a mutex per key, created on demand and dropped when nobody holds or waits for it.
type keyLocks struct {
	mu sync.Mutex
	m  map[string]*keyLock
}

type keyLock struct {
	ch      chan struct{} // holds a token while locked
	waiters int
}

// lock waits for key's lock (or ctx) and returns the function that releases it.
func (k *keyLocks) lock(ctx context.Context, key string) (func(), error) {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[string]*keyLock{}
	}
	l := k.m[key]
	if l == nil {
		l = &keyLock{ch: make(chan struct{}, 1)}
		k.m[key] = l
	}
	l.waiters++
	k.mu.Unlock()

	release := func() {
		k.mu.Lock()
		l.waiters--
		if l.waiters == 0 {
			delete(k.m, key)
		}
		k.mu.Unlock()
	}
	select {
	case l.ch <- struct{}{}:
		return func() { <-l.ch; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}
