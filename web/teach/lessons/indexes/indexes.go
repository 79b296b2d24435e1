// Package indexes is the course's lesson on finding a user by a column that is not the key.
// The seeds keep the Username column family by hand because 0.6 had no secondary index: on
// widerow the lesson reads that lookup live, Username then User. On a node (the cql3 backend's,
// or compare mode's second backend's) the learner's user is written and found by name four
// ways (teaching.IndexLab): the hand-kept index table, a secondary index, a materialized view
// and a storage-attached index, each statement shown as sent with what the node's trace says it
// cost and which nodes worked on it, and what each way cannot do, in the node's own words.
package indexes

//go:generate go tool templ generate -path .

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	// The gate bounds the runs a learner starts, the form's and the exercises' gradings together
	// (each run writes a user four ways and reads it back): the node's own bounds, per learner
	// and over the cluster, are the lab's.
	h := &handler{Handler: lh, gate: lh.RunGate("index lookup")}
	return frame.Lesson{Consoles: []frame.ConsoleOffer{console},
		Slug: "indexes", Title: "Finding a user four ways: index tables, secondary indexes, views, SAI",
		Summary: "The seeds kept a Username column family by hand because 0.6 had no index; find a user by name as they did, then with a secondary index, a materialized view and a storage-attached index on the node, with what each write and read cost and which nodes it asked.",
		Show:    func(c *gin.Context) (templ.Component, error) { return showIndexes(h, c) },
		Topics:  []string{"secondary-index", "materialized-view", "sai", "index-table"},
		Routes: func(g *gin.RouterGroup) {
			g.POST("learn/act/indexes", h.Admit(h.gate), h.find)
		},
		Exercises: exercises(h)}
}

// handler is the labs' handler, which the lesson reads the running store through, and each
// browser's last run.
type handler struct {
	*labs.Handler
	gate *frame.Gate
	runs frame.LastRuns[teaching.IndexRun]
}

// nodeContext is ctx for a run on the node: in compare mode the node is the second model's, so
// a note says so and the run's statements go to that model's side of the log.
func (h *handler) nodeContext(ctx context.Context) context.Context {
	if h.Deps.Backend == "cql3" || h.Deps.CompareBackend != "cql3" {
		return ctx
	}
	l := oplog.LogFrom(ctx)
	if l == nil {
		return ctx
	}
	l.Record(oplog.Op{Model: h.Deps.Backend, Kind: oplog.Note, Call: "indexlab", Text: "indexlab: the user is looked up on " +
		h.Deps.CompareBackend + ", compare mode's second model: " + h.Deps.Backend + " has no node"})
	return oplog.With(ctx, l.Shadow(h.Deps.CompareBackend))
}

type indexesData struct {
	Backend, Compare string
	OnNode           bool // an IndexLab: the node's or compare mode's second model's
	Bounds           string
	Name             string // the form's name
	Run              *teaching.IndexRun
	Wide             *wideLookup // the 0.6 way, read live on widerow
}

// wideLookup is a lookup by name on the 0.6 model, as the seeds make it: Username[name]
// gives the user's row key, and User[key] the user.
type wideLookup struct {
	Name string
	Key  string // Username[name]['id'], "" when nobody has the name
	User []teaching.WideColumn
	Err  string // a name that is not a username
}

func showIndexes(h *handler, c *gin.Context) (templ.Component, error) {
	d := indexesData{Backend: h.Deps.Backend, Compare: h.Deps.CompareBackend, OnNode: h.Deps.IndexLab != nil, Bounds: h.gate.Bounds(), Name: "ann"}
	if id := labs.LabSession(c, false); id != "" {
		if r, ok := h.runs.Get(id); ok {
			d.Run = &r
			d.Name, _, _ = strings.Cut(r.User, "~")
		}
	}
	if h.Deps.Wide != nil {
		w, err := h.lookUp(c.Request.Context(), c.Query("name"))
		if err != nil {
			return nil, err
		}
		d.Wide = w
	}
	return indexesView(d), nil
}

// lookUp reads a user by name on the 0.6 model, live: name, else the first name the Username
// column family holds (none on an empty store).
func (h *handler) lookUp(ctx context.Context, name string) (*wideLookup, error) {
	w := &wideLookup{Name: strings.TrimSpace(name)}
	if w.Name == "" {
		keys, err := h.Deps.Wide.RowKeys(ctx, "Twissandra", "Username", 1)
		if err != nil {
			return nil, err
		}
		if len(keys) == 0 {
			return w, nil
		}
		w.Name = keys[0]
	}
	if err := domain.ValidateUsername(w.Name); err != nil {
		_, w.Err = site.ProblemMessage(err)
		return w, nil
	}
	key, err := h.Deps.Wide.UserRowKey(ctx, w.Name)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return w, nil
	case err != nil:
		return nil, err
	}
	w.Key = key
	if w.User, err = h.Deps.Wide.ReadRow(ctx, "Twissandra", "User", w.Key, teaching.Slice{Count: 10}); err != nil {
		return nil, err
	}
	return w, nil
}

// find runs the learner's lookup four ways on the node and goes back to the lesson, which shows
// what each cost; the footer lists the statements.
func (h *handler) find(c *gin.Context) {
	if h.Deps.IndexLab == nil {
		h.Site.ErrorPage(c, http.StatusNotFound, "No node", "This server has no node to find a user on four ways.")
		return
	}
	back := "/learn/indexes#ways"
	session := labs.LabSession(c, true)
	run, err := h.Deps.IndexLab.FindUser(h.nodeContext(c.Request.Context()), h.Learner(c), strings.TrimSpace(c.PostForm("name")))
	switch {
	case err == nil:
		h.runs.Put(session, run)
	case errors.Is(err, teaching.ErrTooManyTrials):
		site.AddFlash(c, site.FlashError, site.Sentence(err.Error()))
		h.Site.Redirect(c, back, "")
		return
	case errors.Is(err, domain.ErrInvalid):
		_, msg := site.ProblemMessage(err)
		site.AddFlash(c, site.FlashError, msg)
		h.Site.Redirect(c, back, "")
		return
	default:
		h.Site.Fail(c, err)
		return
	}
	h.Site.Redirect(c, back, "your lookup")
}

// wayTitle names a way.
func wayTitle(way string) string {
	switch way {
	case teaching.WayTable:
		return "1. The hand-kept index table (the seeds' way)"
	case teaching.Way2i:
		return "2. A secondary index (2i)"
	case teaching.WayView:
		return "3. A materialized view"
	case teaching.WaySAI:
		return "4. A storage-attached index (SAI, 5.0)"
	}
	return way
}

// eventsMatching counts the trace's events that mention what.
func eventsMatching(t teaching.TracedStatement, what string) int {
	n := 0
	for _, e := range t.Events {
		if strings.Contains(e, what) {
			n++
		}
	}
	return n
}

// indexWrites are the index tables the trace writes ("Adding to t.index memtable"), once each.
func indexWrites(t teaching.TracedStatement) []string {
	var out []string
	for _, e := range t.Events {
		_, a, _ := strings.Cut(e, ": ")
		t := strings.TrimSuffix(strings.TrimPrefix(a, "Adding to "), " memtable")
		if strings.HasPrefix(a, "Adding to ") && strings.Contains(t, ".") && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// console is the lesson's CQL console, ready to run: a secondary index on a column that is not the key, and the trace of a read through it.
var console = frame.ConsoleOffer{Language: "cql", Statements: []string{
	"CREATE TABLE IF NOT EXISTS people (username text PRIMARY KEY, name text);",
	"CREATE INDEX IF NOT EXISTS ON people (name);",
	"INSERT INTO people (username, name) VALUES ('ann', 'Ann');",
	"TRACING ON;",
	"SELECT * FROM people WHERE name = 'Ann';",
	"TRACING OFF;",
}}
