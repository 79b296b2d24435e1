package teach

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"twissandra/adapters/cql3"
	"twissandra/ports/teaching"
)

// A session may try labTrials keys in any minute; another session is not held back, and a
// minute later the first may try again.
func TestTrialLimiter(t *testing.T) {
	t.Parallel()
	var l trialLimiter
	now := time.Unix(1_700_000_000, 0)
	for i := range labTrials {
		if !l.allow("a", now.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("trial %d refused", i+1)
		}
	}
	if l.allow("a", now.Add(30*time.Second)) {
		t.Fatal("a trial past the limit was allowed")
	}
	if !l.allow("b", now.Add(30*time.Second)) {
		t.Fatal("another session was held back")
	}
	if !l.allow("a", now.Add(time.Minute+time.Second)) {
		t.Fatal("a minute later the session is still held back")
	}
}

// The lab keeps at most its bound of tables: a new key past it drops the least recently used
// table, and says so among the trial's statements; a session past its limit is refused.
func TestQueryLabBounds(t *testing.T) {
	s := freshStore(t, "twissandra_test_qlabb_")
	s.lab.maxTable = 2
	c := testCtx(t, 2*time.Minute)
	keys := []teaching.KeyChoice{
		{Pattern: "user", Partition: []string{"username"}},
		{Pattern: "user", Partition: []string{"id"}},
		{Pattern: "user", Partition: []string{"created_at"}},
	}
	var trials []teaching.KeyTrial
	for _, k := range keys {
		tr, err := s.TryKey(c, "bounds", k)
		if err != nil {
			t.Fatal(err)
		}
		trials = append(trials, tr)
	}
	var names []string
	sess, _ := s.sess()
	if err := sess.ContextQuery(c, "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", nil).Bind(cql3.LabKeyspace(s.Keyspace())).SelectRelease(&names); err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	want := []string{trials[1].Table, trials[2].Table}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("the lab's tables %v, want %v", names, want)
	}
	if !slices.ContainsFunc(trials[2].Statements, func(st teaching.LabStatement) bool {
		return strings.HasPrefix(st.CQL, "DROP TABLE IF EXISTS "+cql3.LabKeyspace(s.Keyspace())+"."+trials[0].Table)
	}) {
		t.Errorf("the third trial's statements do not drop the first table: %+v", trials[2].Statements)
	}
	for range labTrials - len(keys) {
		if _, err := s.TryKey(c, "bounds", keys[2]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.TryKey(c, "bounds", keys[2]); !errors.Is(err, teaching.ErrTooManyTrials) {
		t.Fatalf("trial %d of a minute: %v, want ErrTooManyTrials", labTrials+1, err)
	}
}
