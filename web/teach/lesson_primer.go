package teach

import (
	"strconv"

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

// rowCount is how many columns (or super columns) a primer row holds.
func rowCount(r primerRow) int { return len(r.Stored.Columns) }
