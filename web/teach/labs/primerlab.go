package labs

import (
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// LabPutRun is the browser's last column written by hand: what it asked, the call, and the
// column as the row holds it (with its timestamp).
type LabPutRun struct {
	Put    teaching.LabPut
	Call   string
	Column teaching.WideColumn
}

// labPut writes one column by hand into the browser's primer row (lesson 1).
func (h *Handler) labPut(c *gin.Context) {
	if h.labUnavailable(c) {
		return
	}
	form := PostForm(c, "kind", "super", "name", "value")
	p := teaching.LabPut{Name: form["name"], Value: form["value"]}
	anchor := "primer-standard"
	if form["kind"] == "super" {
		p.SuperColumn, anchor = form["super"], "primer-super"
		if strings.TrimSpace(p.SuperColumn) == "" {
			h.labDone(c, "put", anchor, "your column", domain.Invalid("super column", "a subcolumn needs its super column's name"), form)
			return
		}
	}
	stored, err := h.Deps.Lab.Put(c.Request.Context(), LabSession(c, true), p)
	if err == nil {
		run := &LabPutRun{Put: p, Call: stored.Call, Column: writtenColumn(stored, p)}
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
