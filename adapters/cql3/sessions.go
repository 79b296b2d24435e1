package cql3

import (
	"context"
	"errors"
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"
	"github.com/scylladb/gocqlx/v2/qb"
)

// The sessions (ports.SessionStore): the tables login_attempts and ended_sessions of migration
// 006, every row written with a TTL, so that Cassandra forgets them by itself.
var (
	stAttemptAdd   = mk(qb.Insert("login_attempts").Columns("key", "id").TTLNamed("ttl").ToCql())
	stAttempts     = mk(qb.Select("login_attempts").Columns("id").Where(qb.Eq("key"), qb.GtOrEq("id")).LimitNamed("limit").ToCql())
	stAttemptDrop  = mk(qb.Delete("login_attempts").Where(qb.Eq("key"), qb.Eq("id")).ToCql())
	stAttemptClear = mk(qb.Delete("login_attempts").Where(qb.Eq("key")).ToCql())
	stSessionEnd   = mk(qb.Insert("ended_sessions").Columns("id", "expires").TTLNamed("ttl").ToCql())
	stSessionEnded = mk(qb.Select("ended_sessions").Columns("expires").Where(qb.Eq("id")).ToCql())
)

// ttlSeconds is d as a TTL: whole seconds, rounded up, at least one.
func ttlSeconds(d time.Duration) int { return max(1, int((d+time.Second-1)/time.Second)) }

// AddLoginAttempt implements ports.SessionStore.
func (s *Store) AddLoginAttempt(ctx context.Context, key string, id uuid.UUID, keep time.Duration) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	return wrap("add login attempt", query(ctx, sess, stAttemptAdd, qb.M{"key": key, "id": gu(id), "ttl": ttlSeconds(keep)}).ExecRelease())
}

// LoginAttempts implements ports.SessionStore.
func (s *Store) LoginAttempts(ctx context.Context, key string, since time.Time, limit int) ([]time.Time, error) {
	if limit <= 0 {
		return nil, nil
	}
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	var ids []gocql.UUID
	err = query(ctx, sess, stAttempts, qb.M{"key": key, "id": gu(minTimeUUID(since.UnixMicro())), "limit": limit}).SelectRelease(&ids)
	if err != nil {
		return nil, wrap("login attempts", err)
	}
	out := make([]time.Time, len(ids))
	for i, id := range ids {
		out[i] = time.UnixMicro(microsOf(uuid.UUID(id)))
	}
	return out, nil
}

// DropLoginAttempt implements ports.SessionStore.
func (s *Store) DropLoginAttempt(ctx context.Context, key string, id uuid.UUID) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	return wrap("drop login attempt", query(ctx, sess, stAttemptDrop, qb.M{"key": key, "id": gu(id)}).ExecRelease())
}

// ClearLoginAttempts implements ports.SessionStore.
func (s *Store) ClearLoginAttempts(ctx context.Context, key string) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	return wrap("clear login attempts", query(ctx, sess, stAttemptClear, qb.M{"key": key}).ExecRelease())
}

// EndSession implements ports.SessionStore: the row lives as long as the session would have.
func (s *Store) EndSession(ctx context.Context, id string, expires time.Time) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	ttl := ttlSeconds(time.Until(expires))
	return wrap("end session", query(ctx, sess, stSessionEnd, qb.M{"id": id, "expires": expires, "ttl": ttl}).ExecRelease())
}

// SessionEnded implements ports.SessionStore.
func (s *Store) SessionEnded(ctx context.Context, id string, _ time.Time) (bool, error) {
	sess, err := s.sess()
	if err != nil {
		return false, err
	}
	var expires time.Time
	err = query(ctx, sess, stSessionEnded, qb.M{"id": id}).GetRelease(&expires)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, gocql.ErrNotFound):
		return false, nil
	}
	return false, wrap("session ended", err)
}
