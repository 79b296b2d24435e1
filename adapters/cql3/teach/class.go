package teach

import (
	"context"
	"errors"
	"time"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2/qb"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// The classes and their learners' activity (teaching.ClassBook): the tables class_members (a
// partition per class, a row per account) and class_activity (a row per signed-in learner) of
// migration 009. Enrolling reads the class's partition first (at most ClassMax+1 rows) and
// writes the new members in one unlogged batch of one partition; an action is one UPDATE of
// the learner's row, and a console statement reads the row's count before it, so two statements
// of one learner at the same instant on two servers count once.
var (
	stClassMembers = mk(qb.Select("class_members").Columns("username").Where(qb.Eq("class")).Limit(teaching.ClassMax + 1).ToCql())
	stClassEnrol   = mk(qb.Insert("class_members").Columns("class", "username").ToCql())
	stActivityRead = mk(qb.Select("class_activity").Columns("last_kind", "last_at_us", "statements").Where(qb.Eq("learner")).ToCql())
	stActivitySet  = mk(qb.Update("class_activity").Set("last_kind", "last_at_us").Where(qb.Eq("learner")).ToCql())
	stActivityStmt = mk(qb.Update("class_activity").Set("last_kind", "last_at_us", "statements").Where(qb.Eq("learner")).ToCql())
	stActivityDrop = mk(qb.Delete("class_activity").Where(qb.Eq("learner")).ToCql())
)

// Enrol implements teaching.ClassBook.
func (s *Store) Enrol(ctx context.Context, class string, users []string) error {
	have, err := s.Members(ctx, class)
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(have)+len(users))
	for _, u := range have {
		seen[u] = true
	}
	var add []string
	for _, u := range users {
		if !seen[u] {
			seen[u] = true
			add = append(add, u)
		}
	}
	if len(seen) > teaching.ClassMax {
		return domain.Invalid("class", "holds at most %d accounts", teaching.ClassMax)
	}
	if len(add) == 0 {
		return nil
	}
	sess, err := s.sess()
	if err != nil {
		return err
	}
	b := sess.NewBatch(gocql.UnloggedBatch).WithContext(ctx)
	for _, u := range add {
		b.Query(stClassEnrol.cql, class, u)
	}
	return wrap("enrol", sess.ExecuteBatch(b))
}

// Members implements teaching.ClassBook: one read of the class's partition.
func (s *Store) Members(ctx context.Context, class string) ([]string, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	var out []string
	if err := query(ctx, sess, stClassMembers, qb.M{"class": class}).SelectRelease(&out); err != nil {
		return nil, wrap("class members", err)
	}
	return out, nil
}

// Touch implements teaching.ClassBook.
func (s *Store) Touch(ctx context.Context, learner, kind string) error {
	if err := ctx.Err(); err != nil {
		return wrap("touch", err)
	}
	if !teaching.Recorded(learner) {
		return nil
	}
	sess, err := s.sess()
	if err != nil {
		return err
	}
	m := qb.M{"learner": learner, "last_kind": teaching.ActionKind(kind), "last_at_us": time.Now().UnixMicro()}
	st := stActivitySet
	if teaching.IsConsole(kind) {
		a, err := s.Activity(ctx, learner)
		if err != nil {
			return err
		}
		m["statements"], st = a.Statements+1, stActivityStmt
	}
	return wrap("touch", query(ctx, sess, st, m).ExecRelease())
}

// Activity implements teaching.ClassBook: one read of the learner's row.
func (s *Store) Activity(ctx context.Context, learner string) (teaching.Activity, error) {
	sess, err := s.sess()
	if err != nil {
		return teaching.Activity{}, err
	}
	var row struct {
		LastKind   *string
		LastAtUs   *int64
		Statements *int64
	}
	switch err := query(ctx, sess, stActivityRead, qb.M{"learner": learner}).GetRelease(&row); {
	case errors.Is(err, gocql.ErrNotFound):
		return teaching.Activity{}, nil
	case err != nil:
		return teaching.Activity{}, wrap("activity", err)
	}
	var a teaching.Activity
	if row.LastKind != nil {
		a.Last = *row.LastKind
	}
	if row.LastAtUs != nil {
		a.At = time.UnixMicro(*row.LastAtUs)
	}
	if row.Statements != nil {
		a.Statements = *row.Statements
	}
	return a, nil
}

// ForgetActivity implements teaching.ClassBook: a delete of the learner's row.
func (s *Store) ForgetActivity(ctx context.Context, learner string) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	return wrap("forget activity", query(ctx, sess, stActivityDrop, qb.M{"learner": learner}).ExecRelease())
}
