package widerow_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
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

func TestContractInMemory(t *testing.T) {
	porttest.Run(t, func(t *testing.T) porttest.Stores {
		s := widerow.NewStore(openNode(t, ""))
		return porttest.Stores{Users: s, Tweets: s, Lines: s}
	})
}

func TestContractOnDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("on-disk contract run is part of the full suite")
	}
	porttest.Run(t, func(t *testing.T) porttest.Stores {
		s := widerow.NewStore(openNode(t, t.TempDir()))
		return porttest.Stores{Users: s, Tweets: s, Lines: s}
	})
}

// TestCreatingTheSameUserAgainKeepsIt: a re-run import creates a user that exists with the same
// ID; the refused create must not remove the User row it shares with the winner.
func TestCreatingTheSameUserAgainKeepsIt(t *testing.T) {
	s := widerow.NewStore(openNode(t, ""))
	ctx := context.Background()
	u := domain.User{ID: uuid.New(), Username: "jericevans", PasswordHash: []byte("h"), CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateUser(ctx, u); !errors.Is(err, domain.ErrAlreadyExists) {
		t.Fatalf("second create: %v, want ErrAlreadyExists", err)
	}
	got, err := widerow.NewStore(s.Node()).GetUser(ctx, "jericevans") // a fresh store: no cache
	if err != nil || got.ID != u.ID {
		t.Fatalf("after a repeated create, GetUser = %+v, %v", got, err)
	}
}

func TestLocateContract(t *testing.T) {
	teachingtest.RunLocate(t, func(t *testing.T) teachingtest.InspectStores {
		n := openNode(t, "")
		s, b := widerow.NewStore(n), widerow.NewBlogStore(n)
		return teachingtest.InspectStores{
			Stores:  porttest.Stores{Users: s, Tweets: s, Lines: s},
			Blog:    porttest.BlogStores{Authors: b, Entries: b, Tags: b, Comments: b},
			Locator: widerow.NewInspector(n),
		}
	})
}

// TestQueryLabContract: 0.6 has no primary key to try, and the lab says so.
func TestQueryLabContract(t *testing.T) {
	teachingtest.RunQueryLab(t, widerow.NewInspector(openNode(t, t.TempDir())), false)
}

// TestRingContract: a simulated ring of 0.6, of the size the learner asks, under
// RackUnawareStrategy, with the engine's RandomPartitioner tokens.
func TestRingContract(t *testing.T) {
	in := widerow.NewInspector(openNode(t, t.TempDir()))
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
		s, in := widerow.NewStore(n), widerow.NewInspector(n)
		return teachingtest.SizeStores{Stores: porttest.Stores{Users: s, Tweets: s, Lines: s}, Sizer: in, Capped: in.ScanCapped}
	})
}

func TestClaimsContract(t *testing.T) {
	teachingtest.RunClaims(t, widerow.NewNameClaims(openNode(t, "")), teachingtest.Yields)
}
