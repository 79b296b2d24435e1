package reliability

import (
	"testing"

	"twissandra/internal/testkit/cqltest"
	"twissandra/ports"
	"twissandra/web"
)

// cqlServer is the HTTP API over a cql3 Store in a keyspace of the test's own.
func cqlServer(t *testing.T) *web.Server { return serverOver(t, cqlStores(t)) }

// cqlStores are the stores of a cql3 Store in a keyspace of the test's own.
func cqlStores(t *testing.T) ports.Stores {
	t.Helper()
	s := cqltest.Store(t, "twissandra_test_rel_")
	return ports.Stores{Users: s, Tweets: s, Lines: s, Authors: s, Entries: s, Tags: s, Comments: s, Sessions: s}
}

// Of simultaneous sign-ups of one name on cql3 (INSERT ... IF NOT EXISTS), exactly one gets 201.
func TestCQL3ConcurrentSignUpsOfOneName(t *testing.T) {
	signUpRace(t, newClient(t, cqlServer(t)), 16)
}

// A smaller TestManyWritersTimelines on cql3: 10 writers x 20 tweets with followers; every line
// exact afterwards.
func TestCQL3ManyWritersTimelines(t *testing.T) {
	manyWriters(t, newClient(t, cqlServer(t)), 10, 20, 3)
}
