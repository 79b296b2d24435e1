package social

import "sync/atomic"

// writeClock counts the writes this service makes to one line, so that a reader can tell
// whether something it computed from the line is still current. begin is called before a
// write starts, end after it has finished (or failed).
type writeClock struct {
	inFlight atomic.Int64
	done     atomic.Uint64
}

func (w *writeClock) begin() { w.inFlight.Add(1) }

func (w *writeClock) end() {
	w.done.Add(1) // before inFlight falls, so a reader never sees neither
	w.inFlight.Add(-1)
}

// version is the number of finished writes, and false while a write is in flight.
func (w *writeClock) version() (uint64, bool) {
	if w.inFlight.Load() != 0 {
		return 0, false
	}
	return w.done.Load(), true
}

// PublicLineVersion tells whether the public line has changed through this service: read it
// before and after computing something from the line (a page, say); if both reads are ok and
// equal, no write of this service touched the line in between, so the result is still current
// until the version next changes. ok is false while a post is being written.
//
// Only this service's own writes are counted, so the version proves nothing when another
// process (or another service over the same store) writes the line too: a shared Cassandra
// cluster, for one. Callers cache on it only when this process is the store's sole writer.
func (s *Service) PublicLineVersion() (version uint64, ok bool) { return s.publicWrites.version() }
