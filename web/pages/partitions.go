package pages

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"twissandra/ports"
)

// The partition lessons: the widest rows or partitions of the running store, and the public
// line's layout in its model (one hot row on 0.6, a partition per day on cql3), measured now.

// partitionsShown is how many of the widest rows the page lists, unless ?limit= says otherwise
// (at most partitionsMax).
const (
	partitionsShown = 20
	partitionsMax   = 200
)

type partitionsData struct {
	Available bool
	Backend   string
	Limit     int
	Widest    ports.RowSizes
	Public    ports.PublicLayout
	MaxPublic int
	Error     string
}

func (h *handler) partitions(c *gin.Context) {
	d := partitionsData{Available: h.deps.Sizes != nil, Backend: h.deps.Backend, Limit: partitionsShown}
	if v, ok := c.GetQuery("limit"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > partitionsMax {
			d.Available = false
			d.Error = fmt.Sprintf("limit %q: list from 1 to %d of the widest rows.", v, partitionsMax)
			h.render(c, http.StatusBadRequest, "partitions", "Partitions", "models", d)
			return
		}
		d.Limit = n
	}
	if !d.Available {
		h.render(c, http.StatusOK, "partitions", "Partitions", "models", d)
		return
	}
	ctx := c.Request.Context()
	var err error
	if d.Widest, err = h.deps.Sizes.WidestRows(ctx, d.Limit); err == nil {
		d.Public, err = h.deps.Sizes.PublicLine(ctx)
	}
	if err != nil {
		d.Error = "Measuring the store failed: " + err.Error()
		h.log.Error("partitions", "err", err)
		h.render(c, statusOf(err), "partitions", "Partitions", "models", d)
		return
	}
	for _, r := range d.Public.Rows {
		d.MaxPublic = max(d.MaxPublic, r.Cells)
	}
	h.render(c, http.StatusOK, "partitions", "Partitions", "models", d)
}
