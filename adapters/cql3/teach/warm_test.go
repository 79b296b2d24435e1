package teach

import (
	"testing"
	"time"

	"twissandra/ports/teaching"
)

// Warm makes the lessons' tables and the console's before any learner runs: on a keyspace of
// its own, the node then holds them, and a learner's first address book run makes nothing.
func TestWarmMakesTheLessonsTablesBeforeAnyRun(t *testing.T) {
	s := freshStore(t, "twissandra_test_warm_")
	ctx := testCtx(t, 2*time.Minute)
	console := NewConsole(s, ConsoleConfig{})
	if err := s.Warm(ctx, console); err != nil {
		t.Fatal(err)
	}
	sess, err := s.sess()
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	if err := sess.ContextQuery(ctx, "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", nil).Bind(s.Keyspace()).SelectRelease(&tables); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"addressbook_rows", "addressbook_udt", counterTable, "idx_user", "idx_user_sai"} {
		found := false
		for _, got := range tables {
			found = found || got == want
		}
		if !found {
			t.Errorf("after Warm, %s holds no %s: %v", s.Keyspace(), want, tables)
		}
	}
	var consoleTables []string
	if err := sess.ContextQuery(ctx, "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", nil).Bind(ConsoleKeyspace(s.Keyspace())).SelectRelease(&consoleTables); err != nil {
		t.Fatal(err)
	}
	if len(consoleTables) == 0 {
		t.Errorf("after Warm, the console's keyspace holds no table")
	}
	run, err := s.RunAddress(ctx, "learner-warm", "warm", teaching.Rows, teaching.OneField)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Made) != 0 {
		t.Errorf("the first run after Warm made %d statements of schema: %v", len(run.Made), run.Made)
	}
	t.Cleanup(func() {
		_ = sess.ContextQuery(ctx, "DROP KEYSPACE IF EXISTS "+ConsoleKeyspace(s.Keyspace()), nil).ExecRelease()
	})
}
