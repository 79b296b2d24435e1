package teach

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
)

// StorageEngine is the write and read paths lesson's view of an engine node's storage
// (teaching.StorageEngine): the running store's (Do), and fresh nodes of its own (Rehearse).
type StorageEngine struct {
	node *engine.Node
	// heavy lets one flush or compaction of the running store run at a time, for the whole
	// process (the widerow store is this process's alone), and last is when the last one of
	// each action began: a flush starts at most every teaching.PathFlushEvery, a compaction
	// every teaching.PathCompactEvery, whoever asks.
	heavy sync.Mutex
	mu    sync.Mutex // guards last and stamp
	last  map[teaching.PathAction]time.Time
	stamp int64
	now   func() time.Time
}

const (
	pathsCF     = "UTF8s" // of the Scratch keyspace
	pathsColumn = "c"
	pathsKey    = "paths-" // the learner's row: this and their session
)

// NewStorageEngine is the lesson's view of node's storage.
func NewStorageEngine(node *engine.Node) *StorageEngine {
	return &StorageEngine{node: node, last: map[teaching.PathAction]time.Time{}, now: time.Now}
}

// Figures implements teaching.StorageEngine.
func (s *StorageEngine) Figures(context.Context) (teaching.StorageFigures, []teaching.TableFile, error) {
	return figures(s.node)
}

func figures(n *engine.Node) (teaching.StorageFigures, []teaching.TableFile, error) {
	f := n.StorageFigures()
	out := teaching.StorageFigures{WALFiles: f.WALFiles, WALBytes: f.WALBytes, WALBytesIn: f.WALBytesIn,
		MemTables: f.MemTables, MemTableBytes: f.MemTableBytes, MemTableSize: f.MemTableSize, Flushes: f.Flushes, Compactions: f.Compactions,
		BlockCacheHits: f.BlockCacheHits, BlockCacheMisses: f.BlockCacheMisses, FilterHits: f.FilterHits, FilterMisses: f.FilterMisses,
		TableCacheHits: f.TableCacheHits, TableCacheMisses: f.TableCacheMisses,
		RowCacheHits: f.RowCache.Hits, RowCacheMisses: f.RowCache.Misses, RowCacheRows: f.RowCache.Rows}
	for i, l := range f.Levels {
		out.Levels = append(out.Levels, teaching.LevelFiles{Level: i, Files: l.Files, Bytes: l.Bytes})
	}
	files, err := n.TableFiles()
	if err != nil {
		return out, nil, err
	}
	tables := make([]teaching.TableFile, len(files))
	for i, t := range files {
		tables[i] = teaching.TableFile{Level: t.Level, Num: t.Num, Bytes: t.Bytes}
	}
	return out, tables, nil
}

// Do implements teaching.StorageEngine.
func (s *StorageEngine) Do(ctx context.Context, session string, step teaching.PathStep) (teaching.PathRun, error) {
	if session == "" || len(session) > LabMaxSession {
		return teaching.PathRun{}, domain.Invalid("session", "must be 1 to %d bytes", LabMaxSession)
	}
	if step.Received != 0 {
		return teaching.PathRun{}, domain.Invalid("received", "a delete on the running store is received now")
	}
	switch step.Action {
	case teaching.PathFlush, teaching.PathCompact:
		if !s.heavy.TryLock() {
			return teaching.PathRun{}, &domain.RetryError{After: time.Second, Message: "a flush or a compaction of this store is under way: try again in a moment"}
		}
		defer s.heavy.Unlock()
		every := teaching.PathFlushEvery
		if step.Action == teaching.PathCompact {
			every = teaching.PathCompactEvery
		}
		s.mu.Lock()
		now := s.now()
		if wait := s.last[step.Action].Add(every).Sub(now); wait > 0 {
			s.mu.Unlock()
			return teaching.PathRun{}, &domain.RetryError{After: wait, Message: fmt.Sprintf("this store runs a %s at most every %s, whoever asks: try again in %s", step.Action, every, wait.Round(time.Second)+time.Second)}
		}
		s.last[step.Action] = now
		s.mu.Unlock()
	}
	return run(ctx, s.node, pathsKey+session, step, s.next)
}

// next is a timestamp after every one the lesson gave before.
func (s *StorageEngine) next() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stamp = max(s.now().UnixMicro(), s.stamp+1)
	return s.stamp
}

// Rehearse implements teaching.StorageEngine.
func (s *StorageEngine) Rehearse(ctx context.Context, steps []teaching.PathStep) (runs []teaching.PathRun, err error) {
	if len(steps) == 0 || len(steps) > teaching.MaxPathSteps {
		return nil, domain.Invalid("steps", "a rehearsal takes 1 to %d steps", teaching.MaxPathSteps)
	}
	n, err := engine.Open(engine.Options{CacheSize: 1 << 20, MemTableSize: 1 << 20, RowCacheSize: -1, ManualCompactionsOnly: true})
	if err != nil {
		return nil, fmt.Errorf("rehearsal node: %w", err)
	}
	defer func() { err = errors.Join(err, n.Close()) }()
	// The steps' timestamps: each a microsecond after the one before, so that they order the steps.
	start := time.Now()
	var stamp int64
	next := func() int64 { stamp++; return start.UnixMicro() + stamp }
	for _, st := range steps {
		r, err := run(ctx, n, pathsKey+"rehearsal", st, next)
		if err != nil {
			return runs, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// run does step on node n, on the learner's row key, and reads the figures around it.
func run(ctx context.Context, n *engine.Node, key string, step teaching.PathStep, stamp func() int64) (r teaching.PathRun, err error) {
	r = teaching.PathRun{Step: step, GCGrace: n.GCGrace()}
	if r.Before, r.TablesBefore, err = figures(n); err != nil {
		return r, err
	}
	path := engine.ColumnPath{ColumnFamily: pathsCF, Column: []byte(pathsColumn)}
	where := labKeyspace + "." + pathsCF + "['" + key + "']['" + pathsColumn + "']"
	switch step.Action {
	case teaching.PathWrite:
		ts := stamp()
		v := "written at " + strconv.FormatInt(ts, 10)
		r.Call = "insert " + where + " = '" + v + "' (timestamp " + strconv.FormatInt(ts, 10) + ")"
		err = n.Insert(ctx, labKeyspace, key, path, []byte(v), ts, engine.ONE)
	case teaching.PathDelete:
		ts := stamp()
		r.Call = "remove " + where + " (timestamp " + strconv.FormatInt(ts, 10) + ")"
		dctx := ctx
		if step.Received > 0 {
			dctx = engine.ReceivedAt(ctx, time.Now().Add(-step.Received))
			r.Call += ", received " + step.Received.String() + " ago"
		}
		err = n.Remove(dctx, labKeyspace, key, path, ts, engine.ONE)
	case teaching.PathFlush:
		r.Call = "flush (nodetool flush): the memtable written to a table file"
		start := time.Now()
		err = n.Flush()
		oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: oplog.Write, Call: "flush", Family: "every column family", Took: time.Since(start), Text: r.Call})
	case teaching.PathCompact:
		r.Call = "compaction (nodetool compact): tombstones received before now - GCGraceSeconds dropped, with what they hide; the table files merged"
		var got engine.Compacted
		if got, err = n.Purge(ctx); err == nil {
			r.Purged, r.Shadowed = got.Purged, got.Shadowed
			start := time.Now()
			err = n.Compact(ctx)
			oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: oplog.Write, Call: "compact", Family: "every column family", Took: time.Since(start), Text: "compact: every table file merged into the last level"})
		}
	case teaching.PathRead:
		r.Call = "get " + where
		var got engine.ColumnOrSuperColumn
		got, err = n.Get(ctx, labKeyspace, key, path, engine.ONE)
		var nf *engine.NotFoundError
		switch {
		case errors.As(err, &nf):
			err = nil
		case err == nil && got.Column != nil:
			r.Found, r.Value = true, string(got.Column.Value)
		}
	default:
		return r, domain.Invalid("action", "must be one of write, flush, read, delete, compact, not %q", step.Action)
	}
	if err != nil {
		return r, err
	}
	r.After, r.TablesAfter, err = figures(n)
	return r, err
}
