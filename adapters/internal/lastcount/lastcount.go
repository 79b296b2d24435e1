// Package lastcount keeps, per user, the follower count this process last wrote (or read while
// holding the right to write it). The widerow and cql3 adapters keep a user's follower count as
// a stored number that every follow and unfollow rewrites, read-modify-write; reading the
// stored number back before each write costs a read per follow (on widerow, a read that walks
// every unmerged write of the column; on cql3, a serial read, a second Paxos round).
//
// A process may trust the count it wrote itself because it knows when that stops being true:
//
//   - widerow: the engine is embedded in this process, which is the store's only writer, and
//     the adapter serialises the follows of one author with a lock, so the last count written
//     is the stored count until this process writes another.
//   - cql3: other processes write too, so the remembered count is only the expected value of
//     the conditional batch that writes the next one. If another process changed it meanwhile
//     the batch does not apply; the adapter then drops the count and reads the stored one.
//
// Either way a write whose outcome is unknown (a timeout may have applied it) must Drop the
// count, and the next change reads the stored value again.
package lastcount

import "sync"

// Counts maps a user (whatever key the adapter names users by) to the follower count this
// process last wrote. The zero value is empty and ready to use; it is safe for concurrent use,
// and reads do not block each other.
type Counts struct {
	mu sync.RWMutex
	m  map[string]int64
}

// Get returns the count kept for user, and whether there is one.
func (c *Counts) Get(user string) (int64, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	n, ok := c.m[user]
	return n, ok
}

// Put keeps n as user's count: the count just written, or just read under the user's lock.
func (c *Counts) Put(user string, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]int64{}
	}
	c.m[user] = n
}

// Drop forgets user's count (the stored one is unknown or may have changed), so the next Get
// misses and the adapter reads the stored count again.
func (c *Counts) Drop(user string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, user)
}
