package teach_test

import (
	"context"
	"testing"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/adapters/widerow/teach"
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
