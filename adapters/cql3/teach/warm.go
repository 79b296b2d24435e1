package teach

import (
	"context"
	"errors"
)

// Warm makes the lessons' tables and the console's keyspace, each once per process, as the
// server starts, so that the schema changes they need (each applied by every node, one after
// another) are not made inside a learner's request: a class arriving at once on several
// servers found the node timing out on its first runs' CREATE TABLE. A lab whose warm-up
// failed (a node refusing a view, a timeout) makes its tables at its first run, as before, and
// says so on its page. It returns the warm-ups' errors joined.
func (s *Store) Warm(ctx context.Context, console *Console) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	_, bookErr := s.ensureAddressBook(ctx, sess)
	errs := []error{bookErr, s.ensureIndexTables(ctx, sess), s.ensureCounters(ctx, sess), s.ensureTTL(ctx, sess)}
	if console != nil {
		errs = append(errs, console.ensure(ctx, sess))
	}
	return errors.Join(errs...)
}
