package teach

import (
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// Lesson 1: the pieces of the 0.6 model (keyspace, column family, row, the column triple, the
// super column), each written by the learner into a primer row of the lab's scratch keyspace
// and read back in the articles' notation, with its timestamp.

func init() {
	addLesson(lesson{N: 1, Slug: "primer", Title: "The pieces: keyspace, column family, row, column",
		Summary: "Write a column (a name, a value and a timestamp) and a super column of seed 004's AddressBook into a row of your own, and read them back as the articles write them.",
		show:    showPrimer})
}

type primerData struct {
	Available   bool
	Back        string
	Keyspaces   []teaching.WideKeyspace
	Standard    teaching.WideCF // Scratch.UTF8s
	AddressBook teaching.WideCF // Scratch.AddressBook
	Rows        []primerRow
	Last        *labPutRun
	Triple      []string // the last column as seed 004 writes one, line by line
	Form        teaching.LabPut
	SuperForm   teaching.LabPut
	Error       string // the standard form's refusal
	SuperError  string // the super form's
}

type primerRow struct {
	Stored teaching.LabStored
	Lines  []notationLine
}

// labPutRun is the browser's last column written by hand: what it asked, the call, and the
// column as the row holds it (with its timestamp).
type labPutRun struct {
	Put    teaching.LabPut
	Call   string
	Column teaching.WideColumn
}

func showPrimer(h *handler, c *gin.Context) (templ.Component, error) {
	d := primerData{Available: h.deps.Lab != nil, Back: "/learn/primer", Keyspaces: h.schemaKeyspaces(),
		Form:      teaching.LabPut{Name: "emailAddress", Value: "arin@example.com"},
		SuperForm: teaching.LabPut{SuperColumn: "John", Name: "street", Value: "Howard street"}}
	d.Standard, _ = h.schemaCF("Scratch", teaching.PrimerStandard)
	d.AddressBook, _ = h.schemaCF("Scratch", teaching.PrimerSuper)
	if !d.Available {
		return primerView(d), nil
	}
	st := h.recalled(c)
	if id := labSession(c, false); id != "" {
		rows, err := h.deps.Lab.Primer(c.Request.Context(), id)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			d.Rows = append(d.Rows, primerRow{Stored: r, Lines: notation(r.ColumnFamily, r.Key, r.Columns)})
		}
	}
	if p := st.Put; p != nil {
		d.Last, d.Triple = p, columnTriple(p)
		if p.Put.SuperColumn != "" {
			d.SuperForm = p.Put
		} else {
			d.Form = p.Put
		}
	}
	if r := st.refusal("put"); r != nil {
		p := teaching.LabPut{SuperColumn: r.Form["super"], Name: r.Form["name"], Value: r.Form["value"]}
		if r.Form["kind"] == "super" {
			d.SuperForm, d.SuperError = p, r.Msg
		} else {
			d.Form, d.Error = p, r.Msg
		}
	}
	return primerView(d), nil
}

// columnTriple writes the last column as seed 004 writes a column, or a super column with it.
func columnTriple(p *labPutRun) []string {
	ts := strconv.FormatInt(p.Column.Timestamp, 10)
	if d := domain.MicrosDate(p.Column.Timestamp); d != "" {
		ts += "  // " + d
	}
	if p.Put.SuperColumn == "" {
		return []string{
			"{  // this is a column",
			"    name: " + strconv.Quote(p.Put.Name) + ",",
			"    value: " + strconv.Quote(p.Put.Value) + ",",
			"    timestamp: " + ts,
			"}",
		}
	}
	return []string{
		"{   // this is a SuperColumn",
		"    name: " + strconv.Quote(p.Put.SuperColumn) + ",",
		"    value: {",
		"        " + p.Put.Name + ": {name: " + strconv.Quote(p.Put.Name) + ", value: " + strconv.Quote(p.Put.Value) + ", timestamp: " + strconv.FormatInt(p.Column.Timestamp, 10) + "},",
		"    }",
		"}",
	}
}

// labPut writes one column by hand into the browser's primer row (lesson 1).
func (h *handler) labPut(c *gin.Context) {
	if h.labUnavailable(c) {
		return
	}
	form := postForm(c, "kind", "super", "name", "value")
	p := teaching.LabPut{Name: form["name"], Value: form["value"]}
	anchor := "primer-standard"
	if form["kind"] == "super" {
		p.SuperColumn, anchor = form["super"], "primer-super"
		if strings.TrimSpace(p.SuperColumn) == "" {
			h.labDone(c, "put", anchor, "your column", domain.Invalid("super column", "a subcolumn needs its super column's name"), form)
			return
		}
	}
	stored, err := h.deps.Lab.Put(c.Request.Context(), labSession(c, true), p)
	if err == nil {
		run := &labPutRun{Put: p, Call: stored.Call, Column: writtenColumn(stored, p)}
		h.remember(c, func(s *labState) { s.Put = run })
	}
	h.labDone(c, "put", anchor, "your column", err, form)
}

// writtenColumn finds the column p wrote in the row read back (its timestamp is the row's).
func writtenColumn(row teaching.LabStored, p teaching.LabPut) teaching.WideColumn {
	find := func(cols []teaching.WideColumn, name string) *teaching.WideColumn {
		for i := range cols {
			if cols[i].Name == name || cols[i].Name == strconv.Quote(name) {
				return &cols[i]
			}
		}
		return nil
	}
	cols := row.Columns
	if p.SuperColumn != "" {
		sc := find(cols, p.SuperColumn)
		if sc == nil {
			return teaching.WideColumn{}
		}
		cols = sc.Columns
	}
	if col := find(cols, p.Name); col != nil {
		return *col
	}
	return teaching.WideColumn{}
}

// rowCount is how many columns (or super columns) a primer row holds.
func rowCount(r primerRow) int { return len(r.Stored.Columns) }
