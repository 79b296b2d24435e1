// Package labs serves the teaching room's labs, where a learner runs something on a store of
// the lab's own or a sandbox: the comparator and slice lab (and its primer and replica forms),
// the consistency lab's ring of three replicas, the uniqueness race, the celebrity page with
// its figures and simulation, and the celebrity lesson's sandbox on a scratch store. It keeps what each browser's forms did last (its lab memory),
// which the lessons show too.
package labs

//go:generate go tool templ generate -path .

import (
	"github.com/gin-gonic/gin"

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
}
