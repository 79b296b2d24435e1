package teach

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"twissandra/adapters/cql3"
	"twissandra/internal/testkit/cqltest"
)

// The tests that need a real node find it through TWISSANDRA_CQL_HOSTS (and
// TWISSANDRA_CQL_PORT), as the cql3 adapter's own do (cqltest.Node): without them those tests
// skip, loudly; under CI=true they fail instead.

func testCtx(tb testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	tb.Cleanup(cancel)
	return ctx
}

// randomKeyspace names a keyspace (or anything else) of this test run only.
func randomKeyspace(prefix string) string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// shared is the one keyspace most tests of this run use, made on first use and dropped by
// TestMain: tests share it and keep apart by unique names.
var shared struct {
	once  sync.Once
	store *cql3.Store
	err   error
}

func sharedStore(tb testing.TB) *Store {
	tb.Helper()
	hosts, port := cqltest.Node(tb)
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		shared.store, shared.err = cql3.Open(ctx, cql3.Config{Hosts: hosts, Port: port, Keyspace: randomKeyspace("twissandra_test_"),
			Consistency: os.Getenv("TWISSANDRA_CQL_CONSISTENCY"), Replication: "SimpleStrategy:1", Timeout: 20 * time.Second, StartTimeout: 90 * time.Second})
	})
	if shared.err != nil {
		tb.Fatalf("open the test keyspace: %v", shared.err)
	}
	return New(shared.store)
}

// freshStore opens a keyspace of the test's own, named from prefix, dropped at the end.
func freshStore(tb testing.TB, prefix string) *Store {
	tb.Helper()
	return New(cqltest.Store(tb, prefix))
}

func TestMain(m *testing.M) {
	code := m.Run()
	if s := shared.store; s != nil {
		if err := dropKeyspace(s); err != nil {
			fmt.Fprintf(os.Stderr, "cql3/teach: drop test keyspace %s: %v\n", s.Keyspace(), err)
		}
		_ = s.Close()
	}
	os.Exit(code)
}

// dropKeyspace removes the Store's keyspace (a test's own, never a configured one), and the
// query lab's and the console's scratch keyspaces beside it.
func dropKeyspace(s *cql3.Store) error {
	sess, err := s.Session()
	if err != nil {
		return err
	}
	if !strings.HasPrefix(s.Keyspace(), "twissandra_test_") {
		return fmt.Errorf("refusing to drop %s: not a test keyspace", s.Keyspace())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, ks := range []string{cql3.LabKeyspace(s.Keyspace()), consoleKeyspaceOf(s), s.Keyspace()} {
		if err := sess.ContextQuery(ctx, "DROP KEYSPACE IF EXISTS "+ks, nil).ExecRelease(); err != nil {
			return err
		}
	}
	return nil
}
