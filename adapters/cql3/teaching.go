package cql3

import (
	"context"
	"time"

	"twissandra/domain"

	"github.com/google/uuid"
	"github.com/scylladb/gocqlx/v2"
	"github.com/scylladb/gocqlx/v2/qb"
)

// What the teaching package beside this one (teach) reads the store through, besides
// SchemaTables, Hosts and CAS: the layout's keys, and the store's session, on which the teaching
// views run statements of their own, on the tables the migrations made for them (race_names,
// action_records, course_progress, class_members, class_activity).

// LineTime is an entry's clustering value in every line table (see lineTime).
func LineTime(e domain.LineEntry) uuid.UUID { return lineTime(e) }

// DayOf is the public line's partition of a line time: its UTC day.
func DayOf(micros int64) time.Time { return dayOf(micros) }

// MinTimeUUID and MaxTimeUUID are the smallest and the largest timeuuid of the microsecond
// micros, as CQL's minTimeuuid() and maxTimeuuid() are.
func MinTimeUUID(micros int64) uuid.UUID { return minTimeUUID(micros) }
func MaxTimeUUID(micros int64) uuid.UUID { return maxTimeUUID(micros) }

// Session is the store's driver session: domain.ErrUnavailable before Start and after Close.
func (s *Store) Session() (gocqlx.Session, error) { return s.sess() }

// Replication is the keyspace's replication as configured.
func (s *Store) Replication() Replication { return s.cfg.replication }

// Wrap translates a driver's error into the domain's sentinels, naming op and keeping the
// original, as every statement of the store does.
func Wrap(op string, err error) error { return wrap(op, err) }

// PublicDays lists up to limit day buckets of the public line (public_days), in the table's order.
func (s *Store) PublicDays(ctx context.Context, limit int) ([]time.Time, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	var days []time.Time
	if err := query(ctx, sess, stPublicDays, qb.M{"line": publicLineName, "limit": limit}).SelectRelease(&days); err != nil {
		return nil, wrap("public days", err)
	}
	return days, nil
}

// LabKeyspace is the scratch keyspace of the query lab beside keyspace: its name and "_lab",
// cut to CQL's 48 characters.
func LabKeyspace(keyspace string) string {
	const suffix = "_lab"
	return keyspace[:min(len(keyspace), 48-len(suffix))] + suffix
}
