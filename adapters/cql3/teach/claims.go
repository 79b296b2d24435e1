package teach

import (
	"context"
	"errors"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2/qb"
)

// The uniqueness race's sandbox (teaching.NameClaims): the table race_names of migration 003. The
// blind write is a plain INSERT, the lightweight transaction INSERT ... IF NOT EXISTS, run
// through Paxos at the configured serial consistency.
var (
	stRaceLookup = mk(qb.Select("race_names").Columns("owner").Where(qb.Eq("name")).ToCql())
	stRaceWrite  = mk(qb.Insert("race_names").Columns("name", "owner").ToCql())
	stRaceLWT    = mk(qb.Insert("race_names").Columns("name", "owner").Unique().ToCql())
	stRaceDelete = mk(qb.Delete("race_names").Where(qb.Eq("name")).ToCql())
)

// Lookup implements teaching.NameClaims.
func (s *Store) Lookup(ctx context.Context, name string) (string, bool, error) {
	sess, err := s.sess()
	if err != nil {
		return "", false, err
	}
	var owner string
	err = query(ctx, sess, stRaceLookup, qb.M{"name": name}).Get(&owner)
	if errors.Is(err, gocql.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, wrap("race lookup", err)
	}
	return owner, true, nil
}

// Write implements teaching.NameClaims.
func (s *Store) Write(ctx context.Context, name, owner string) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	return wrap("race write", query(ctx, sess, stRaceWrite, qb.M{"name": name, "owner": owner}).ExecRelease())
}

// WriteIfAbsent implements teaching.NameClaims.
func (s *Store) WriteIfAbsent(ctx context.Context, name, owner string) (bool, error) {
	sess, err := s.sess()
	if err != nil {
		return false, err
	}
	applied, err := s.store.CAS(query(ctx, sess, stRaceLWT, qb.M{"name": name, "owner": owner}))
	return applied, wrap("race insert if not exists", err)
}

// Release implements teaching.NameClaims.
func (s *Store) Release(ctx context.Context, name string) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	return wrap("race release", query(ctx, sess, stRaceDelete, qb.M{"name": name}).ExecRelease())
}

// Statements implements teaching.NameClaims.
func (s *Store) Statements() (read, write, lwt string) {
	return stRaceLookup.cql, stRaceWrite.cql, stRaceLWT.cql + " (a Paxos round: four round trips to a quorum of replicas)"
}
