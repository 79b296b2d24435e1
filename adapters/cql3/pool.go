package cql3

import (
	"context"
	"sync"
)

// runBounded runs op(i) for i in [0, n) with at most limit running at once, and returns the
// first error. After an error, the ops not yet started are skipped and the context the others
// see is cancelled.
func runBounded(ctx context.Context, n, limit int, op func(ctx context.Context, i int) error) error {
	if n == 0 {
		return nil
	}
	if n == 1 {
		return op(ctx, 0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		once     sync.Once
		firstErr error
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		once.Do(func() { firstErr = err; cancel() })
	}
	workers := min(limit, n)
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := op(ctx, i); err != nil {
					fail(err)
				}
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		// The caller's context ended before every op ran.
		return context.Cause(ctx)
	}
	return firstErr
}

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
