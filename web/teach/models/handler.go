// Package models serves the teaching room's views of the data models: the models page (the
// running backend's schema beside the other model's), the storage inspectors of the widerow
// engine's rows and of the cql3 backend's partitions, where a record lives, the widest rows and
// partitions, and three generations of the data model with their Chebotko diagram.
package models

//go:generate go tool templ generate -path .

import (
	"github.com/gin-gonic/gin"

	"twissandra/web/teach/frame"
)

// Handler serves the models pages. The labs and the lessons build on it: they show what it
// shows (a record's places, a row in notation) with its helpers.
type Handler struct{ *frame.Base }

// Register adds the models pages' routes.
func (h *Handler) Register(g *gin.RouterGroup) {
	g.GET("models", h.Models)
	g.GET("models/inspect", h.Inspect)
	g.GET("models/where", h.Locate)
	g.GET("models/partitions", h.Partitions)
	g.GET("models/generations", h.Generations)
}
