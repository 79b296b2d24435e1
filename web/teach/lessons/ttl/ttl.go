// Package ttl is the course's lesson on TTL and time series: an INSERT ... USING TTL and a table
// with a default_time_to_live on the node (teaching.TTLLab), TTL() and WRITETIME() read back, a
// row polled until it expires, and what an expired cell becomes (a tombstone, until
// gc_grace_seconds); then the public line's day buckets, live, and the compaction strategy made
// for time series (TimeWindowCompactionStrategy), with the lesson table's options as the node
// reports them. On widerow, what 0.6 has: no TTL, but time-ordered columns and tombstones, which
// the engine's compaction drops after GCGraceSeconds.
package ttl

//go:generate go tool templ generate -path .

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

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
	h := &handler{Handler: lh}
	return frame.Lesson{Consoles: []frame.ConsoleOffer{console},
		Slug: "ttl", Title: "TTL and time series",
		Summary:   "Write a row USING TTL on the node, read TTL() and WRITETIME() back and watch it expire into a tombstone; bucket a time series by day, as the public line does, and compact it in time windows.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showTTL(h, c) },
		Topics:    []string{"ttl", "time-series"},
		Exercises: exercises(lh),
		Routes: func(g *gin.RouterGroup) {
			g.POST("learn/act/ttl", h.Admit(h.LabGate), h.run)
		}}
}

// handler is the labs' handler, and each browser's last run.
type handler struct {
	*labs.Handler
	runs frame.LastRuns[teaching.TTLRun]
}

// nodeContext is ctx for the lab's statements: in compare mode, when the node is the second
// model's, a note says so and the statements go to that model's side of the log.
func (h *handler) nodeContext(ctx context.Context) context.Context { return nodeContext(ctx, &h.Deps) }

func nodeContext(ctx context.Context, d *frame.Deps) context.Context {
	if d.Backend == "cql3" || d.CompareBackend != "cql3" {
		return ctx
	}
	oplog.Record(ctx, oplog.Op{Model: d.Backend, Kind: oplog.Note, Call: "ttl", Text: "ttl: the TTL lesson runs on " +
		d.CompareBackend + ", compare mode's second model: " + d.Backend + " has no TTL"})
	return oplog.Shadow(ctx, d.CompareBackend)
}

type ttlData struct {
	Backend, Compare string
	// The node's part.
	OnNode   bool
	Table    *teaching.TTLTable
	TableErr string
	Run      *teaching.TTLRun
	Form     runForm
	Max      int
	Bounds   string
	// The public line, live.
	Public    *teaching.PublicLayout
	PublicErr string
	PublicDDL string
	// widerow's engine: its GCGraceSeconds, and the public line's row: its newest columns, in
	// its comparator's order read backwards, and its stored cells (up to wideStored), tombstones
	// counted.
	WideGrace      int64
	Wide           bool
	WideRow        string
	WideNewest     []teaching.WideColumn
	WideStored     int
	WideTombstones int
	WideErr        string
}

// wideNewest and wideStored bound what the lesson reads of widerow's public line.
const (
	wideNewest = 5
	wideStored = 500
)

// runForm is the run's form: the TTL, the update, whether to wait.
type runForm struct {
	TTL    string
	Update teaching.TTLUpdate
	Wait   bool
}

var defaultForm = runForm{TTL: "2", Update: teaching.UpdatePlain, Wait: true}

// updateChoices are the form's updates, with what each sends.
var updateChoices = []struct {
	Value teaching.TTLUpdate
	Label string
}{
	{teaching.NoUpdate, "no update"},
	{teaching.UpdatePlain, "UPDATE … SET note (no USING TTL)"},
	{teaching.UpdateTTL0, "UPDATE … USING TTL 0 SET note"},
}

func showTTL(h *handler, c *gin.Context) (templ.Component, error) {
	d := ttlData{Backend: h.Deps.Backend, Compare: h.Deps.CompareBackend, OnNode: h.Deps.TTL != nil, Form: defaultForm,
		Max: teaching.MaxTTLSeconds, Bounds: h.LabGate.Bounds(), PublicDDL: frame.MigrationDDL(h.CqlDDL(), "public_line") + "\n" + frame.MigrationDDL(h.CqlDDL(), "public_days")}
	ctx := c.Request.Context()
	if d.OnNode {
		t, err := h.Deps.TTL.TTLTable(h.nodeContext(ctx))
		if err != nil {
			d.TableErr = site.Sentence(err.Error())
		} else {
			d.Table = &t
		}
		if id := labs.LabSession(c, false); id != "" {
			if r, ok := h.runs.Get(id); ok {
				d.Run = &r
				d.Form = runForm{TTL: strconv.Itoa(r.Scenario.TTL), Update: r.Scenario.Update, Wait: r.Scenario.Wait}
			}
		}
	}
	if h.Deps.Sizes != nil {
		p, err := h.Deps.Sizes.PublicLine(ctx)
		if err != nil {
			d.PublicErr = site.Sentence(err.Error())
		} else {
			d.Public = &p
		}
	}
	if h.Deps.Wide != nil {
		d.Wide = true
		d.WideGrace, _ = h.Deps.Wide.Compaction()
		if d.Public != nil && len(d.Public.Rows) == 1 {
			if err := readWide(ctx, h.Deps.Wide, d.Public.Rows[0], &d); err != nil {
				d.WideErr = site.Sentence(err.Error())
			}
		}
	}
	return ttlView(d), nil
}

// readWide reads widerow's public line row (keyspace.cf[key], as the store's layout names it):
// its newest columns, as a page reads them, and its stored cells with their tombstones.
func readWide(ctx context.Context, wide teaching.WideRowInspector, row teaching.RowSize, d *ttlData) error {
	ks, cf, ok := strings.Cut(row.Container, ".")
	if !ok {
		return errors.New("the public line's row is not named keyspace.cf: " + row.Container)
	}
	d.WideRow = row.Container + "['" + row.Key + "']"
	newest, err := wide.ReadRow(ctx, ks, cf, row.Key, teaching.Slice{Reversed: true, Count: wideNewest})
	if err != nil {
		return err
	}
	stored, err := wide.StoredRow(ctx, ks, cf, row.Key, wideStored)
	if err != nil {
		return err
	}
	d.WideNewest, d.WideStored = newest, len(stored)
	for _, c := range stored {
		if c.Deleted {
			d.WideTombstones++
		}
	}
	return nil
}

// run runs the form's scenario on the node and goes back to the lesson, which shows what the
// node did; the footer shows what the statements cost.
func (h *handler) run(c *gin.Context) {
	if h.Deps.TTL == nil {
		h.Site.ErrorPage(c, http.StatusNotFound, "No node", "This server has no Cassandra node to run the TTL lesson on.")
		return
	}
	const back = "/learn/ttl#run"
	ttl, err := strconv.Atoi(c.PostForm("ttl"))
	if err != nil {
		site.AddFlash(c, site.FlashError, "The TTL must be a whole number of seconds, from 1 to "+strconv.Itoa(teaching.MaxTTLSeconds)+".")
		h.Site.Redirect(c, back, "")
		return
	}
	s := teaching.TTLScenario{TTL: ttl, Update: teaching.TTLUpdate(c.PostForm("update")), Wait: c.PostForm("wait") != ""}
	r, err := h.Deps.TTL.RunTTL(h.nodeContext(c.Request.Context()), labs.LabSession(c, true), s)
	switch {
	case err == nil:
		h.runs.Put(labs.LabSession(c, true), r)
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
	h.Site.Redirect(c, back, "your TTL run")
}

func intOrNull(p *int) string {
	if p == nil {
		return "null"
	}
	return strconv.Itoa(*p)
}

func int64OrNull(p *int64) string {
	if p == nil {
		return "null"
	}
	return strconv.FormatInt(*p, 10)
}

func strOrNull(p *string) string {
	if p == nil {
		return "null"
	}
	return strconv.Quote(*p)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func tableDefault(d ttlData) int {
	if d.Table == nil {
		return 0
	}
	return d.Table.DefaultTTL
}

// verdict says what the run showed.
func verdict(r teaching.TTLRun) string {
	s := "Inserted USING TTL " + strconv.Itoa(r.Scenario.TTL) + "."
	switch r.Scenario.Update {
	case teaching.UpdatePlain:
		s += " The UPDATE without USING TTL gave the note the table's default_time_to_live (TTL(note) read " + intOrNull(r.Before.TTLNote) + "): a write without a TTL of its own takes the table's."
	case teaching.UpdateTTL0:
		s += " The UPDATE USING TTL 0 gave the note no TTL at all (TTL(note) read " + intOrNull(r.Before.TTLNote) + "), whatever the table's default."
	}
	if a := r.After; a != nil {
		s += " After " + strconv.Itoa(len(r.Polls)) + " polls, " + a.At.Round(time.Millisecond).String() + " after the insert, the reading was gone"
		if a.Found {
			s += ", and the row still read: its note outlives the insert's row marker and cells."
		} else {
			s += ", and so was the row: every cell and the row marker had expired."
		}
		if r.Scenario.Update == teaching.UpdateTTL0 {
			s += " The lesson then deleted the row, whose note would never expire."
		}
	}
	return s
}

// console is the lesson's CQL console, ready to run: a row written with a TTL, and the seconds it has left.
var console = frame.ConsoleOffer{Language: "cql", Statements: []string{
	"CREATE TABLE IF NOT EXISTS logins (id text PRIMARY KEY, username text);",
	"INSERT INTO logins (id, username) VALUES ('s1', 'ann') USING TTL 600;",
	"SELECT id, username, TTL(username) FROM logins WHERE id = 's1';",
}}
