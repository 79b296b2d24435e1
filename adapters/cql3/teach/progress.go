package teach

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2/qb"

	"twissandra/ports/teaching"
)

// The learners' progress (teaching.ProgressStore): the table course_progress of migration 008, a
// partition per learner, a row per lesson visited and exercise passed with the time it was
// first done. A record reads its row first and, only if it is absent, writes it with INSERT ...
// IF NOT EXISTS: recording again costs one read of a row and writes nothing, and of two
// servers recording one item at once the first write stays. The partition comes in (kind, item)
// order; Progress orders it by the time first done.
var (
	stProgressHas    = mk(qb.Select("course_progress").Columns("first_done_us").Where(qb.Eq("username"), qb.Eq("kind"), qb.Eq("item")).ToCql())
	stProgressRecord = mk(qb.Insert("course_progress").Columns("username", "kind", "item", "first_done_us").Unique().ToCql())
	stProgressRead   = mk(qb.Select("course_progress").Columns("kind", "item", "first_done_us").Where(qb.Eq("username")).Limit(progressMax).ToCql())
)

const (
	progressVisited = "visited"
	progressPassed  = "passed"
	// progressMax bounds a learner's read: far more rows than the course has lessons and
	// exercises.
	progressMax = 4096
)

// RecordVisit implements teaching.ProgressStore.
func (s *Store) RecordVisit(ctx context.Context, user, lesson string) error {
	return s.recordProgress(ctx, user, progressVisited, lesson)
}

// RecordPass implements teaching.ProgressStore.
func (s *Store) RecordPass(ctx context.Context, user, exercise string) error {
	return s.recordProgress(ctx, user, progressPassed, exercise)
}

func (s *Store) recordProgress(ctx context.Context, user, kind, item string) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	key := qb.M{"username": user, "kind": kind, "item": item}
	var done int64
	switch err := query(ctx, sess, stProgressHas, key).GetRelease(&done); {
	case err == nil:
		return nil
	case !errors.Is(err, gocql.ErrNotFound):
		return wrap("progress", err)
	}
	key["first_done_us"] = s.stamp.Next()
	_, err = s.store.CAS(query(ctx, sess, stProgressRecord, key))
	return wrap("record progress", err)
}

// Progress implements teaching.ProgressStore: one read of the learner's partition.
func (s *Store) Progress(ctx context.Context, user string) (teaching.Progress, error) {
	sess, err := s.sess()
	if err != nil {
		return teaching.Progress{}, err
	}
	type row struct {
		Kind, Item  string
		FirstDoneUs int64
	}
	var rows []row
	if err := query(ctx, sess, stProgressRead, qb.M{"username": user}).SelectRelease(&rows); err != nil {
		return teaching.Progress{}, wrap("progress", err)
	}
	slices.SortStableFunc(rows, func(a, b row) int { return cmp.Compare(a.FirstDoneUs, b.FirstDoneUs) })
	var out teaching.Progress
	for _, r := range rows {
		switch r.Kind {
		case progressVisited:
			out.Visited = append(out.Visited, r.Item)
		case progressPassed:
			out.Passed = append(out.Passed, r.Item)
		}
	}
	return out, nil
}

var stProgressForget = mk(qb.Delete("course_progress").Where(qb.Eq("username")).ToCql())

// ForgetProgress implements teaching.ProgressStore: a delete of the learner's partition.
func (s *Store) ForgetProgress(ctx context.Context, user string) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	return wrap("forget progress", query(ctx, sess, stProgressForget, qb.M{"username": user}).ExecRelease())
}
