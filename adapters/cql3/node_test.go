package cql3

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests that need a real node find it through these variables (scripts/cassandra.sh up
// starts one on 127.0.0.1:9042). Without them those tests skip, loudly; under CI=true they fail
// instead, because CI must run them.
const (
	envHosts = "TWISSANDRA_CQL_HOSTS"
	envPort  = "TWISSANDRA_CQL_PORT"
)

// nodeConfig returns a Config for the node named by the environment, or skips (fails under CI).
func nodeConfig(tb testing.TB) Config {
	tb.Helper()
	hosts := os.Getenv(envHosts)
	if testing.Short() && os.Getenv("CI") != "true" {
		tb.Skip("-short: skipping the tests that need a Cassandra node")
	}
	if hosts == "" {
		msg := fmt.Sprintf("%s is not set: the cql3 tests need a real Cassandra node "+
			"(scripts/cassandra.sh up, then %s=127.0.0.1 %s=9042)", envHosts, envHosts, envPort)
		if os.Getenv("CI") == "true" {
			tb.Fatalf("CI=true and %s", msg)
		}
		tb.Skipf("SKIPPING THE REAL-NODE TEST: %s", msg)
	}
	cfg := Config{
		Hosts:        strings.Split(hosts, ","),
		Consistency:  os.Getenv("TWISSANDRA_CQL_CONSISTENCY"), // "": LOCAL_QUORUM
		Timeout:      20 * time.Second,
		StartTimeout: 90 * time.Second,
		Replication:  "SimpleStrategy:1",
	}
	if p := os.Getenv(envPort); p != "" {
		port, err := strconv.Atoi(p)
		if err != nil {
			tb.Fatalf("%s=%q: %v", envPort, p, err)
		}
		cfg.Port = port
	}
	return cfg
}

func testCtx(tb testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	tb.Cleanup(cancel)
	return ctx
}

// randomKeyspace names a keyspace of this test run only.
func randomKeyspace(prefix string) string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// shared is the one keyspace most tests of this run use, made on first use and dropped by
// TestMain. Making a keyspace costs about a dozen schema changes, so tests share it and keep
// apart by unique names (and by truncating the few shared partitions, see resetPublic).
var shared struct {
	once  sync.Once
	store *Store
	err   error
}

func sharedStore(tb testing.TB) *Store {
	tb.Helper()
	cfg := nodeConfig(tb)
	shared.once.Do(func() {
		cfg.Keyspace = randomKeyspace("twissandra_test_")
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		shared.store, shared.err = Open(ctx, cfg)
	})
	if shared.err != nil {
		tb.Fatalf("open the test keyspace: %v", shared.err)
	}
	return shared.store
}

// dropKeyspace removes the Store's keyspace (a test's own, never a configured one).
func dropKeyspace(s *Store) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	if !strings.HasPrefix(s.Keyspace(), "twissandra_test_") {
		return fmt.Errorf("refusing to drop %s: not a test keyspace", s.Keyspace())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The query lab's scratch keyspace beside it, if a test made one.
	if err := sess.ContextQuery(ctx, "DROP KEYSPACE IF EXISTS "+LabKeyspace(s.Keyspace()), nil).ExecRelease(); err != nil {
		return err
	}
	return sess.ContextQuery(ctx, "DROP KEYSPACE IF EXISTS "+s.Keyspace(), nil).ExecRelease()
}

// truncate empties tables of the Store's keyspace.
func truncate(tb testing.TB, s *Store, tables ...string) {
	tb.Helper()
	sess, err := s.sess()
	if err != nil {
		tb.Fatal(err)
	}
	for _, table := range tables {
		if err := sess.ContextQuery(testCtx(tb, time.Minute), "TRUNCATE TABLE "+table, nil).ExecRelease(); err != nil {
			tb.Fatalf("truncate %s: %v", table, err)
		}
	}
}

// resetPublic empties the public line, which every Twissandra subtest shares.
func resetPublic(tb testing.TB, s *Store) {
	truncate(tb, s, "public_line", "public_days")
	s.publicDays.Clear()
	s.publicNewest.Store(0)
	s.publicNewestAt.Store(0)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.store != nil {
		if err := dropKeyspace(shared.store); err != nil {
			fmt.Fprintf(os.Stderr, "cql3: drop test keyspace %s: %v\n", shared.store.Keyspace(), err)
		}
		_ = shared.store.Close()
	}
	os.Exit(code)
}

// freshStore opens a keyspace of the test's own, named from prefix, dropped at the end.
func freshStore(tb testing.TB, prefix string) *Store {
	tb.Helper()
	cfg := nodeConfig(tb)
	cfg.Keyspace = randomKeyspace(prefix)
	s, err := Open(testCtx(tb, 3*time.Minute), cfg)
	if err != nil {
		tb.Fatalf("open a keyspace of its own: %v", err)
	}
	tb.Cleanup(func() {
		if err := dropKeyspace(s); err != nil {
			tb.Errorf("drop %s: %v", s.Keyspace(), err)
		}
		_ = s.Close()
	})
	return s
}
