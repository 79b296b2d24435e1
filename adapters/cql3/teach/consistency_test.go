package teach_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"twissandra/adapters/cql3"
	"twissandra/adapters/cql3/teach"
	"twissandra/internal/testkit/cqltest"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
)

// On one node, a keyspace of replication factor 3 has one replica alive of the three each row
// wants: ONE succeeds, and the coordinator refuses QUORUM (2 required) and ALL (3) as
// Unavailable, before it sends anything. With replication factor 1 every level succeeds.
func TestTryLevels(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		replication string
		want        string
	}{
		{"SimpleStrategy:1", "ONE succeeded/succeeded QUORUM succeeded/succeeded ALL succeeded/succeeded"},
		{"SimpleStrategy:3", "ONE succeeded/succeeded QUORUM Unavailable: 2 replicas required, 1 alive/Unavailable: 2 replicas required, 1 alive ALL Unavailable: 3 replicas required, 1 alive/Unavailable: 3 replicas required, 1 alive"},
	} {
		t.Run(c.replication, func(t *testing.T) {
			t.Parallel()
			ks, hosts, port := cqltest.KeyspaceName(t, "twissandra_test_levels_")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			store, err := cql3.Open(ctx, cql3.Config{Hosts: hosts, Port: port, Keyspace: ks, Replication: c.replication, Consistency: "ONE",
				Timeout: 20 * time.Second, StartTimeout: 90 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = store.Close() })
			var ops opRecords
			got, err := teach.New(store).TryLevels(oplog.With(ctx, &ops))
			if err != nil {
				t.Fatal(err)
			}
			rf := strings.TrimPrefix(c.replication, "SimpleStrategy:")
			if got.Keyspace != ks || !strings.Contains(got.Replication, "SimpleStrategy") || !strings.Contains(got.Replication, "replication_factor "+rf) {
				t.Errorf("keyspace %q, replication %q", got.Keyspace, got.Replication)
			}
			if s := levelsString(got.Levels); s != c.want {
				t.Errorf("levels: %s\nwant    %s", s, c.want)
			}
			// Each statement's record names the level it was sent at, not the session's (ONE).
			var levels []string
			for _, op := range ops.all() {
				if op.Model == "cql3" && op.Family == "race_names" {
					levels = append(levels, op.Consistency)
				}
			}
			if s := strings.Join(levels, " "); s != "ONE ONE QUORUM QUORUM ALL ALL" {
				t.Errorf("records' levels %q, want ONE ONE QUORUM QUORUM ALL ALL", s)
			}
			for _, l := range got.Levels {
				if !strings.HasPrefix(l.Write.Statement, "CONSISTENCY "+l.Level+"; INSERT INTO race_names") || !strings.HasPrefix(l.Read.Statement, "CONSISTENCY "+l.Level+"; SELECT") {
					t.Errorf("statements %q, %q", l.Write.Statement, l.Read.Statement)
				}
			}
		})
	}
}

// opRecords keeps the operations' records.
type opRecords struct {
	mu  sync.Mutex
	ops []oplog.Op
}

func (r *opRecords) Record(op oplog.Op) { r.mu.Lock(); r.ops = append(r.ops, op); r.mu.Unlock() }

func (r *opRecords) all() []oplog.Op { r.mu.Lock(); defer r.mu.Unlock(); return slices.Clone(r.ops) }

// levelsString writes each level's write and read outcomes: "ONE succeeded/succeeded QUORUM Unavailable: …/…".
func levelsString(levels []teaching.LevelTry) string {
	var parts []string
	for _, l := range levels {
		parts = append(parts, l.Level+" "+l.Write.String()+"/"+l.Read.String())
	}
	return strings.Join(parts, " ")
}
