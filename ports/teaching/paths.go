package teaching

import (
	"context"
	"time"
)

// The write and read paths lesson: the widerow engine's own storage (Pebble, a log-structured
// merge tree as Cassandra's storage is) and what it reports of itself before and after a
// learner's action: a write or a delete of the learner's column (the write-ahead log and the
// memtable), a flush (a memtable written to a new table file), a compaction (table files merged,
// the engine's GCGraceSeconds applied to tombstones), a read (the memtable, the tables, the
// caches). On the running store (StorageEngine.Do), and, for the exercises, on a fresh node of
// the same engine apart from everything (Rehearse), whose figures no one else moves.

// PathAction is one of the lesson's actions.
type PathAction string

// The actions.
const (
	PathWrite   PathAction = "write"   // write the learner's column
	PathDelete  PathAction = "delete"  // delete it (a tombstone)
	PathFlush   PathAction = "flush"   // write the memtable to a table file
	PathCompact PathAction = "compact" // drop what tombstones past their grace hide, and merge the table files
	PathRead    PathAction = "read"    // read the learner's column
)

// PathActions are the actions, in the order the lesson shows them.
var PathActions = []PathAction{PathWrite, PathFlush, PathRead, PathDelete, PathCompact}

// PathStep is one action. Received, for a delete in a rehearsal, is how long before the steps
// that follow the node received it (its tombstone's age); the running store takes no age.
type PathStep struct {
	Action   PathAction
	Received time.Duration
}

// StorageFigures are what the engine's storage reports of itself (see engine.StorageFigures).
type StorageFigures struct {
	WALFiles      int64
	WALBytes      uint64 // the live log files' size
	WALBytesIn    uint64 // every byte appended to the log since the node opened
	MemTables     int64
	MemTableBytes uint64
	MemTableSize  uint64       // the size at which the memtable is flushed
	Levels        []LevelFiles // L0 to L6
	Flushes       int64
	Compactions   int64
	// The read path's caches and filters: hits and misses since the node opened.
	BlockCacheHits, BlockCacheMisses int64
	FilterHits, FilterMisses         int64
	TableCacheHits, TableCacheMisses int64
	RowCacheHits, RowCacheMisses     int64
	RowCacheRows                     int
}

// LevelFiles are the table files of one level.
type LevelFiles struct {
	Level int
	Files int64
	Bytes int64
}

// TableFiles counts the table files of every level.
func (f StorageFigures) TableFiles() int64 {
	var n int64
	for _, l := range f.Levels {
		n += l.Files
	}
	return n
}

// BlockReads counts the table blocks read (from the block cache or not).
func (f StorageFigures) BlockReads() int64 { return f.BlockCacheHits + f.BlockCacheMisses }

// TableFile is one table file of the store: its level, its number (a new file has a new,
// larger one) and its size.
type TableFile struct {
	Level int
	Num   uint64
	Bytes uint64
}

// PathRun is what one action did: the call the engine was sent (in 0.6's Thrift terms), the
// figures and the table files before and after it, and its outcome.
type PathRun struct {
	Step          PathStep
	Call          string
	Before, After StorageFigures
	TablesBefore  []TableFile
	TablesAfter   []TableFile
	// A read's outcome: whether the column was found, and its value.
	Found bool
	Value string
	// A compaction's outcome: the tombstones it dropped past their grace, and the cells they hid.
	Purged, Shadowed int
	GCGrace          time.Duration
}

// MaxPathSteps bounds a rehearsal.
const MaxPathSteps = 12

// How often the running store may be flushed and compacted, by anyone: a flush or a compaction
// is something any visitor starts, and the store (one process's) runs one at a time.
const (
	PathFlushEvery   = 2 * time.Second
	PathCompactEvery = 10 * time.Second
)

// StorageEngine is the lesson's view of the widerow engine's storage.
type StorageEngine interface {
	// Figures are the running store's figures and table files now.
	Figures(ctx context.Context) (StorageFigures, []TableFile, error)
	// Do runs step on the running store, on the column of the learner session's own row. A
	// flush or a compaction is one at a time and so many a minute for the whole store: past
	// that it is a *domain.RetryError that says when to try again. An unknown action, or a
	// delete with an age, is domain.ErrInvalid.
	Do(ctx context.Context, session string, step PathStep) (PathRun, error)
	// Rehearse runs steps, in order, on a fresh node of the engine of its own (in memory, apart
	// from every store and learner), and drops it: the exercises' ground, whose figures only
	// the steps move. More than MaxPathSteps is domain.ErrInvalid.
	Rehearse(ctx context.Context, steps []PathStep) ([]PathRun, error)
}

// NodeViews is what a Cassandra node reports of its storage through CQL, in its virtual tables
// (the system_views keyspace, 4.0 and later), around a learner's write and read of a row of
// their own: a node cannot be flushed or compacted through CQL (that is nodetool, over JMX), so
// the lesson shows what the node lets a client see.
type NodeViews interface {
	// Watch reads the views, writes the session's row, reads it back, and reads the views again.
	Watch(ctx context.Context, session string) (ViewsRun, error)
}

// ViewsRun is what Watch did: the statements it sent, in order, exactly as sent (a bound
// value shown as its marker, the values beside), the views' figures before and after, and the
// node's settings of the write and read paths.
type ViewsRun struct {
	Keyspace, Table string
	Statements      []ViewStatement
	Figures         []ViewFigure
	Settings        []ViewSetting
	// Tasks are the sstable tasks (compactions, cleanups) under way when the views were read last.
	Tasks []string
}

// ViewStatement is one statement Watch sent, and the values bound to its markers.
type ViewStatement struct {
	CQL    string
	Values []string
}

// ViewFigure is one figure of a view, before and after the write and the read.
type ViewFigure struct {
	View, Name    string
	Before, After int64
}

// ViewSetting is one of the node's settings (system_views.settings).
type ViewSetting struct{ Name, Value string }

// Figure finds the figure name of view.
func (r ViewsRun) Figure(view, name string) (ViewFigure, bool) {
	for _, f := range r.Figures {
		if f.View == view && f.Name == name {
			return f, true
		}
	}
	return ViewFigure{}, false
}
