package teach_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"go.uber.org/fx"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/adapters/widerow/teach"
	"twissandra/domain"
	"twissandra/ports/porttest"
	"twissandra/ports/teaching"
	"twissandra/ports/teachingtest"
)

func openNode(t testing.TB, dir string) *engine.Node {
	t.Helper()
	n, err := engine.Open(engine.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

func TestLocateContract(t *testing.T) {
	teachingtest.RunLocate(t, func(t *testing.T) teachingtest.InspectStores {
		n := openNode(t, "")
		s, b := widerow.NewStore(n), widerow.NewBlogStore(n)
		return teachingtest.InspectStores{
			Stores:  porttest.Stores{Users: s, Tweets: s, Lines: s},
			Blog:    porttest.BlogStores{Authors: b, Entries: b, Tags: b, Comments: b},
			Locator: teach.NewInspector(n),
		}
	})
}

// TestQueryLabContract: 0.6 has no primary key to try, and the lab says so.
func TestQueryLabContract(t *testing.T) {
	teachingtest.RunQueryLab(t, teach.NewInspector(openNode(t, t.TempDir())), false)
}

// TestRingContract: a simulated ring of 0.6, of the size the learner asks, under
// RackUnawareStrategy, with the engine's RandomPartitioner tokens.
func TestRingContract(t *testing.T) {
	in := teach.NewInspector(openNode(t, t.TempDir()))
	teachingtest.RunRing(t, in, teachingtest.RingSimulated, "Twissandra.User")
	// The token is the engine's own, and RF 0 is the keyspace's ReplicationFactor (1).
	kr, err := in.PlaceKey(context.Background(), "jericevans", teaching.RingSim{Nodes: 4})
	if err != nil {
		t.Fatal(err)
	}
	if kr.Token != engine.RandomPartitioner.Token("jericevans") || kr.ReplicationFactor != 1 || kr.Strategy != "RackUnawareStrategy" || len(kr.Replicas) != 1 {
		t.Errorf("placement: %+v", kr)
	}
}

func TestSizesContract(t *testing.T) {
	teachingtest.RunSizes(t, func(t *testing.T) teachingtest.SizeStores {
		n := openNode(t, t.TempDir())
		s, in := widerow.NewStore(n), teach.NewInspector(n)
		return teachingtest.SizeStores{Stores: porttest.Stores{Users: s, Tweets: s, Lines: s}, Sizer: in, Capped: in.ScanCapped}
	})
}

func TestClaimsContract(t *testing.T) {
	teachingtest.RunClaims(t, teach.NewNameClaims(openNode(t, "")), teachingtest.Instant)
}

// The Sessions keyspace holds who tried to log in and from which address, and what each learner
// did in the course: the inspector shows
// none of its rows, even to a visitor who names a key, while the application's rows it shows.
func TestSessionsRowsArePrivate(t *testing.T) {
	n := openNode(t, "")
	ctx := context.Background()
	sessions := widerow.NewSessions(n)
	if err := sessions.AddLoginAttempt(ctx, "addr:192.0.2.1", domain.NewTimeUUID(time.Now().UnixMicro()), time.Minute); err != nil {
		t.Fatal(err)
	}
	in := teach.NewInspector(n)
	if err := teach.NewProgress(n).RecordVisit(ctx, "addr:192.0.2.1", "writes"); err != nil {
		t.Fatal(err)
	}
	for _, cf := range []string{"LoginAttempts", "EndedSessions", "Progress"} {
		if _, err := in.ReadRow(ctx, widerow.KeyspaceSessions, cf, "addr:192.0.2.1", teaching.Slice{Count: 10}); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("ReadRow of Sessions.%s: %v, want ErrInvalid", cf, err)
		}
		if _, err := in.StoredRow(ctx, widerow.KeyspaceSessions, cf, "addr:192.0.2.1", 10); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("StoredRow of Sessions.%s: %v, want ErrInvalid", cf, err)
		}
		if keys, err := in.RowKeys(ctx, widerow.KeyspaceSessions, cf, 10); !errors.Is(err, domain.ErrInvalid) || len(keys) > 0 {
			t.Errorf("RowKeys of Sessions.%s: %v %v, want ErrInvalid and no key", cf, keys, err)
		}
	}
	if _, err := in.ReadRow(ctx, widerow.KeyspaceTwissandra, widerow.CFUser, "nobody", teaching.Slice{Count: 10}); err != nil {
		t.Fatalf("ReadRow of the application's User: %v", err)
	}
}

func TestProgressContract(t *testing.T) {
	teachingtest.RunProgress(t, teach.NewProgress(openNode(t, "")))
}

func TestClassBookContract(t *testing.T) {
	teachingtest.RunClassBook(t, teach.NewClassBook(openNode(t, "")))
}

// A learner's progress is on disk: a node closed and opened again on its directory (a restart)
// reads it back in the order first done, and goes on recording after it.
func TestProgressSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	n, err := engine.Open(engine.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := teach.NewProgress(n)
	for _, step := range []func() error{
		func() error { return p.RecordVisit(ctx, "rita", "writes") },
		func() error { return p.RecordPass(ctx, "rita", "writes-2") },
		func() error { return p.RecordVisit(ctx, "rita", "columns") },
		func() error { return p.RecordPass(ctx, "rita", "writes-1") },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	p = teach.NewProgress(openNode(t, dir))
	if err := p.RecordVisit(ctx, "rita", "writes"); err != nil {
		t.Fatal(err)
	}
	if err := p.RecordVisit(ctx, "rita", "blog"); err != nil {
		t.Fatal(err)
	}
	got, err := p.Progress(ctx, "rita")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Visited, []string{"writes", "columns", "blog"}) || !slices.Equal(got.Passed, []string{"writes-2", "writes-1"}) {
		t.Errorf("after a restart: %+v", got)
	}
}

// The Module provides the progress on the application's node.
func TestModuleProvidesProgress(t *testing.T) {
	n := openNode(t, "")
	var p teaching.ProgressStore
	app := fx.New(fx.NopLogger, fx.Supply(n), teach.Module, fx.Populate(&p))
	if err := app.Err(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := p.RecordPass(ctx, "rita", "writes-1"); err != nil {
		t.Fatal(err)
	}
	if got, err := teach.NewProgress(n).Progress(ctx, "rita"); err != nil || !slices.Equal(got.Passed, []string{"writes-1"}) {
		t.Errorf("the Module's progress is not kept on the node: %+v, %v", got, err)
	}
}
