package teach

import (
	"slices"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/ports/oplog"
	"twissandra/web/site"
)

// The footer of every page says what it cost the storage: the operations of the request, in
// each model's own words; above them, what the form's action that redirected here cost (a post,
// a follow); in compare mode, the second model's side and the reads the two answered
// differently; below them, the access patterns the page serves and whether a cache answered.
// The site renders it at the head of its layout's footer (site.Teacher).

// footerData is what the footer shows (footer.templ).
type footerData struct {
	Backend    string
	Ops        []oplog.Op
	OpsDropped int
	OpsSummary string
	// Action is what the action that redirected here cost (a post, a follow), if any.
	Action *actionOps
	// Secondary is what this page cost the second model (compare mode), Elapsed the first
	// model's time (timed in compare mode only), Divergences the reads the two answered
	// differently and the secondary's failures.
	Secondary   *opsSet
	Elapsed     time.Duration
	Divergences []string
	// Queries are the access patterns this page serves (accessPatterns).
	Queries []accessPattern
	// Cached says that caches answered some lookups (ops starting with "cache "), so the same
	// page may cost more on a first visit.
	Cached bool
}

// Footer is the footer of the page rendered in answer to c.
func (h *handler) Footer(c *gin.Context) templ.Component {
	v := footerData{Backend: h.deps.Backend, Action: h.takeActionOps(c), Queries: queriesOf(c)}
	ops := oplog.LogFrom(c.Request.Context())
	v.Ops, v.OpsDropped = ops.Ops()
	v.OpsSummary = ops.Summary()
	if v.Secondary = secondaryOps(ops); v.Secondary != nil {
		v.Elapsed = ops.Elapsed().Round(time.Microsecond)
		for _, op := range v.Ops {
			if op.Kind == oplog.Divergence {
				v.Divergences = append(v.Divergences, op.Text)
			}
		}
	}
	v.Cached = slices.ContainsFunc(v.Ops, isCacheOp) || (v.Action != nil && slices.ContainsFunc(v.Action.Ops, isCacheOp))
	return footer(v)
}

// Acted keeps what the form's action that c carried cost, for the next page (actionOps).
func (h *handler) Acted(c *gin.Context, action string) { h.keepActionOps(c, action) }

// Measured keeps the cost of the last home timeline page and of the last post (costLedger).
func (h *handler) Measured(c *gin.Context, kind site.Measured) {
	m := costOf(oplog.LogFrom(c.Request.Context()))
	if m == nil {
		return
	}
	switch kind {
	case site.HomeTimelinePage:
		h.costs.page.Store(m)
	case site.Post:
		h.costs.post.Store(m)
	}
}

// isCacheOp reports whether op says a cache answered, not the store.
func isCacheOp(op oplog.Op) bool { return strings.HasPrefix(op.Text, "cache ") }
