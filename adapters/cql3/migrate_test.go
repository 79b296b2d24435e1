package cql3

import (
	"context"
	"errors"
	"io/fs"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2/migrate"

	"twissandra/domain"
)

// TestServersStartedTogetherOnANewKeyspace starts several stores at once on a keyspace that does
// not exist yet, as servers started together by a deployment do: every one must start, each
// migration must be applied once and whole, and the schema must be the one a lone server makes.
func TestServersStartedTogetherOnANewKeyspace(t *testing.T) {
	cfg := nodeConfig(t)
	cfg.Keyspace = randomKeyspace("twissandra_test_together_")
	const servers = 4
	stores := make([]*Store, servers)
	errs := make([]error, servers)
	ctx := testCtx(t, 4*time.Minute)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := range servers {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			stores[i], errs[i] = Open(ctx, cfg)
		}()
	}
	start.Done()
	done.Wait()
	t.Cleanup(func() {
		for _, s := range stores {
			if s == nil {
				continue
			}
			if err := dropKeyspace(s); err != nil {
				t.Errorf("drop %s: %v", cfg.Keyspace, err)
			}
			break
		}
		for _, s := range stores {
			if s != nil {
				_ = s.Close()
			}
		}
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("server %d of %d started together: %v", i+1, servers, err)
		}
	}
	if t.Failed() {
		return
	}
	sess, err := stores[0].sess()
	if err != nil {
		t.Fatal(err)
	}
	applied, err := migrate.List(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	files := migrationNames(t)
	if len(applied) != len(files) {
		t.Fatalf("%d migrations recorded, want the %d files %v", len(applied), len(files), files)
	}
	for i, info := range applied {
		if info.Name != files[i] {
			t.Errorf("migration %d recorded as %s, want %s", i, info.Name, files[i])
		}
	}
	// Each server works on the schema they made together.
	for i, s := range stores {
		if _, err := s.GetUser(context.Background(), "nobody"); err == nil {
			t.Errorf("server %d: found a user in a new keyspace", i+1)
		} else if !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("server %d reads its users: %v", i+1, err)
		}
	}
}

// migrationNames are the migration files, in the order they apply.
func migrationNames(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(Migrations(), "*.cql")
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// TestAServerWaitsOutALeaseLeftByADeadOne leaves the migration lease held, as a server killed
// while migrating leaves it, and starts a server: it waits until the lease's TTL ends, then
// migrates.
func TestAServerWaitsOutALeaseLeftByADeadOne(t *testing.T) {
	first := freshStore(t, "twissandra_test_lease_")
	sess, err := first.sess()
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t, 2*time.Minute)
	const ttl = 3
	if err := sess.Session.Query(cqlLeaseTake, leaseName, gocql.TimeUUID(), "a server killed while migrating", ttl).
		WithContext(ctx).Exec(); err != nil {
		t.Fatal(err)
	}
	cfg := nodeConfig(t)
	cfg.Keyspace = first.Keyspace()
	began := time.Now()
	second, err := Open(ctx, cfg)
	if err != nil {
		t.Fatalf("start beside a dead server's lease: %v", err)
	}
	defer second.Close()
	if waited := time.Since(began); waited < (ttl-1)*time.Second {
		t.Errorf("started after %v, within the dead server's lease of %d s", waited, ttl)
	}
}
