package teach

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"twissandra/adapters/cql3"
	"twissandra/internal/testkit/cqltest"
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
	// Two slots, any table evictable at once, and no bound on the tables made a minute: the
	// bounds of the cluster are TestQueryLabBoundsOverServers'.
	s.lab.maxTable, s.lab.busyFor, s.lab.makes = 2, time.Nanosecond, 100
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
	names = slices.DeleteFunc(names, func(n string) bool { return n == "lab_slots" || n == "lab_changes" })
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

// Three servers share the lab of one keyspace, and learners on each try new keys at once, as
// fast as they can: the lab holds no more tables than its slots, makes no more tables a minute
// than its budget over the three together, answers every trial either with its result or with a
// refusal that says when to try again (never an error because another server dropped or is
// making a table), and a key already tried runs on every server without a schema change.
func TestQueryLabBoundsOverServers(t *testing.T) {
	first := freshStore(t, "twissandra_test_qlabs_")
	servers := []*Store{first, New(cqltest.Open(t, first.Keyspace())), New(cqltest.Open(t, first.Keyspace()))}
	const tables, makes = 4, 3
	for _, s := range servers {
		s.lab.maxTable, s.lab.makes = tables, makes
		s.lab.trials.max = 1000
	}
	c := testCtx(t, 3*time.Minute)
	// Every key the user pattern offers: its columns in the partition key, one or two, in order.
	var keys []teaching.KeyChoice
	cols := []string{"username", "id", "created_at"}
	for _, a := range cols {
		keys = append(keys, teaching.KeyChoice{Pattern: "user", Partition: []string{a}})
		for _, b := range cols {
			if b != a {
				keys = append(keys, teaching.KeyChoice{Pattern: "user", Partition: []string{a, b}})
			}
		}
	}
	var mu sync.Mutex
	var ran []teaching.KeyTrial
	busy := 0
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, s := range servers {
		for j := range keys {
			wg.Go(func() {
				<-start
				k := keys[(i*3+j)%len(keys)]
				tr, err := s.TryKey(c, "learner", k)
				mu.Lock()
				defer mu.Unlock()
				var be *LabBusyError
				switch {
				case err == nil:
					ran = append(ran, tr)
				case errors.As(err, &be) && errors.Is(err, teaching.ErrTooManyTrials):
					busy++
				default:
					t.Errorf("server %d, key %s: %v", i+1, k, err)
				}
			})
		}
	}
	close(start)
	wg.Wait()
	made := 0
	for _, tr := range ran {
		for _, st := range tr.Statements {
			if strings.HasPrefix(st.CQL, "CREATE TABLE IF NOT EXISTS "+tr.Keyspace+".q_") {
				made++
			}
		}
	}
	if made > makes {
		t.Errorf("the three servers made %d tables within a minute, want at most %d", made, makes)
	}
	var names []string
	sess, _ := first.sess()
	if err := sess.ContextQuery(c, "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", nil).Bind(cql3.LabKeyspace(first.Keyspace())).SelectRelease(&names); err != nil {
		t.Fatal(err)
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n == "lab_slots" || n == "lab_changes" })
	if len(names) > tables {
		t.Errorf("the lab holds %d tables %v, want at most %d", len(names), names, tables)
	}
	if len(ran) == 0 {
		t.Fatal("no trial ran")
	}
	// A key already tried runs on every server, with no schema change.
	for i, s := range servers {
		tr, err := s.TryKey(c, "again", ran[0].Choice)
		if err != nil {
			t.Fatalf("server %d, a key already tried: %v", i+1, err)
		}
		if tr.Created {
			t.Errorf("server %d made the table of a key already tried", i+1)
		}
	}
	t.Logf("%d trials at once over 3 servers: %d ran, %d refused as busy, %d tables made, %d held", len(servers)*len(keys), len(ran), busy, made, len(names))
}

// The sweep drops a table nobody tried for labExpire, whichever server runs it, and frees its
// slot; a table tried since stays.
func TestQueryLabSweep(t *testing.T) {
	s := freshStore(t, "twissandra_test_qlabw_")
	c := testCtx(t, 2*time.Minute)
	old, err := s.TryKey(c, "sweep", teaching.KeyChoice{Pattern: "user", Partition: []string{"username"}})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := s.TryKey(c, "sweep", teaching.KeyChoice{Pattern: "user", Partition: []string{"id"}})
	if err != nil {
		t.Fatal(err)
	}
	sess, _ := s.sess()
	ks := cql3.LabKeyspace(s.Keyspace())
	if err := sess.ContextQuery(c, "UPDATE "+ks+".lab_slots SET used = ? WHERE slot = 0", nil).Bind(time.Now().Add(-2 * labExpire)).ExecRelease(); err != nil {
		t.Fatal(err)
	}
	other := New(cqltest.Open(t, s.Keyspace()))
	dropped, err := other.SweepLab(c)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dropped, []string{old.Table}) {
		t.Fatalf("swept %v, want [%s] (and not %s, tried just now)", dropped, old.Table, fresh.Table)
	}
	again, err := s.TryKey(c, "sweep", old.Choice)
	if err != nil || !again.Created {
		t.Fatalf("the swept key tried again: created %v, %v", again.Created, err)
	}
}

// A key refused because every slot's table was tried in the last minute makes no table, and
// leaves the cluster's budget of tables made as it found it.
func TestQueryLabRefusalSpendsNoBudget(t *testing.T) {
	s := freshStore(t, "twissandra_test_qlabn_")
	s.lab.maxTable, s.lab.makes = 1, 3
	c := testCtx(t, 2*time.Minute)
	if _, err := s.TryKey(c, "n", teaching.KeyChoice{Pattern: "user", Partition: []string{"username"}}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		_, err := s.TryKey(c, "n", teaching.KeyChoice{Pattern: "user", Partition: []string{"id"}})
		var busy *LabBusyError
		if !errors.As(err, &busy) {
			t.Fatalf("a new key with the one slot busy: %v, want a LabBusyError", err)
		}
	}
	sess, _ := s.sess()
	var made []string
	if err := sess.ContextQuery(c, "SELECT what FROM "+cql3.LabKeyspace(s.Keyspace())+".lab_changes WHERE bucket = 'made'", nil).SelectRelease(&made); err != nil {
		t.Fatal(err)
	}
	if len(made) != 1 {
		t.Fatalf("the budget counts %d tables made %v, want the 1 made", len(made), made)
	}
}

// nodeError is an error as the node answers it, for unconfigured's reading.
type nodeError struct {
	code int
	msg  string
}

func (e nodeError) Code() int       { return e.code }
func (e nodeError) Message() string { return e.msg }
func (e nodeError) Error() string   { return e.msg }

// A table another server is still making reads as "being made", whether the coordinator does not
// know it yet (InvalidRequest) or knows its name before the node has made it (a server error,
// "Unknown CF"); any other failure does not.
func TestUnconfigured(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nodeError{gocql.ErrCodeInvalid, "unconfigured table q_user_0a1b2c3d4e"}, true},
		{fmt.Errorf("query lab rows: %w", nodeError{gocql.ErrCodeServer, "java.lang.IllegalArgumentException: Unknown CF 7f7a2b00-eb06-11f1-bc7e-2537e445f711"}), true},
		{nodeError{gocql.ErrCodeInvalid, "Table twissandra_lab.q_user_0a does not exist"}, true},
		{nodeError{gocql.ErrCodeServer, "java.lang.RuntimeException: the file does not exist"}, false},
		{nodeError{gocql.ErrCodeInvalid, "Cannot execute this query as it might involve data filtering"}, false},
		{errors.New("Unknown CF, said no node"), false},
		{nil, false},
	} {
		if got := unconfigured(c.err); got != c.want {
			t.Errorf("unconfigured(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// A lesson's runs on the node are counted for the whole cluster, bucket by bucket: a second
// server past a bucket's budget is refused, and a run of another bucket is not.
func TestSpendRunCountsEachBucketOverServers(t *testing.T) {
	s := freshStore(t, "twissandra_test_runs_")
	ctx := testCtx(t, time.Minute)
	sess, err := s.sess()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.spendRun(ctx, sess, "paths", "the paths lesson", 1); err != nil {
		t.Fatalf("the first run: %v", err)
	}
	other := New(s.store) // another server on the same cluster
	osess, err := other.sess()
	if err != nil {
		t.Fatal(err)
	}
	err = other.spendRun(ctx, osess, "paths", "the paths lesson", 1)
	var busy *LabBusyError
	if !errors.As(err, &busy) || !errors.Is(err, teaching.ErrTooManyTrials) || !strings.Contains(err.Error(), "the paths lesson has reached its bound of 1 runs a minute on this cluster: try again in") {
		t.Fatalf("a run past the bucket's budget on another server: %v", err)
	}
	if err := other.spendRun(ctx, osess, "addressbook", "the address book lab", 1); err != nil {
		t.Fatalf("a run of another bucket: %v", err)
	}
}
