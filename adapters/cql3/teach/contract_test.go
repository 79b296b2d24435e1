package teach

import (
	"log/slog"
	"slices"
	"testing"
	"time"

	"go.uber.org/fx"

	"twissandra/adapters/cql3"
	"twissandra/internal/testkit/cqltest"
	"twissandra/ports/porttest"
	"twissandra/ports/teaching"
	"twissandra/ports/teachingtest"
)

func TestLocateContract(t *testing.T) {
	s := sharedStore(t)
	teachingtest.RunLocate(t, func(t *testing.T) teachingtest.InspectStores {
		p := s.store
		return teachingtest.InspectStores{
			Stores:  porttest.Stores{Users: p, Tweets: p, Lines: p},
			Blog:    porttest.BlogStores{Authors: p, Entries: p, Tags: p, Comments: p},
			Locator: s,
		}
	})
}

// TestSizesContract measures a keyspace of its own: the widest partitions are the whole
// keyspace's, which the other contract tests share.
func TestSizesContract(t *testing.T) {
	teachingtest.RunSizes(t, func(t *testing.T) teachingtest.SizeStores {
		s := freshStore(t, "twissandra_test_sizes_")
		p := s.store
		return teachingtest.SizeStores{Stores: porttest.Stores{Users: p, Tweets: p, Lines: p}, Sizer: s, Capped: s.ScanCapped}
	})
}

func TestClaimsContract(t *testing.T) { teachingtest.RunClaims(t, sharedStore(t), teachingtest.Yields) }

// Two servers on one keyspace: what one keeps, the other reads.
func TestActionLedgerContract(t *testing.T) {
	s := sharedStore(t)
	hosts, port := cqltest.Node(t)
	other, err := cql3.Open(testCtx(t, time.Minute), cql3.Config{Hosts: hosts, Port: port, Keyspace: s.Keyspace(), Replication: "SimpleStrategy:1",
		Timeout: 20 * time.Second, StartTimeout: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	teachingtest.RunActionLedger(t, s, New(other))
}

// TestQueryLabContract tries keys on a keyspace of its own, whose scratch keyspace is dropped
// with it.
func TestQueryLabContract(t *testing.T) {
	s := freshStore(t, "twissandra_test_qlab_")
	// The contract tries more new keys a minute than the cluster's budget of tables made allows
	// (TestQueryLabBoundsOverServers holds the lab to that budget).
	s.lab.makes = 100
	teachingtest.RunQueryLab(t, s, true)
}

func TestProgressContract(t *testing.T) { teachingtest.RunProgress(t, sharedStore(t)) }

func TestClassBookContract(t *testing.T) { teachingtest.RunClassBook(t, sharedStore(t)) }

// Two servers on one keyspace: what one records, the other reads, and recording it there again
// changes nothing.
func TestProgressAcrossServers(t *testing.T) {
	s := sharedStore(t)
	hosts, port := cqltest.Node(t)
	other, err := cql3.Open(testCtx(t, time.Minute), cql3.Config{Hosts: hosts, Port: port, Keyspace: s.Keyspace(), Replication: "SimpleStrategy:1",
		Timeout: 20 * time.Second, StartTimeout: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx := testCtx(t, time.Minute)
	o := New(other)
	user := porttest.Name("roamer")
	for _, rec := range []func() error{
		func() error { return s.RecordVisit(ctx, user, "writes") },
		func() error { return o.RecordVisit(ctx, user, "columns") },
		func() error { return s.RecordPass(ctx, user, "columns-1") },
		func() error { return o.RecordVisit(ctx, user, "writes") },
	} {
		if err := rec(); err != nil {
			t.Fatal(err)
		}
	}
	for _, st := range []*Store{s, o} {
		p, err := st.Progress(ctx, user)
		if err != nil || !slices.Equal(p.Visited, []string{"writes", "columns"}) || !slices.Equal(p.Passed, []string{"columns-1"}) {
			t.Errorf("%+v, %v", p, err)
		}
	}
}

// The Module provides the progress on the application's store.
func TestModuleProvidesProgress(t *testing.T) {
	s := sharedStore(t)
	var p teaching.ProgressStore
	app := fx.New(fx.NopLogger, fx.Supply(s.store, slog.Default()), Module, fx.Populate(&p))
	if err := app.Err(); err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t, time.Minute)
	user := porttest.Name("provided")
	if err := p.RecordVisit(ctx, user, "cql3"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Progress(ctx, user); err != nil || !slices.Equal(got.Visited, []string{"cql3"}) {
		t.Errorf("the Module's progress is not kept in the keyspace: %+v, %v", got, err)
	}
}
