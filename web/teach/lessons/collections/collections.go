// Package collections is the course's lesson on what became of the super column: seed 004's
// AddressBook, a super column family of 0.6, written on the engine's own AddressBook (the
// comparator lab's scratch keyspace, teaching.ColumnLab) and, on a real node, in the four forms
// CQL3 gives it (teaching.AddressBookLab): clustering columns, a map, a user type, a frozen
// one; each with the cells it stores and what changing one field writes.
package collections

//go:generate go tool templ generate -path .

import (
	"context"
	"errors"
	"net/http"

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
	// The gate bounds the runs of the lesson's form and of its exercises' gradings on the node:
	// each writes a few cells in the lesson's tables.
	h := &handler{Handler: lh, gate: lh.RunGate("address book run")}
	return frame.Lesson{Consoles: []frame.ConsoleOffer{console},
		Slug: "collections", Title: "What became of the super column",
		Summary: "Seed 004's AddressBook, a super column family, on the engine and as CQL3 clustering columns, a map, a user type and a frozen one on a node: the cells each stores, what changing one field writes, and what overwriting it deletes.",
		Show:    func(c *gin.Context) (templ.Component, error) { return showCollections(h, c) },
		Topics:  []string{"collections", "udt", "super column", "frozen", "tombstone"},
		Routes: func(g *gin.RouterGroup) {
			g.POST("learn/act/addressbook", h.Admit(h.gate), h.run)
		},
		Exercises: exercises(h)}
}

// handler is the labs' handler, which the lesson reads the running store through, its gate, and
// the browsers' last runs.
type handler struct {
	*labs.Handler
	gate *frame.Gate
	runs frame.LastRuns[pageRun]
}

// pageRun is a browser's last run of the form: the node's four forms, the engine's super
// column, or why not.
type pageRun struct {
	Change  teaching.AddressChange
	Forms   []teaching.AddressRun
	Super   *superRun
	Why     string // the node's part could not run: why
	SuperOK bool
}

type collectionsData struct {
	Backend, Compare string
	OnNode           bool // an AddressBookLab is there
	Lab              bool // the engine's lab is there
	Schema           []string
	Limits           []teaching.Setting
	LimitsCQL        string
	LimitsErr        string
	Bounds           string
	Entry            []teaching.AddressField
	Result           *pageRun
}

func showCollections(h *handler, c *gin.Context) (templ.Component, error) {
	d := collectionsData{Backend: h.Deps.Backend, Compare: h.Deps.CompareBackend, OnNode: h.Deps.AddressBook != nil, Lab: h.Deps.Lab != nil,
		Bounds: h.gate.Bounds(), Entry: teaching.AddressEntry.Fields}
	if d.OnNode {
		d.Schema = h.Deps.AddressBook.AddressSchema()
		ls, stmt, err := h.Deps.AddressBook.AddressLimits(h.nodeContext(c.Request.Context()))
		d.Limits, d.LimitsCQL = ls, stmt
		if err != nil {
			d.LimitsErr = site.Sentence(err.Error())
		}
	}
	if id := labs.LabSession(c, false); id != "" {
		if r, ok := h.runs.Get(id); ok {
			d.Result = &r
		}
	}
	return collectionsView(d), nil
}

// run writes the entry in every form on the node and as a super column on the engine, applies
// the change asked, and goes back to the lesson, which shows the cells.
func (h *handler) run(c *gin.Context) {
	change := teaching.AddressChange(c.PostForm("change"))
	if change != teaching.OneField && change != teaching.Whole {
		h.Site.ErrorPage(c, http.StatusBadRequest, "No such change", "The change is “field” (the city alone) or “whole” (the address written again with three fields).")
		return
	}
	if h.Deps.AddressBook == nil && h.Deps.Lab == nil {
		h.Site.ErrorPage(c, http.StatusNotFound, "No lab", "This server has neither a CQL node nor the engine's lab.")
		return
	}
	session := labs.LabSession(c, true)
	ctx := c.Request.Context()
	r := pageRun{Change: change}
	if h.Deps.AddressBook != nil {
		forms, err := runForms(h.nodeContext(ctx), h, h.Learner(c), change)
		switch {
		case err == nil:
			r.Forms = forms
		case errors.Is(err, teaching.ErrTooManyTrials), errors.Is(err, domain.ErrInvalid):
			site.AddFlash(c, site.FlashError, site.Sentence(err.Error()))
			h.Site.Redirect(c, "/learn/collections#live", "")
			return
		default:
			h.Site.Fail(c, err)
			return
		}
	}
	if h.Deps.Lab != nil {
		s, err := runSuper(ctx, h.Deps.Lab, frame.ScratchSession(), change)
		if err != nil {
			h.Site.Fail(c, err)
			return
		}
		r.Super = &s
	}
	h.runs.Put(session, r)
	h.Site.Redirect(c, "/learn/collections#live", "the address book")
}

// runForms runs the change on every form, each in a partition of its own.
func runForms(ctx context.Context, h *handler, learner string, change teaching.AddressChange) ([]teaching.AddressRun, error) {
	var out []teaching.AddressRun
	for _, f := range teaching.AddressForms {
		r, err := h.Deps.AddressBook.RunAddress(ctx, learner, frame.ScratchSession(), f, change)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// nodeContext is ctx for the statements of the address book lab: in compare mode the node is the
// second model's, so a note says so and the statements go to that model's side of the log.
func (h *handler) nodeContext(ctx context.Context) context.Context {
	if h.Deps.Backend == "cql3" || h.Deps.CompareBackend != "cql3" {
		return ctx
	}
	l := oplog.LogFrom(ctx)
	if l == nil {
		return ctx
	}
	l.Record(oplog.Op{Model: h.Deps.Backend, Kind: oplog.Note, Call: "addressbook", Text: "addressbook: the four forms are written on " +
		h.Deps.CompareBackend + ", compare mode's second model: " + h.Deps.Backend + " has no CQL"})
	return oplog.With(ctx, l.Shadow(h.Deps.CompareBackend))
}

// console is the lesson's CQL console, ready to run: seed 004's AddressBook entry as a row with a map.
var console = frame.ConsoleOffer{Language: "cql", Statements: []string{
	"CREATE TABLE IF NOT EXISTS address_book (owner text, name text, address map<text, text>, PRIMARY KEY (owner, name));",
	"INSERT INTO address_book (owner, name, address) VALUES ('phatduckk', 'John', {'street': 'Howard street', 'zip': '94404'});",
	"UPDATE address_book SET address['city'] = 'San Francisco' WHERE owner = 'phatduckk' AND name = 'John';",
	"SELECT * FROM address_book WHERE owner = 'phatduckk';",
}}
