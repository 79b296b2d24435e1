package models

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"twissandra/ports/teaching"
	"twissandra/web/site"
)

// The partition lessons: the widest rows or partitions of the running store, and the public
// line's layout in its model (one hot row on 0.6, a partition per day on cql3), measured now;
// in compare mode, of both models.

// partitionsShown is how many of the widest rows the page lists, unless ?limit= says otherwise
// (at most partitionsMax).
const (
	partitionsShown = 20
	PartitionsMax   = 200
)

type partitionsData struct {
	Available bool
	Limit     int
	// Models are the running backend's figures, then compare mode's second backend's.
	Models []partitionsModel
	Error  string
}

// partitionsModel is one backend's figures. Suffix tells its elements' ids apart from the
// first model's ("" for the first); Many says the page shows two models, Limit its ?limit=.
type partitionsModel struct {
	Backend   string
	Suffix    string
	Many      bool
	Limit     int
	Widest    teaching.RowSizes
	Public    teaching.PublicLayout
	MaxPublic int
}

func (h *Handler) Partitions(c *gin.Context) {
	d := partitionsData{Available: h.Deps.Sizes != nil, Limit: partitionsShown}
	page := func(status int) {
		h.Site.Render(c, status, site.Page{Title: "Partitions", Nav: "models", Content: partitionsView(d)})
	}
	if v, ok := c.GetQuery("limit"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > PartitionsMax {
			d.Available = false
			d.Error = fmt.Sprintf("limit %q: list from 1 to %d of the widest rows.", v, PartitionsMax)
			page(http.StatusBadRequest)
			return
		}
		d.Limit = n
	}
	if !d.Available {
		page(http.StatusOK)
		return
	}
	ctx := c.Request.Context()
	m, err := Measure(ctx, h.Deps.Sizes, h.Deps.Backend, d.Limit)
	if err == nil {
		d.Models = append(d.Models, m)
		if h.Deps.CompareSizes != nil {
			m, err = Measure(ctx, h.Deps.CompareSizes, h.Deps.CompareBackend, d.Limit)
			// The inspector reads the running backend only.
			for i := range m.Widest.Rows {
				m.Widest.Rows[i].Inspect = ""
			}
			for i := range m.Public.Rows {
				m.Public.Rows[i].Inspect = ""
			}
			m.Suffix = "-" + m.Backend
			d.Models = append(d.Models, m)
		}
	}
	if err != nil {
		d.Error = "Measuring the store failed: " + err.Error()
		h.Log.Error("partitions", "err", err)
		page(StatusOf(err))
		return
	}
	for i := range d.Models {
		d.Models[i].Many, d.Models[i].Limit = len(d.Models) > 1, d.Limit
	}
	page(http.StatusOK)
}

func Measure(ctx context.Context, s teaching.RowSizer, backend string, limit int) (partitionsModel, error) {
	m := partitionsModel{Backend: backend}
	var err error
	if m.Widest, err = s.WidestRows(ctx, limit); err != nil {
		return m, fmt.Errorf("%s: %w", backend, err)
	}
	if m.Public, err = s.PublicLine(ctx); err != nil {
		return m, fmt.Errorf("%s: %w", backend, err)
	}
	for _, r := range m.Public.Rows {
		m.MaxPublic = max(m.MaxPublic, r.Cells)
	}
	return m, nil
}

// ContainerName is what holds the rows measured in unit: a table, a column family or a map.
func ContainerName(unit string) string {
	switch unit {
	case "rows":
		return "table"
	case "columns":
		return "column family"
	}
	return "map"
}
