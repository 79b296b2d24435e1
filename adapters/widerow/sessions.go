package widerow

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
)

// Sessions implements ports.SessionStore in the Sessions keyspace of storage-conf.xml, which is
// the server's own and not the seeds':
//
//	Keyspace Sessions
//	  LoginAttempts  TimeUUIDType  ['user:<name>' or 'addr:<address>']  attempt timeuuid -> forget after (µs)
//	  EndedSessions  BytesType     [expiry day, '2026-11-26']           session id -> expires (µs)
//
// A log-in attempt is a column in its key's row, named by its timeuuid, so the attempts of the
// last minute are one get_slice from the timeuuid of a minute ago. An ended session is a column
// in the row of the day its session would have expired: one get of a known column. 0.6 had no
// TTL (0.7 brought it), so nothing expires by itself: Sweep removes the attempts and the day rows
// that no longer matter, and the writes run it every sweepEvery.
type Sessions struct {
	node  *engine.Node
	stamp *domain.Stamper
	now   func() time.Time

	sweepMu   sync.Mutex
	nextSweep time.Time
}

// Keyspace and column families of the sessions.
const (
	KeyspaceSessions = "Sessions"
	cfLoginAttempts  = "LoginAttempts"
	cfEndedSessions  = "EndedSessions"
	// sweepEvery is how often the writes start a Sweep.
	sweepEvery = 10 * time.Minute
	// sweepPage is how many rows a sweep reads at a time.
	sweepPage = 500
)

// NewSessions keeps the sessions on node.
func NewSessions(node *engine.Node) *Sessions {
	return &Sessions{node: node, stamp: domain.NewStamper(domain.SystemClock{}), now: time.Now}
}

// expiryDay is the EndedSessions row of a session that expires at t.
func expiryDay(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// timeUUIDFloor is the smallest TimeUUIDType name of t's microsecond (SliceTaggedBetween says why).
func timeUUIDFloor(t time.Time) uuid.UUID {
	return domain.TimeUUIDFromTicks(domain.MicrosTicks(t.UnixMicro()), [8]byte{})
}

// AddLoginAttempt implements ports.SessionStore: insert(key, LoginAttempts[id] = forget-after).
func (s *Sessions) AddLoginAttempt(ctx context.Context, key string, id uuid.UUID, keep time.Duration) error {
	s.maybeSweep()
	err := s.node.Insert(ctx, KeyspaceSessions, key, engine.ColumnPath{ColumnFamily: cfLoginAttempts, Column: id[:]},
		micros(s.now().Add(keep)), s.stamp.Next(), engine.QUORUM)
	return wrap("add login attempt", err)
}

// LoginAttempts implements ports.SessionStore: one get_slice from the first timeuuid of since.
func (s *Sessions) LoginAttempts(ctx context.Context, key string, since time.Time, limit int) ([]time.Time, error) {
	if limit <= 0 {
		return nil, nil
	}
	start := timeUUIDFloor(since)
	cols, err := s.node.GetSlice(ctx, KeyspaceSessions, key, engine.ColumnParent{ColumnFamily: cfLoginAttempts},
		engine.SlicePredicate{SliceRange: &engine.SliceRange{Start: start[:], Count: count32(limit)}}, engine.QUORUM)
	if err != nil {
		return nil, wrap("login attempts", err)
	}
	out := make([]time.Time, 0, len(cols))
	for _, c := range cols {
		id, err := uuid.FromBytes(c.Column.Name)
		if err != nil {
			return nil, wrap("login attempts", err)
		}
		out = append(out, time.UnixMicro(domain.TimeUUIDMicros(id)))
	}
	return out, nil
}

// DropLoginAttempt implements ports.SessionStore: remove(key, LoginAttempts[id]).
func (s *Sessions) DropLoginAttempt(ctx context.Context, key string, id uuid.UUID) error {
	err := s.node.Remove(ctx, KeyspaceSessions, key, engine.ColumnPath{ColumnFamily: cfLoginAttempts, Column: id[:]}, s.stamp.Next(), engine.QUORUM)
	return wrap("drop login attempt", err)
}

// ClearLoginAttempts implements ports.SessionStore: a row tombstone.
func (s *Sessions) ClearLoginAttempts(ctx context.Context, key string) error {
	err := s.node.Remove(ctx, KeyspaceSessions, key, engine.ColumnPath{ColumnFamily: cfLoginAttempts}, s.stamp.Next(), engine.QUORUM)
	return wrap("clear login attempts", err)
}

// EndSession implements ports.SessionStore: insert(expiry day, EndedSessions[id] = expires).
func (s *Sessions) EndSession(ctx context.Context, id string, expires time.Time) error {
	s.maybeSweep()
	err := s.node.Insert(ctx, KeyspaceSessions, expiryDay(expires), engine.ColumnPath{ColumnFamily: cfEndedSessions, Column: []byte(id)},
		micros(expires), s.stamp.Next(), engine.QUORUM)
	return wrap("end session", err)
}

// SessionEnded implements ports.SessionStore: get(expiry day, EndedSessions[id]).
func (s *Sessions) SessionEnded(ctx context.Context, id string, expires time.Time) (bool, error) {
	_, err := s.node.Get(ctx, KeyspaceSessions, expiryDay(expires), engine.ColumnPath{ColumnFamily: cfEndedSessions, Column: []byte(id)}, engine.QUORUM)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, engine.ErrNotFound):
		return false, nil
	}
	return false, wrap("session ended", err)
}

// maybeSweep sweeps when the last sweep (or the start) was sweepEvery ago or more, in the
// write that finds it due: no goroutine outlives the node. The sweep is the server's upkeep, not
// the request's action, so it runs on a context of its own, outside the request's operation log.
func (s *Sessions) maybeSweep() {
	now := s.now()
	s.sweepMu.Lock()
	if s.nextSweep.IsZero() {
		s.nextSweep = now.Add(sweepEvery)
	}
	due := !now.Before(s.nextSweep)
	if due {
		s.nextSweep = now.Add(sweepEvery)
	}
	s.sweepMu.Unlock()
	if due {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = s.Sweep(ctx) // a sweep that fails is tried again at the next
	}
}

// Sweep removes the log-in attempts to forget and the day rows of EndedSessions whose day has
// passed, and returns how many columns and rows it removed. It walks both column families with
// get_range_slices, sweepPage rows at a time.
func (s *Sessions) Sweep(ctx context.Context) (int, error) {
	now := s.now()
	removed := 0
	ts := s.stamp.Next()
	today := expiryDay(now)
	for after := ""; ; {
		rows, next, err := scanRows(ctx, s.node, KeyspaceSessions, cfEndedSessions, after, sweepPage, all(1))
		if err != nil {
			return removed, err
		}
		del := map[string]map[string][]engine.Mutation{}
		for _, r := range rows {
			// A row removed before still comes back without columns (0.6's range ghost).
			if r.Key < today && len(r.Columns) > 0 {
				del[r.Key] = map[string][]engine.Mutation{cfEndedSessions: {{Deletion: &engine.Deletion{Timestamp: ts}}}}
			}
		}
		if len(del) > 0 {
			if err := s.node.BatchMutate(ctx, KeyspaceSessions, del, engine.QUORUM); err != nil {
				return removed, wrap("sweep ended sessions", err)
			}
		}
		removed += len(del)
		if after = next; next == "" {
			break
		}
	}
	for after := ""; ; {
		rows, next, err := scanRows(ctx, s.node, KeyspaceSessions, cfLoginAttempts, after, sweepPage, all(1000))
		if err != nil {
			return removed, err
		}
		del := map[string]map[string][]engine.Mutation{}
		for _, r := range rows {
			var names [][]byte
			for _, c := range r.Columns {
				if until, err := strconv.ParseInt(string(c.Column.Value), 10, 64); err != nil || until <= now.UnixMicro() {
					names = append(names, c.Column.Name)
				}
			}
			// By name, never a row tombstone: an attempt written while the sweep runs stays.
			if len(names) > 0 {
				del[r.Key] = map[string][]engine.Mutation{cfLoginAttempts: {{Deletion: &engine.Deletion{Timestamp: ts,
					Predicate: &engine.SlicePredicate{ColumnNames: names}}}}}
				removed += len(names)
			}
		}
		if len(del) > 0 {
			if err := s.node.BatchMutate(ctx, KeyspaceSessions, del, engine.QUORUM); err != nil {
				return removed, wrap("sweep login attempts", err)
			}
		}
		if after = next; next == "" {
			break
		}
	}
	return removed, nil
}
