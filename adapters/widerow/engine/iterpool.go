package engine

import (
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble"
)

// Opening a Pebble iterator and closing it again cost about as much as the reversed slice of
// forty columns a home page reads with it: a tenth of a widerow page's storage work. An
// iterator sees the store as it was when it opened, so it can serve a later read only if
// nothing was written since. The node counts its commits (Node.commits, bumped after each one,
// before the write returns), and a read hands its iterator back here instead of closing it; the
// next read takes it while the count has not moved. Any commit makes every idle iterator stale:
// it is closed, by the next read or by the next commit, never used again.
//
// So a read never misses a write that returned before it began: that write moved the count
// first. (A write still under way when a read begins may or may not be seen, as with a fresh
// iterator.) Reads that overlap each other take an iterator each, and at most maxIdleIters
// wait here.
type iterPool struct {
	mu     sync.Mutex
	idle   []idleIter
	closed bool
	n      atomic.Int32  // len(idle), read without the lock by commits
	opened atomic.Uint64 // iterators opened so far
}

type idleIter struct {
	it      *pebble.Iterator
	commits uint64 // Node.commits when it was opened
	gen     uint64 // the row cache's generation before it was opened (reader.gen)
}

// maxIdleIters bounds the iterators kept: each pins the memtables and tables of its moment.
const maxIdleIters = 8

// take returns an idle iterator opened at commits (the count now), and closes the stale ones.
func (p *iterPool) take(commits uint64) (idleIter, bool) {
	p.mu.Lock()
	var stale []idleIter
	var got idleIter
	ok := false
	for len(p.idle) > 0 {
		e := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		if e.commits == commits {
			got, ok = e, true
			break
		}
		stale = append(stale, e)
	}
	p.n.Store(int32(len(p.idle)))
	p.mu.Unlock()
	closeIters(stale)
	return got, ok
}

// put keeps e for a later read if it is still current (opened at commits, the count now) and
// there is room; it reports whether it did (if not, the caller closes e).
func (p *iterPool) put(e idleIter, commits uint64) bool {
	if e.commits != commits || e.it.Error() != nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.idle) >= maxIdleIters {
		return false
	}
	p.idle = append(p.idle, e)
	p.n.Store(int32(len(p.idle)))
	return true
}

// dropStale closes the idle iterators opened before commits.
func (p *iterPool) dropStale(commits uint64) {
	if p.n.Load() == 0 {
		return
	}
	p.mu.Lock()
	var stale []idleIter
	kept := p.idle[:0]
	for _, e := range p.idle {
		if e.commits == commits {
			kept = append(kept, e)
		} else {
			stale = append(stale, e)
		}
	}
	clear(p.idle[len(kept):])
	p.idle = kept
	p.n.Store(int32(len(p.idle)))
	p.mu.Unlock()
	closeIters(stale)
}

// release closes every idle iterator, so that none keeps a flushed memtable or compacted tables.
func (p *iterPool) release() { _ = p.drain(false) }

// close closes every idle iterator, and keeps none from now on (before the store closes).
func (p *iterPool) close() error { return p.drain(true) }

func (p *iterPool) drain(closing bool) error {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.closed = p.closed || closing
	p.n.Store(0)
	p.mu.Unlock()
	return closeIters(idle)
}

func closeIters(its []idleIter) error {
	var first error
	for _, e := range its {
		if err := e.it.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// committed counts a commit and closes the iterators it made stale. Every commit calls it
// after Pebble's Commit returns, before the write returns to its caller.
func (n *Node) committed() {
	n.iters.dropStale(n.commits.Add(1))
}
