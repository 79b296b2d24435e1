package teach

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/scylladb/gocqlx/v2"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// The write and read paths on the node (teaching.NodeViews): the learner's row of paths_scratch,
// a table of the lesson's own in the server's keyspace (made at first use; a row lives an hour),
// written and read between two readings of the node's virtual tables. Every statement goes
// through the session that records it (the footer), and is returned as sent.

const (
	pathsTable  = "paths_scratch"
	pathsRowTTL = 3600 // seconds: a learner's row goes an hour after its write
)

// pathsReady holds the keyspaces whose paths_scratch this process has made (or found).
var pathsReady sync.Map

// pathsRunsPerMinute bounds the lesson's runs on the node for the whole cluster: each writes
// and reads one row and reads the node's views around them.
const pathsRunsPerMinute = 60

// The node's settings the lesson shows, of the write and read paths.
var pathsSettings = []string{"commitlog_sync", "commitlog_sync_period", "commitlog_segment_size", "commitlog_total_space",
	"memtable_allocation_type", "memtable_heap_space", "memtable_offheap_space", "memtable_flush_writers", "memtable_cleanup_threshold",
	"compaction_throughput", "key_cache_size", "row_cache_size", "disk_access_mode"}

// The thread pools whose completed tasks the lesson shows: the write's and the read's stages,
// the flushes and the compactions.
var pathsPools = []string{"MutationStage", "ReadStage", "MemtableFlushWriter", "CompactionExecutor"}

// Watch implements teaching.NodeViews.
func (s *Store) Watch(ctx context.Context, session string) (teaching.ViewsRun, error) {
	if session == "" || len(session) > 64 {
		return teaching.ViewsRun{}, domain.Invalid("session", "must be 1 to 64 bytes")
	}
	sess, err := s.sess()
	if err != nil {
		return teaching.ViewsRun{}, err
	}
	if err := s.spendRun(ctx, sess, "paths", "the write and read paths lesson", pathsRunsPerMinute); err != nil {
		return teaching.ViewsRun{}, err
	}
	ks := s.Keyspace()
	run := teaching.ViewsRun{Keyspace: ks, Table: pathsTable}
	exec := func(cql string, values ...any) *gocqlx.Queryx {
		shown := make([]string, len(values))
		for i, v := range values {
			shown[i] = fmt.Sprint(v)
		}
		run.Statements = append(run.Statements, teaching.ViewStatement{CQL: cql, Values: shown})
		return sess.ContextQuery(ctx, cql, nil).Bind(values...)
	}
	if _, ok := pathsReady.Load(ks); !ok {
		if err := exec(fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s (session text PRIMARY KEY, v text) WITH default_time_to_live = %d", ks, pathsTable, pathsRowTTL)).ExecRelease(); err != nil {
			return run, wrap("paths table", err)
		}
		if err := sess.AwaitSchemaAgreement(ctx); err != nil {
			return run, wrap("paths schema agreement", err)
		}
		pathsReady.Store(ks, true)
	}
	before, err := readViews(exec, ks)
	if err != nil {
		return run, err
	}
	if err := exec(fmt.Sprintf("INSERT INTO %s.%s (session, v) VALUES (?, ?)", ks, pathsTable), session, "written at "+time.Now().UTC().Format(time.RFC3339Nano)).ExecRelease(); err != nil {
		return run, wrap("paths write", err)
	}
	var v string
	if err := exec(fmt.Sprintf("SELECT v FROM %s.%s WHERE session = ?", ks, pathsTable), session).GetRelease(&v); err != nil {
		return run, wrap("paths read", err)
	}
	after, err := readViews(exec, ks)
	if err != nil {
		return run, err
	}
	for _, f := range after.figures {
		b := before.value(f.View, f.Name)
		run.Figures = append(run.Figures, teaching.ViewFigure{View: f.View, Name: f.Name, Before: b, After: f.After})
	}
	run.Settings, run.Tasks = after.settings, after.tasks
	return run, nil
}

// views is one reading of the node's virtual tables.
type views struct {
	figures  []teaching.ViewFigure // After holds the value
	settings []teaching.ViewSetting
	tasks    []string
}

func (v views) value(view, name string) int64 {
	for _, f := range v.figures {
		if f.View == view && f.Name == name {
			return f.After
		}
	}
	return 0
}

func readViews(exec func(string, ...any) *gocqlx.Queryx, ks string) (views, error) {
	var out views
	add := func(view, name string, n int64) {
		out.figures = append(out.figures, teaching.ViewFigure{View: view, Name: name, After: n})
	}
	scan := func(what string, q *gocqlx.Queryx, row func(map[string]any)) error {
		it := q.Iter()
		for {
			m := map[string]any{}
			if !it.MapScan(m) {
				break
			}
			row(m)
		}
		if err := it.Close(); err != nil {
			return wrap("system_views."+what, err)
		}
		return nil
	}
	for _, view := range []string{"local_write_latency", "local_read_latency"} {
		found := int64(0)
		if err := scan(view, exec("SELECT count FROM system_views."+view+" WHERE keyspace_name = ? AND table_name = ?", ks, pathsTable), func(m map[string]any) {
			found = asInt(m["count"])
		}); err != nil {
			return out, err
		}
		add(view, "count", found)
	}
	var mib int64
	if err := scan("disk_usage", exec("SELECT mebibytes FROM system_views.disk_usage WHERE keyspace_name = ? AND table_name = ?", ks, pathsTable), func(m map[string]any) {
		mib = asInt(m["mebibytes"])
	}); err != nil {
		return out, err
	}
	add("disk_usage", "mebibytes", mib)
	if err := scan("caches", exec("SELECT name, request_count, hit_count, entry_count FROM system_views.caches"), func(m map[string]any) {
		name := fmt.Sprint(m["name"])
		if name != "keys" && name != "rows" {
			return
		}
		add("caches", name+" requests", asInt(m["request_count"]))
		add("caches", name+" hits", asInt(m["hit_count"]))
		add("caches", name+" entries", asInt(m["entry_count"]))
	}); err != nil {
		return out, err
	}
	pools := map[string]int64{}
	if err := scan("thread_pools", exec("SELECT name, completed_tasks FROM system_views.thread_pools"), func(m map[string]any) {
		pools[fmt.Sprint(m["name"])] = asInt(m["completed_tasks"])
	}); err != nil {
		return out, err
	}
	for _, p := range pathsPools {
		add("thread_pools", p+" completed", pools[p])
	}
	if err := scan("sstable_tasks", exec("SELECT keyspace_name, table_name, kind, progress, total FROM system_views.sstable_tasks"), func(m map[string]any) {
		out.tasks = append(out.tasks, fmt.Sprintf("%v %v.%v: %v of %v", m["kind"], m["keyspace_name"], m["table_name"], m["progress"], m["total"]))
	}); err != nil {
		return out, err
	}
	settings := map[string]string{}
	if err := scan("settings", exec("SELECT name, value FROM system_views.settings"), func(m map[string]any) {
		settings[fmt.Sprint(m["name"])] = fmt.Sprint(m["value"])
	}); err != nil {
		return out, err
	}
	for _, name := range pathsSettings {
		if v, ok := settings[name]; ok {
			out.settings = append(out.settings, teaching.ViewSetting{Name: name, Value: v})
		}
	}
	slices.Sort(out.tasks)
	return out, nil
}

// asInt reads a view's number, whatever its CQL type.
func asInt(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case int:
		return int64(n)
	case int32:
		return int64(n)
	case float64:
		if math.IsNaN(n) {
			return 0
		}
		return int64(n)
	case string:
		i, _ := strconv.ParseInt(n, 10, 64)
		return i
	}
	return 0
}
