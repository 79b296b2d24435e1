// Package paths is a lesson of the course: the write path and the read path, live on the widerow
// engine's own storage (Pebble, a log-structured merge tree as Cassandra's storage is). The
// learner writes their column, flushes the memtable, reads, deletes and compacts, and sees the
// engine's figures before and after each action (teaching.StorageEngine); on cql3, what the node
// reports of the same through its virtual tables (teaching.NodeViews).
package paths

//go:generate go tool templ generate -path .

import (
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{Handler: lh}
	return frame.Lesson{Slug: "paths", Title: "The write path and the read path",
		Summary: "Write a column, flush the memtable to a table file, read it back, delete it and compact: the storage engine's own figures (log bytes, memtable, files per level, flushes, compactions, cache hits) before and after each step.",
		Show:    func(c *gin.Context) (templ.Component, error) { return showPaths(h, c) },
		Routes: func(g *gin.RouterGroup) {
			g.POST("learn/paths/act", h.Admit(h.LabGate), h.act)
			g.POST("learn/paths/node", h.Admit(h.LabGate), h.watch)
			g.POST("learn/paths/rehearse", h.Admit(h.LabGate), h.rehearse)
		},
		Topics:    []string{"write-path", "read-path", "commit log", "memtable", "sstables", "compaction", "tombstones", "caches"},
		Exercises: append(exercises(h.Deps.Storage, h.LabGate), nodeExercises(h.Deps.NodeViews, h.LabGate)...)}
}

// handler is the labs' handler, which the lesson reads the running store through, and each
// browser's last action.
type handler struct {
	*labs.Handler
	runs       frame.LastRuns[teaching.PathRun]
	watches    frame.LastRuns[teaching.ViewsRun]
	rehearsals frame.LastRuns[rehearsal]
}

type pathsData struct {
	Backend   string
	Available bool
	Bounds    string
	Actions   []teaching.PathAction
	Figures   []figureRow // now, or before and after the last action
	Tables    []teaching.TableFile
	Run       *teaching.PathRun
	Summary   string // what the last action did, in figures
	GCGrace   string
	// MemTableSize is the running store's memtable size (0: no store to read it from).
	MemTableSize uint64
	// The node's views (cql3, or compare mode's cql3 side).
	Node      bool
	NodeSide  string // "" on the cql3 backend, else compare mode's note
	NodeBound string
	Watch     *teaching.ViewsRun
	// The rehearsal's form (as last sent) and the browser's last rehearsal.
	RehearseSteps, RehearseDays string
	RehearseBounds              string
	MaxSteps, MaxDays           int
	Rehearsal                   *rehearsal
}

// figureRow is one figure of the engine: its name, what it counts, and its value before and
// after the learner's action (After alone when there was none).
type figureRow struct {
	ID, Name, What string
	Before, After  string
	Changed        bool
}

func showPaths(h *handler, c *gin.Context) (templ.Component, error) {
	d := pathsData{Backend: h.Deps.Backend, Available: h.Deps.Storage != nil, Actions: teaching.PathActions,
		Bounds: "Every action: " + h.LabGate.Bounds() + " A flush of this store runs at most every " + teaching.PathFlushEvery.String() + ", a compaction every " + teaching.PathCompactEvery.String() + ", whoever asks, one at a time."}
	d.Node = h.Deps.NodeViews != nil
	if d.Node {
		d.NodeBound = h.LabGate.Bounds()
		if h.Deps.Backend != "cql3" {
			d.NodeSide = "compare mode's " + h.Deps.CompareBackend + " side"
		}
	}
	id := labs.LabSession(c, false)
	if id != "" && d.Node {
		if w, ok := h.watches.Get(id); ok {
			d.Watch = &w
		}
	}
	if !d.Available {
		return pathsView(d), nil
	}
	d.RehearseSteps, d.RehearseDays, d.MaxSteps, d.MaxDays = defaultRehearsal, defaultDays, teaching.MaxPathSteps, maxReceivedDays
	d.RehearseBounds = "Every rehearsal: " + h.LabGate.Bounds()
	if id != "" {
		if r, ok := h.rehearsals.Get(id); ok {
			d.Rehearsal, d.RehearseSteps, d.RehearseDays = &r, r.Steps, r.Days
		}
	}
	ctx := c.Request.Context()
	if id != "" {
		if r, ok := h.runs.Get(id); ok {
			d.Run = &r
		}
	}
	if d.Run != nil {
		d.Figures, d.Tables, d.GCGrace = figureRows(&d.Run.Before, d.Run.After), d.Run.TablesAfter, d.Run.GCGrace.String()
		d.Summary = summary(*d.Run)
		d.MemTableSize = d.Run.After.MemTableSize
		return pathsView(d), nil
	}
	f, tables, err := h.Deps.Storage.Figures(ctx)
	if err != nil {
		return nil, err
	}
	d.Figures, d.Tables, d.MemTableSize = figureRows(nil, f), tables, f.MemTableSize
	return pathsView(d), nil
}

func figureRows(before *teaching.StorageFigures, after teaching.StorageFigures) []figureRow {
	type fig struct {
		id, name, what string
		v              func(teaching.StorageFigures) int64
	}
	figs := []fig{
		{"wal-in", "WAL bytes appended", "every byte of every commit appended to the write-ahead log since the store opened", func(f teaching.StorageFigures) int64 { return int64(f.WALBytesIn) }},
		{"wal-files", "WAL files", "the live log files (one log for every column family)", func(f teaching.StorageFigures) int64 { return f.WALFiles }},
		{"memtables", "memtables", "the mutable memtable and any waiting for their flush", func(f teaching.StorageFigures) int64 { return f.MemTables }},
		{"memtable-bytes", "memtable memory", "the memory Pebble holds for its memtables, taken a whole arena at a time (not a write's bytes)", func(f teaching.StorageFigures) int64 { return int64(f.MemTableBytes) }},
		{"tables", "table files", "the table files of every level", teaching.StorageFigures.TableFiles},
	}
	for i := range after.Levels {
		figs = append(figs, fig{"l" + strconv.Itoa(i), "L" + strconv.Itoa(i) + " files", levelWhat(i), func(f teaching.StorageFigures) int64 {
			if i < len(f.Levels) {
				return f.Levels[i].Files
			}
			return 0
		}})
	}
	figs = append(figs,
		fig{"flushes", "flushes", "memtables written to a table file", func(f teaching.StorageFigures) int64 { return f.Flushes }},
		fig{"compactions", "compactions", "compactions that rewrote or moved table files", func(f teaching.StorageFigures) int64 { return f.Compactions }},
		fig{"block-hits", "block cache hits", "table blocks (data, index) a read found in the block cache", func(f teaching.StorageFigures) int64 { return f.BlockCacheHits }},
		fig{"block-misses", "block cache misses", "table blocks a read had to read from the file", func(f teaching.StorageFigures) int64 { return f.BlockCacheMisses }},
		fig{"filter-hits", "bloom filter hits", "reads a table's bloom filter spared", func(f teaching.StorageFigures) int64 { return f.FilterHits }},
		fig{"filter-misses", "bloom filter misses", "reads a table's bloom filter could not spare", func(f teaching.StorageFigures) int64 { return f.FilterMisses }},
		fig{"table-hits", "table cache hits", "opens of a table file found among the open ones", func(f teaching.StorageFigures) int64 { return f.TableCacheHits }},
		fig{"table-misses", "table cache misses", "table files opened anew", func(f teaching.StorageFigures) int64 { return f.TableCacheMisses }},
		fig{"row-hits", "row cache hits", "reads answered from the row cache (0.6's RowsCached: Tweet and Followers rows)", func(f teaching.StorageFigures) int64 { return f.RowCacheHits }},
		fig{"row-misses", "row cache misses", "reads of a cached column family's row not in the row cache", func(f teaching.StorageFigures) int64 { return f.RowCacheMisses }},
	)
	out := make([]figureRow, len(figs))
	for i, f := range figs {
		a := f.v(after)
		out[i] = figureRow{ID: f.id, Name: f.name, What: f.what, After: strconv.FormatInt(a, 10)}
		if before != nil {
			b := f.v(*before)
			out[i].Before, out[i].Changed = strconv.FormatInt(b, 10), a != b
		}
	}
	return out
}

func levelWhat(i int) string {
	if i == 0 {
		return "level 0: each flush's file, their key ranges overlapping"
	}
	if i == 6 {
		return "level 6, the last: where a full compaction leaves everything"
	}
	return "level " + strconv.Itoa(i) + ": files of key ranges that do not overlap"
}

// summary says what the action did, from its figures.
func summary(r teaching.PathRun) string {
	b, a := r.Before, r.After
	switch r.Step.Action {
	case teaching.PathWrite, teaching.PathDelete:
		return "The " + string(r.Step.Action) + " appended " + strconv.FormatUint(a.WALBytesIn-b.WALBytesIn, 10) + " bytes to the write-ahead log and went into the memtable (whose memory, " +
			strconv.FormatUint(a.MemTableBytes, 10) + " bytes, Pebble takes an arena at a time); the table files did not change (" + strconv.FormatInt(a.TableFiles(), 10) + ")."
	case teaching.PathFlush:
		return "The flush wrote the memtable to a table file: flushes " + strconv.FormatInt(b.Flushes, 10) + " → " + strconv.FormatInt(a.Flushes, 10) +
			", table files " + strconv.FormatInt(b.TableFiles(), 10) + " → " + strconv.FormatInt(a.TableFiles(), 10) + " (L0 " + strconv.FormatInt(levelFiles(b, 0), 10) + " → " + strconv.FormatInt(levelFiles(a, 0), 10) + ")" + newFiles(r) + "."
	case teaching.PathCompact:
		return "The compaction dropped " + strconv.Itoa(r.Purged) + " tombstones past their grace period of " + r.GCGrace.String() + " and " + strconv.Itoa(r.Shadowed) + " cells they hid, then merged the table files: " +
			strconv.FormatInt(b.TableFiles(), 10) + " → " + strconv.FormatInt(a.TableFiles(), 10) + " files, " + strconv.FormatInt(levelFiles(a, 6), 10) + " in L6; compactions " + strconv.FormatInt(b.Compactions, 10) + " → " + strconv.FormatInt(a.Compactions, 10) + "."
	case teaching.PathRead:
		found := "found nothing"
		if r.Found {
			found = "found “" + r.Value + "”"
		}
		s := "The read " + found + ": it read " + strconv.FormatInt(a.BlockReads()-b.BlockReads(), 10) + " table blocks (" + strconv.FormatInt(a.BlockCacheHits-b.BlockCacheHits, 10) + " from the block cache, " +
			strconv.FormatInt(a.BlockCacheMisses-b.BlockCacheMisses, 10) + " from the files) beside the memtable, and consulted " + strconv.FormatInt((a.FilterHits+a.FilterMisses)-(b.FilterHits+b.FilterMisses), 10) + " bloom filters."
		if a.BlockReads() == b.BlockReads() && b.TableFiles() > 0 {
			s += " No block read anew does not mean no table: the engine keeps the iterator of a read for the next one until a write commits, with the blocks it had loaded, so a read after a read of the same row touches no cache."
		}
		return s
	}
	return ""
}

func levelFiles(f teaching.StorageFigures, l int) int64 {
	if l < len(f.Levels) {
		return f.Levels[l].Files
	}
	return 0
}

// newFiles names the table files the action made.
func newFiles(r teaching.PathRun) string {
	old := map[uint64]bool{}
	for _, t := range r.TablesBefore {
		old[t.Num] = true
	}
	s := ""
	for _, t := range r.TablesAfter {
		if !old[t.Num] {
			if s != "" {
				s += ", "
			}
			s += tableName(t)
		}
	}
	if s == "" {
		return ": no new file"
	}
	return ": new " + s
}

func tableName(t teaching.TableFile) string {
	return strconv.FormatUint(t.Num, 10) + ".sst in L" + strconv.Itoa(t.Level) + " (" + strconv.FormatUint(t.Bytes, 10) + " bytes)"
}

// act runs the learner's action on the running store and goes back to the lesson, which shows
// the figures before and after it; the footer shows what it cost.
func (h *handler) act(c *gin.Context) {
	const back = "/learn/paths#run"
	if h.Deps.Storage == nil {
		h.Site.ErrorPage(c, http.StatusNotFound, "No storage engine", "This server's backend has no storage engine of its own to show: the lesson's actions run on widerow.")
		return
	}
	session := labs.LabSession(c, true)
	step := teaching.PathStep{Action: teaching.PathAction(c.PostForm("action"))}
	r, err := h.Deps.Storage.Do(c.Request.Context(), session, step)
	if err != nil {
		h.Site.RefuseBack(c, err, back)
		return
	}
	h.runs.Put(session, r)
	h.Site.Redirect(c, back, "your "+string(step.Action))
}

// watch reads the node's views around the learner's write and read, and goes back to the
// lesson, which shows them; the footer shows the statements.
func (h *handler) watch(c *gin.Context) {
	const back = "/learn/paths#node"
	if h.Deps.NodeViews == nil {
		h.Site.ErrorPage(c, http.StatusNotFound, "No Cassandra node", "This server has no Cassandra node to read the virtual tables of: run it with -backend cql3, or -compare cql3.")
		return
	}
	session := labs.LabSession(c, true)
	r, err := h.Deps.NodeViews.Watch(h.QueryLabContext(c.Request.Context()), session)
	if err != nil {
		h.Site.RefuseBack(c, err, back)
		return
	}
	h.watches.Put(session, r)
	h.Site.Redirect(c, back, "your write and read on the node")
}
