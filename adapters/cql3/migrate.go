package cql3

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2"
	"github.com/scylladb/gocqlx/v2/migrate"
)

// Migrations are applied by one server at a time, whatever the number of servers started
// together on a keyspace: the one that holds the keyspace's migration lease, a row of table
// schema_lease taken with INSERT ... IF NOT EXISTS USING TTL. The others wait for it to go,
// then find every migration recorded (gocqlx_migrate) and apply nothing. Without it, servers
// started at once each ran the same ALTER TABLE, and all but one failed ("Column with name
// 'author' already exists"). The lease lives leaseTTL unless renewed, so a server killed while
// migrating holds the others back for that long at most.
const (
	leaseTTL     = 30 * time.Second
	leaseRenew   = leaseTTL / 3
	leaseName    = "migrations"
	leaseMaxWait = 2 * time.Second

	cqlLeaseTable = `CREATE TABLE IF NOT EXISTS schema_lease (name text PRIMARY KEY, owner timeuuid, holder text)`
	cqlLeaseTake  = `INSERT INTO schema_lease (name, owner, holder) VALUES (?, ?, ?) IF NOT EXISTS USING TTL ?`
	cqlLeaseRenew = `UPDATE schema_lease USING TTL ? SET owner = ?, holder = ? WHERE name = ? IF owner = ?`
	cqlLeaseGive  = `DELETE FROM schema_lease WHERE name = ? IF owner = ?`
)

// migrateLeased applies files under the keyspace's migration lease.
func (s *Store) migrateLeased(ctx context.Context, sess gocqlx.Session, files fs.FS) error {
	if err := sess.ContextQuery(ctx, cqlLeaseTable, nil).ExecRelease(); err != nil {
		return fmt.Errorf("make the migration lease's table: %w", err)
	}
	if err := sess.AwaitSchemaAgreement(ctx); err != nil {
		return fmt.Errorf("make the migration lease's table: %w", err)
	}
	owner := gocql.TimeUUID()
	holder := leaseHolder()
	wait := 100 * time.Millisecond
	for {
		took, other, err := s.leaseCAS(ctx, sess, cqlLeaseTake, leaseName, owner, holder, int(leaseTTL.Seconds()))
		var unavail *gocql.RequestErrUnavailable
		if errors.As(err, &unavail) {
			// The lease is a Paxos round at the serial level: it needs a quorum of the keyspace's
			// replicas alive, which a keyspace of more replicas than live nodes lacks (a test's RF
			// 3 on one node). Its schema changes need no quorum: apply them as one server would.
			s.logger.Warn("cql3: too few replicas alive for the migration lease: migrating without it, so start one server at a time",
				"keyspace", s.cfg.Keyspace, "err", err)
			return migrate.FromFS(ctx, sess, files)
		}
		if err != nil {
			return fmt.Errorf("take the migration lease: %w", err)
		}
		if took {
			break
		}
		s.logger.Info("cql3: waiting for another server's schema migrations", "keyspace", s.cfg.Keyspace, "holder", other)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("waiting for the migrations of %s: %w", other, ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, leaseMaxWait)
	}

	// Renew the lease while the migrations run; a renewal that finds another owner (the lease
	// ran out) stops the migrations before they apply anything more.
	mctx, cancel := context.WithCancelCause(ctx)
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		tick := time.NewTicker(leaseRenew)
		defer tick.Stop()
		for {
			select {
			case <-mctx.Done():
				return
			case <-tick.C:
			}
			kept, other, err := s.leaseCAS(mctx, sess, cqlLeaseRenew, int(leaseTTL.Seconds()), owner, holder, leaseName, owner)
			if err == nil && !kept {
				cancel(fmt.Errorf("the migration lease went to %s", other))
				return
			}
		}
	}()
	err := migrate.FromFS(mctx, sess, files)
	if cause := context.Cause(mctx); err != nil && cause != nil && !errors.Is(cause, context.Canceled) {
		err = fmt.Errorf("%w (%w)", err, cause)
	}
	cancel(nil)
	<-renewed

	// Give the lease back at once (the next server need not wait out its TTL). A failure here
	// only makes the others wait for the TTL.
	gctx, gcancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.Timeout)
	defer gcancel()
	if _, _, gerr := s.leaseCAS(gctx, sess, cqlLeaseGive, leaseName, owner); gerr != nil {
		s.logger.Warn("cql3: give back the migration lease", "err", gerr)
	}
	return err
}

// leaseCAS runs one lightweight transaction on the lease and reports whether it applied, and
// who holds the lease when it did not.
func (s *Store) leaseCAS(ctx context.Context, sess gocqlx.Session, stmt string, values ...any) (applied bool, holder string, err error) {
	q := sess.Session.Query(stmt, values...).WithContext(ctx).SerialConsistency(s.cfg.serial).RetryPolicy(nil)
	row := map[string]any{}
	applied, err = q.MapScanCAS(row)
	if h, ok := row["holder"].(string); ok {
		holder = h
	}
	return applied, holder, err
}

// leaseHolder names this process in the lease, for the log of the servers that wait for it.
func leaseHolder() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s pid %d", host, os.Getpid())
}
