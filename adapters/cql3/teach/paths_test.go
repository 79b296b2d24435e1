package teach

import (
	"strings"
	"testing"
	"time"

	"twissandra/ports/oplog"
)

// On the node: the learner's write and read move the table's write and read counts in the
// node's virtual tables, the settings of the write path come back, and every statement shown is
// one the session sent (the operation log records each as sent).
func TestWatchReadsTheNodesViewsAroundAWriteAndARead(t *testing.T) {
	s := sharedStore(t)
	log := oplog.NewLog(false)
	ctx := oplog.With(testCtx(t, time.Minute), log)
	run, err := s.Watch(ctx, "learner-"+randomKeyspace(""))
	if err != nil {
		t.Fatal(err)
	}
	w, ok := run.Figure("local_write_latency", "count")
	if !ok || w.After < w.Before+1 {
		t.Errorf("the write's count: %+v (found %v)", w, ok)
	}
	r, ok := run.Figure("local_read_latency", "count")
	if !ok || r.After < r.Before+1 {
		t.Errorf("the read's count: %+v (found %v)", r, ok)
	}
	if _, ok := run.Figure("thread_pools", "MutationStage completed"); !ok {
		t.Error("no MutationStage")
	}
	settings := map[string]string{}
	for _, st := range run.Settings {
		settings[st.Name] = st.Value
	}
	if settings["commitlog_sync"] == "" || settings["memtable_heap_space"] == "" {
		t.Errorf("settings: %v", settings)
	}
	ops, _ := log.Ops()
	sent := map[string]bool{}
	for _, op := range ops {
		if stmt, _, ok := strings.Cut(op.Text, " -> "); ok {
			sent[stmt] = true
		}
	}
	wrote := false
	for _, st := range run.Statements {
		if !sent[st.CQL] {
			t.Errorf("shown, not sent: %s", st.CQL)
		}
		wrote = wrote || strings.HasPrefix(st.CQL, "INSERT INTO "+s.Keyspace()+"."+pathsTable)
	}
	if !wrote || len(run.Statements) < 10 {
		t.Errorf("statements: %+v", run.Statements)
	}
	if _, err := s.Watch(ctx, ""); err == nil {
		t.Error("an empty session was watched")
	}
}
