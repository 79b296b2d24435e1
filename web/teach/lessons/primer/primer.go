// Package primer is lesson 1 of the course: the pieces of the 0.6 model (keyspace, column family,
// row, the column triple, the super column), each written by the learner into a primer row of the
// lab's scratch keyspace and read back in the articles' notation, with its timestamp.
package primer

//go:generate go tool templ generate -path .

import (
	"strconv"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Slug: "primer", Title: "The pieces: keyspace, column family, row, column",
		Summary:   "Write a column (a name, a value and a timestamp) and a super column of seed 004's AddressBook into a row of your own, and read them back as the articles write them.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showPrimer(h, c) },
		Topics:    []string{"column", "row", "column family", "keyspace", "super column", "0.6"},
		Exercises: exercises(h.Deps.Lab, h.LabGate)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

type primerData struct {
	Available   bool
	Back        string
	Keyspaces   []teaching.WideKeyspace
	Standard    teaching.WideCF // Scratch.UTF8s
	AddressBook teaching.WideCF // Scratch.AddressBook
	Rows        []primerRow
	Last        *labs.LabPutRun
	Triple      []string // the last column as seed 004 writes one, line by line
	Form        teaching.LabPut
	SuperForm   teaching.LabPut
	Error       string // the standard form's refusal
	SuperError  string // the super form's
}

type primerRow struct {
	Stored teaching.LabStored
	Lines  []frame.NotationLine
}

func showPrimer(h *handler, c *gin.Context) (templ.Component, error) {
	d := primerData{Available: h.Deps.Lab != nil, Back: "/learn/primer", Keyspaces: h.SchemaKeyspaces(),
		Form:      teaching.LabPut{Name: "emailAddress", Value: "arin@example.com"},
		SuperForm: teaching.LabPut{SuperColumn: "John", Name: "street", Value: "Howard street"}}
	d.Standard, _ = h.SchemaCF("Scratch", teaching.PrimerStandard)
	d.AddressBook, _ = h.SchemaCF("Scratch", teaching.PrimerSuper)
	if !d.Available {
		return primerView(d), nil
	}
	st := h.Recalled(c)
	if id := labs.LabSession(c, false); id != "" {
		rows, err := h.Deps.Lab.Primer(c.Request.Context(), id)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			d.Rows = append(d.Rows, primerRow{Stored: r, Lines: frame.Notation(r.ColumnFamily, r.Key, r.Columns)})
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
	if r := st.Refusal("put"); r != nil {
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
func columnTriple(p *labs.LabPutRun) []string {
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

// rowCount is how many columns (or super columns) a primer row holds.
func rowCount(r primerRow) int { return len(r.Stored.Columns) }
