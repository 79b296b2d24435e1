package frame

import (
	"context"
	"io"
	"slices"
	"strconv"
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
	// OpsSummary is the page's headline of its cost (oplog.Log.Headline): its storage calls,
	// and apart from them its notes.
	OpsSummary string
	// Action is what the action that redirected here cost (a post, a follow), if any.
	Action *actionOps
	// Secondary is what this page cost the second model (compare mode), Elapsed the first
	// model's time (timed in compare mode only). The reads the two answered differently are at
	// the top of the page (Banner).
	Secondary *opsSet
	Elapsed   time.Duration
	// Queries is what the page says of the access patterns it served (queryBlocks).
	Queries []byte
	// Cached says that caches answered some lookups (ops starting with "cache "), so the same
	// page may cost more on a first visit.
	Cached bool
}

// divergence is one report of compare mode: a read the two models answered differently, or a
// call the second model failed; Of says whose (the action that redirected here, or "").
type divergence struct {
	Of, Text string
}

// Banner is the top of the page rendered in answer to c, in compare mode: the divergences of
// the action that redirected here and of this page, where the learner sees them first. Nothing
// when there are none.
func (h *Base) Banner(c *gin.Context) templ.Component {
	var ds []divergence
	if a := h.actionOf(c); a != nil {
		for _, op := range a.Ops {
			if op.Kind == oplog.Divergence {
				ds = append(ds, divergence{Of: a.Action, Text: op.Text})
			}
		}
	}
	ops, _ := oplog.LogFrom(c.Request.Context()).Ops()
	for _, op := range ops {
		if op.Kind == oplog.Divergence {
			ds = append(ds, divergence{Text: op.Text})
		}
	}
	if len(ds) == 0 {
		return nil
	}
	return divergences(ds)
}

// actionKey keeps, in the request's gin context, the session's last action once taken.
const actionKey = "twissandra.teach.action"

// actionOf is the session's last action (takeActionOps), taken once per request: the banner
// and the footer both show it.
func (h *Base) actionOf(c *gin.Context) *actionOps {
	if v, ok := c.Get(actionKey); ok {
		a, _ := v.(*actionOps)
		return a
	}
	a := h.takeActionOps(c)
	c.Set(actionKey, a)
	return a
}

// Footer is the footer of the page rendered in answer to c.
func (h *Base) Footer(c *gin.Context) templ.Component {
	v := footerData{Backend: h.Deps.Backend, Action: h.actionOf(c), Queries: h.queries.block(site.Served(c))}
	ops := oplog.LogFrom(c.Request.Context())
	v.Ops, v.OpsDropped = ops.Ops()
	v.OpsSummary = ops.Headline()
	if v.Secondary = secondaryOps(ops); v.Secondary != nil {
		v.Elapsed = ops.Elapsed().Round(time.Microsecond)
	}
	v.Cached = slices.ContainsFunc(v.Ops, isCacheOp) || (v.Action != nil && slices.ContainsFunc(v.Action.Ops, isCacheOp))
	return footer(v)
}

// Acted keeps what the form's action that c carried cost, for the next page (actionOps).
func (h *Base) Acted(c *gin.Context, action string) { h.keepActionOps(c, action) }

// Measured keeps the cost of the last home timeline page and of the last post (costLedger).
func (h *Base) Measured(c *gin.Context, kind site.Measured) {
	m := costOf(oplog.LogFrom(c.Request.Context()))
	if m == nil {
		return
	}
	m.Who = site.User(c)
	switch kind {
	case site.HomeTimelinePage:
		h.Costs.Page.Store(m)
	case site.Post:
		h.Costs.Post.Store(m)
	}
}

// isCacheOp reports whether op says a cache answered, not the store.
func isCacheOp(op oplog.Op) bool { return strings.HasPrefix(op.Text, "cache ") }

// opList is the <ol> of a model's operations, each its text in the model's notation, its kind,
// the consistency level it ran at, the coordinator that answered it (cql3), the token of its
// row key when it addressed one (widerow) and its time:
//
//	<li class="op op-read"><code>get_slice …</code> <span class="op-meta">read · <span class="op-cl">CL QUORUM</span> · 12 µs</span></li>
//
// It is written in Go, not templ, because it runs per operation on every page (templ formats each
// text expression through fmt): the text is escaped as templ escapes it.
func opList(ops []oplog.Op) templ.Component {
	return OpList(ops)
}

// OpList is the footer's list of ops, for a page that shows a measured action's operations
// apart (the celebrity lesson's sandbox).
func OpList(ops []oplog.Op) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		n := 16
		for i := range ops {
			n += len(ops[i].Text) + 140 // the markup around it, and room to escape
			if ops[i].Consistency != "" {
				n += len(ops[i].Consistency) + 40
			}
			if ops[i].Coordinator != "" {
				n += len(ops[i].Coordinator) + 56
			}
			if len(ops[i].Tokens) == 1 {
				n += len(ops[i].Tokens[0]) + 40
			}
		}
		b := make([]byte, 0, n)
		b = append(b, "<ol>"...)
		for _, op := range ops {
			b = append(b, `<li class="op op-`...)
			b = site.AppendEscaped(b, string(op.Kind))
			b = append(b, `"><code>`...)
			b = site.AppendEscaped(b, op.Text)
			b = append(b, `</code> <span class="op-meta">`...)
			b = site.AppendEscaped(b, string(op.Kind))
			if op.Consistency != "" {
				b = append(b, ` · <span class="op-cl">CL `...)
				b = site.AppendEscaped(b, op.Consistency)
				b = append(b, "</span>"...)
			}
			if op.Coordinator != "" {
				b = append(b, ` · <span class="op-coordinator">coordinator `...)
				b = site.AppendEscaped(b, op.Coordinator)
				b = append(b, "</span>"...)
			}
			if len(op.Tokens) == 1 { // a call of one row: its key's token (more are in the JSON record)
				b = append(b, ` · <span class="op-token">token `...)
				b = site.AppendEscaped(b, op.Tokens[0])
				b = append(b, "</span>"...)
			}
			if op.Took != 0 {
				b = append(b, " · "...)
				b = strconv.AppendFloat(b, float64(op.Took)/float64(time.Microsecond), 'f', 0, 64)
				b = append(b, " µs"...)
			}
			b = append(b, "</span></li>"...)
		}
		b = append(b, "</ol>"...)
		_, err := w.Write(b)
		return err
	})
}
