package teach

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2/qb"

	"twissandra/ports/teaching"
)

// The consistency levels tried on the cluster (teaching.ClusterLevels): one row of the race's
// sandbox, race_names, written and read at each level. A level the coordinator cannot serve
// with the replicas it holds alive is answered with the Unavailable error of the native
// protocol (code 0x1000), which the driver returns as *gocql.RequestErrUnavailable.

// levelProbeName is the sandbox row of the probe: not a username (it has a space), so no race
// ever takes it.
const levelProbeName = "consistency probe"

var levelConsistencies = map[string]gocql.Consistency{"ONE": gocql.One, "QUORUM": gocql.Quorum, "ALL": gocql.All}

// TryLevels implements teaching.ClusterLevels.
func (s *Store) TryLevels(ctx context.Context) (teaching.LevelTrial, error) {
	sess, err := s.sess()
	if err != nil {
		return teaching.LevelTrial{}, err
	}
	out := teaching.LevelTrial{Keyspace: s.Keyspace()}
	if md, err := sess.KeyspaceMetadata(s.Keyspace()); err == nil {
		out.Replication = replicationOf(md)
	}
	for _, level := range teaching.Levels {
		cl := levelConsistencies[level]
		try := teaching.LevelTry{Level: level}
		try.Write = levelOutcome("CONSISTENCY "+level+"; "+stRaceWrite.cql, func() error {
			q := s.store.AtLevel(query(ctx, sess, stRaceWrite, qb.M{"name": levelProbeName, "owner": "written at " + level}), cl)
			q.RetryPolicy(nil) // the coordinator's answer, not a retry's
			return q.ExecRelease()
		})
		try.Read = levelOutcome("CONSISTENCY "+level+"; "+stRaceLookup.cql, func() error {
			q := s.store.AtLevel(query(ctx, sess, stRaceLookup, qb.M{"name": levelProbeName}), cl)
			q.RetryPolicy(nil)
			var owner string
			err := q.GetRelease(&owner)
			if errors.Is(err, gocql.ErrNotFound) {
				return nil
			}
			return err
		})
		out.Levels = append(out.Levels, try)
		if err := ctx.Err(); err != nil {
			return out, err
		}
	}
	return out, nil
}

// levelOutcome runs one statement and says how it ended.
func levelOutcome(statement string, run func() error) teaching.LevelOutcome {
	o := teaching.LevelOutcome{Statement: statement}
	err := run()
	var un *gocql.RequestErrUnavailable
	switch {
	case err == nil:
		o.OK = true
	case errors.As(err, &un):
		o.Unavailable, o.Required, o.Alive = true, un.Required, un.Alive
		o.Error = un.Error()
	default:
		o.Error = err.Error()
	}
	return o
}

// replicationOf is a keyspace's replication in words: its strategy and options.
func replicationOf(md *gocql.KeyspaceMetadata) string {
	strategy := md.StrategyClass
	if i := strings.LastIndexByte(strategy, '.'); i >= 0 {
		strategy = strategy[i+1:]
	}
	var opts []string
	for _, k := range slices.Sorted(maps.Keys(md.StrategyOptions)) {
		if k != "class" {
			opts = append(opts, fmt.Sprintf("%s %v", k, md.StrategyOptions[k]))
		}
	}
	return strings.TrimSpace(strategy + " " + strings.Join(opts, ", "))
}

var _ teaching.ClusterLevels = (*Store)(nil)
