package widerow_test

import (
	"testing"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/ports/porttest"
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
