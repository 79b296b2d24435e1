// Package labs serves the teaching room's labs, where a learner runs something on a store of
// the lab's own or a sandbox: the comparator and slice lab (and its primer and replica forms),
// the consistency lab's ring of three replicas, the uniqueness race, the celebrity page with
// its figures and simulation, and the celebrity lesson's sandbox on a scratch store. It keeps what each browser's forms did last (its lab memory),
// which the lessons show too.
package labs

//go:generate go tool templ generate -path .

import (
	"context"
	"errors"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
	"twissandra/web/teach/models"
)

// Handler serves the labs, and holds each browser's lab memory. The lessons build on it.
type Handler struct {
	*models.Handler
	memory *labMemory // what each browser's lab and race forms did last
}

// New is the labs of the models pages' h.
func New(h *models.Handler) *Handler { return &Handler{Handler: h, memory: newLabMemory()} }

// Register adds the labs' routes.
func (h *Handler) Register(g *gin.RouterGroup) {
	h.registerLab(g)
	h.registerConsistency(g)
	g.GET("models/celebrity", h.Celebrity)
	g.GET("models/race", h.RacePage)
	g.POST("models/race", h.Admit(h.RaceGate), h.RunRace)
	h.registerConsole(g)
}

// QueryLabContext is ctx for a trial on the query lab: in compare mode the node is the second
// model's, so a note says so and the lab's statements go to that model's side of the log.
func (h *Handler) QueryLabContext(ctx context.Context) context.Context {
	if h.Deps.Backend == "cql3" || h.Deps.CompareBackend != "cql3" {
		return ctx
	}
	l := oplog.LogFrom(ctx)
	if l == nil {
		return ctx
	}
	l.Record(oplog.Op{Model: h.Deps.Backend, Kind: oplog.Note, Call: "querylab", Text: "querylab: the key is tried on " +
		h.Deps.CompareBackend + ", compare mode's second model: " + h.Deps.Backend + " has no CQL"})
	return oplog.With(ctx, l.Shadow(h.Deps.CompareBackend))
}

// QueryLabOnNode says the query lab tries keys on a cql3 node (the backend's, or compare mode's
// second model's).
func (h *Handler) QueryLabOnNode() bool {
	return h.Deps.QueryLab != nil && (h.Deps.Backend == "cql3" || h.Deps.CompareBackend == "cql3")
}

// QueryLabError is err of a trial on the query lab as an exercise's grading answers it: a busy
// lab (too many trials, the cluster's bound on schema changes) is a 429 that says when to try again.
func QueryLabError(err error) error {
	if errors.Is(err, teaching.ErrTooManyTrials) {
		return &domain.RetryError{After: 5 * time.Second, Message: err.Error()}
	}
	return err
}
