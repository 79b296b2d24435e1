package frame

import "sync"

// LastRunsKept is how many browsers' runs a LastRuns keeps.
const LastRunsKept = 1024

// LastRuns keeps each browser's last run of a lesson's form (by its lab session) for the page
// its redirect leads to: at most LastRunsKept browsers, the one that ran first dropped first.
// A run of the form of another server is not here: the page then shows the form alone. The
// zero value is ready for use, and it is safe for concurrent use.
type LastRuns[T any] struct {
	mu    sync.Mutex
	m     map[string]T
	order []string // sessions, the oldest first
}

// Put keeps r as session's last run.
func (s *LastRuns[T]) Put(session string, r T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]T{}
	}
	if _, ok := s.m[session]; !ok {
		for len(s.order) >= LastRunsKept {
			delete(s.m, s.order[0])
			s.order = s.order[1:]
		}
		s.order = append(s.order, session)
	}
	s.m[session] = r
}

// Get is session's last run, if it is kept.
func (s *LastRuns[T]) Get(session string) (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.m[session]
	return r, ok
}
