package pages

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"twissandra/ports"
)

// The partition lessons: the widest rows or partitions of the running store, and the public
// line's layout in its model (one hot row on 0.6, a partition per day on cql3), measured now.

const partitionsShown = 20

type partitionsData struct {
	Available bool
	Backend   string
	Widest    ports.RowSizes
	Public    ports.PublicLayout
	MaxPublic int
	Error     string
}

func (h *handler) partitions(c *gin.Context) {
	d := partitionsData{Available: h.deps.Sizes != nil, Backend: h.deps.Backend}
	if !d.Available {
		h.render(c, http.StatusOK, "partitions", "Partitions", "models", d)
		return
	}
	ctx := c.Request.Context()
	var err error
	if d.Widest, err = h.deps.Sizes.WidestRows(ctx, partitionsShown); err == nil {
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
