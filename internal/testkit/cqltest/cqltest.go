// Package cqltest gives tests and benchmarks a cql3 Store of their own on the real Cassandra
// node named by TWISSANDRA_CQL_HOSTS (and TWISSANDRA_CQL_PORT): a fresh keyspace, dropped when
// the test ends.
package cqltest

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
)

// Node returns the node's contact points and port. Without TWISSANDRA_CQL_HOSTS, or under
// -short, the test skips, saying why; under CI=true, where the cql3 tests must run, it fails
// instead of skipping for want of a node.
func Node(tb testing.TB) (hosts []string, port int) {
	tb.Helper()
	ci := os.Getenv("CI") == "true"
	if testing.Short() && !ci {
		tb.Skip("-short: skipping the tests that need a Cassandra node")
	}
	h := os.Getenv("TWISSANDRA_CQL_HOSTS")
	if h == "" {
		msg := "TWISSANDRA_CQL_HOSTS is not set: this needs a real Cassandra node (scripts/cassandra.sh up, then TWISSANDRA_CQL_HOSTS=127.0.0.1)"
		if ci {
			tb.Fatalf("CI=true and %s", msg)
		}
		tb.Skipf("SKIPPING THE REAL-NODE TEST: %s", msg)
	}
	port = cql3.DefaultPort
	if p := os.Getenv("TWISSANDRA_CQL_PORT"); p != "" {
		var err error
		if port, err = strconv.Atoi(p); err != nil {
			tb.Fatalf("TWISSANDRA_CQL_PORT=%q: %v", p, err)
		}
	}
	return strings.Split(h, ","), port
}

// KeyspaceName returns a new keyspace name, prefix (which must start with "twissandra_test_")
// and random hex, on the node of Node, and drops that keyspace when the test ends, whoever
// created it: a Store of the test's own, or a command the test runs.
func KeyspaceName(tb testing.TB, prefix string) (ks string, hosts []string, port int) {
	tb.Helper()
	if !strings.HasPrefix(prefix, "twissandra_test_") {
		tb.Fatalf("keyspace prefix %q: a test keyspace starts with twissandra_test_", prefix)
	}
	hosts, port = Node(tb)
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	ks = prefix + hex.EncodeToString(b)
	tb.Cleanup(func() { // runs after the cleanups registered later: the test's sessions are closed
		c := gocql.NewCluster(hosts...)
		c.Port, c.Timeout = port, time.Minute
		sess, err := c.CreateSession()
		if err != nil {
			tb.Errorf("drop keyspace %s: %v", ks, err)
			return
		}
		defer sess.Close()
		// and the query lab's scratch keyspace beside it, if the test made one
		for _, k := range []string{cql3.LabKeyspace(ks), ks} {
			if err := sess.Query("DROP KEYSPACE IF EXISTS " + k).Exec(); err != nil {
				tb.Errorf("drop keyspace %s: %v", k, err)
			}
		}
	})
	return ks, hosts, port
}

// Store opens a Store in a new keyspace of KeyspaceName, closed and dropped when the test ends.
func Store(tb testing.TB, prefix string) *cql3.Store {
	tb.Helper()
	ks, hosts, port := KeyspaceName(tb, prefix)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	store, err := cql3.Open(ctx, cql3.Config{Hosts: hosts, Port: port, Keyspace: ks, Replication: "SimpleStrategy:1",
		Timeout: 20 * time.Second, StartTimeout: 90 * time.Second})
	if err != nil {
		tb.Fatalf("open the test keyspace %s: %v", ks, err)
	}
	tb.Cleanup(func() { _ = store.Close() })
	return store
}

// Keyspace opens a Store as Store does, and a raw driver session on its keyspace (token-aware,
// as the adapter routes), closed when the test ends.
func Keyspace(tb testing.TB, prefix string) (*cql3.Store, *gocql.Session) {
	tb.Helper()
	store := Store(tb, prefix)
	hosts, port := Node(tb)
	raw := gocql.NewCluster(hosts...)
	raw.Port, raw.Keyspace, raw.Timeout = port, store.Keyspace(), 20*time.Second
	raw.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.RoundRobinHostPolicy())
	sess, err := raw.CreateSession()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(sess.Close)
	return store, sess
}

// Open opens another Store on keyspace ks of the node of Node, as a second server on the same
// keyspace would, closed when the test ends (the keyspace is the test's to drop).
func Open(tb testing.TB, ks string) *cql3.Store {
	tb.Helper()
	hosts, port := Node(tb)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	store, err := cql3.Open(ctx, cql3.Config{Hosts: hosts, Port: port, Keyspace: ks, Replication: "SimpleStrategy:1",
		Timeout: 20 * time.Second, StartTimeout: 90 * time.Second})
	if err != nil {
		tb.Fatalf("open keyspace %s again: %v", ks, err)
	}
	tb.Cleanup(func() { _ = store.Close() })
	return store
}
