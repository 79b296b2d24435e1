package reliability

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"twissandra/adapters/cql3"
	"twissandra/tools/stores"
	"twissandra/web"
)

// cqlNode returns the cluster of TWISSANDRA_CQL_HOSTS and TWISSANDRA_CQL_PORT (scripts/test.sh
// exports them), or skips; under CI=true it fails instead: CI must run these tests.
func cqlNode(t *testing.T) (hosts []string, port int) {
	t.Helper()
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("-short: skipping the tests that need a Cassandra node")
	}
	h := os.Getenv("TWISSANDRA_CQL_HOSTS")
	if h == "" {
		msg := "TWISSANDRA_CQL_HOSTS is not set: the cql3 reliability tests need a real Cassandra node (scripts/cassandra.sh up)"
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and %s", msg)
		}
		t.Skipf("SKIPPING THE REAL-NODE TEST: %s", msg)
	}
	port = cql3.DefaultPort
	if p := os.Getenv("TWISSANDRA_CQL_PORT"); p != "" {
		var err error
		if port, err = strconv.Atoi(p); err != nil {
			t.Fatalf("TWISSANDRA_CQL_PORT=%q: %v", p, err)
		}
	}
	return strings.Split(h, ","), port
}

// testKeyspace names a keyspace of one test and drops it when the test ends.
func testKeyspace(t *testing.T, hosts []string, port int) string {
	t.Helper()
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	ks := "twissandra_test_rel_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		c := gocql.NewCluster(hosts...)
		c.Port = port
		c.Timeout = time.Minute
		sess, err := c.CreateSession()
		if err != nil {
			t.Errorf("drop keyspace %s: %v", ks, err)
			return
		}
		defer sess.Close()
		if err := sess.Query("DROP KEYSPACE IF EXISTS " + ks).Exec(); err != nil {
			t.Errorf("drop keyspace %s: %v", ks, err)
		}
	})
	return ks
}

// cqlServer is the HTTP API over a cql3 Store in a keyspace of the test's own.
func cqlServer(t *testing.T) *web.Server { return serverOver(t, cqlStores(t)) }

// cqlStores are the stores of a cql3 Store in a keyspace of the test's own.
func cqlStores(t *testing.T) stores.Set {
	t.Helper()
	hosts, port := cqlNode(t)
	ks := testKeyspace(t, hosts, port)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := cql3.Open(ctx, cql3.Config{Hosts: hosts, Port: port, Keyspace: ks, Replication: "SimpleStrategy:1",
		Timeout: 20 * time.Second, StartTimeout: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return stores.Set{Users: s, Tweets: s, Lines: s, Authors: s, Entries: s, Tags: s, Comments: s}
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
