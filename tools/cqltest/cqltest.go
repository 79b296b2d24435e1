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

// Node returns the node's contact points and port. Without TWISSANDRA_CQL_HOSTS the test
// skips, saying why, and fails under CI=true, where the cql3 tests must run.
func Node(tb testing.TB) (hosts []string, port int) {
	tb.Helper()
	h := os.Getenv("TWISSANDRA_CQL_HOSTS")
	if h == "" {
		msg := "TWISSANDRA_CQL_HOSTS is not set: this needs a real Cassandra node (scripts/cassandra.sh up, then TWISSANDRA_CQL_HOSTS=127.0.0.1)"
		if os.Getenv("CI") == "true" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
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

// Keyspace opens a Store in a new keyspace named prefix and random hex (prefix must start with
// "twissandra_test_"), and a raw driver session on that keyspace (token-aware, as the adapter
// routes). When the test ends both are closed and the keyspace dropped.
func Keyspace(tb testing.TB, prefix string) (*cql3.Store, *gocql.Session) {
	tb.Helper()
	if !strings.HasPrefix(prefix, "twissandra_test_") {
		tb.Fatalf("keyspace prefix %q: a test keyspace starts with twissandra_test_", prefix)
	}
	hosts, port := Node(tb)
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	ks := prefix + hex.EncodeToString(b)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	store, err := cql3.Open(ctx, cql3.Config{Hosts: hosts, Port: port, Keyspace: ks, Replication: "SimpleStrategy:1",
		Timeout: 20 * time.Second, StartTimeout: time.Minute})
	if err != nil {
		tb.Fatal(err)
	}
	raw := gocql.NewCluster(hosts...)
	raw.Port, raw.Keyspace, raw.Timeout = port, ks, 20*time.Second
	raw.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.RoundRobinHostPolicy())
	sess, err := raw.CreateSession()
	if err != nil {
		_ = store.Close()
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := sess.Query("DROP KEYSPACE IF EXISTS " + ks).Exec(); err != nil {
			tb.Errorf("drop keyspace %s: %v", ks, err)
		}
		sess.Close()
		_ = store.Close()
	})
	return store, sess
}
