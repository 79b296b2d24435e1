package teach

import (
	"context"
	"errors"
	"time"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2/qb"
)

// The action ledger (teaching.ActionLedger): the table action_records of migration 007, so that
// the page after an action's redirect shows what it cost on whichever server answers it.
var (
	stActionKeep = mk(qb.Insert("action_records").Columns("key", "record").TTLNamed("ttl").ToCql())
	stActionGet  = mk(qb.Select("action_records").Columns("record").Where(qb.Eq("key")).ToCql())
)

// KeepAction implements teaching.ActionLedger.
func (s *Store) KeepAction(ctx context.Context, key string, record []byte, ttl time.Duration) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	return wrap("keep action", query(ctx, sess, stActionKeep, qb.M{"key": key, "record": record, "ttl": ttlSeconds(ttl)}).ExecRelease())
}

// ActionRecord implements teaching.ActionLedger.
func (s *Store) ActionRecord(ctx context.Context, key string) ([]byte, bool, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, false, err
	}
	var record []byte
	err = query(ctx, sess, stActionGet, qb.M{"key": key}).GetRelease(&record)
	switch {
	case err == nil:
		return record, true, nil
	case errors.Is(err, gocql.ErrNotFound):
		return nil, false, nil
	}
	return nil, false, wrap("action record", err)
}
