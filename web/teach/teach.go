// Package teach serves Twissandra's teaching views in the frame of package site: the "Models"
// pages (the running backend's schema beside the other model's, the storage inspector of the
// widerow engine's rows and the cql3 backend's partitions, where a record lives, the comparator
// lab, the partition lessons, three generations of the data model, the celebrity problem, the
// uniqueness race), and the footer of every page, which says what the page cost the storage, in
// each model's own words.
//
// The footer comes through the site's Teacher hook: the site renders what this package gives
// it, and the product's pages (package pages) say what they are (a measured home page, a form's
// action) through the site, never to this package.
package teach

import (
	"errors"

	"github.com/gin-gonic/gin"

	"twissandra/web/site"
	"twissandra/web/teach/static"
)

// The views are templ components in the .templ files (see views.go); this writes their Go.
//go:generate go tool templ generate -path .

// Register adds the teaching views to the site: their routes and static files, and the footer
// of every page (site.Teacher).
func Register(st *site.Site, deps Deps) error {
	if deps.Social == nil {
		return errors.New("teach: Deps.Social is required")
	}
	// A nil pointer from an optional fx dependency is no collaborator.
	noneIfNil(&deps.Wide)
	noneIfNil(&deps.CQL)
	noneIfNil(&deps.Lab)
	noneIfNil(&deps.Consistency)
	noneIfNil(&deps.ClusterLevels)
	noneIfNil(&deps.Claims)
	noneIfNil(&deps.Sizes)
	noneIfNil(&deps.CompareSizes)
	noneIfNil(&deps.Locator)
	noneIfNil(&deps.Actions)
	if deps.Actions == nil {
		deps.Actions = newMemoryLedger()
	}
	noneIfNil(&deps.QueryLab)
	noneIfNil(&deps.Ring)
	noneIfNil(&deps.CompareRing)
	if deps.Backend == "" {
		deps.Backend = "memory"
	}
	h := &handler{deps: deps, site: st, log: st.Logger(), actions: deps.Actions, labs: newLabMemory(),
		raceGate: newGate("race", raceTotal, 1, racesPerMinute), labGate: newGate("lab", labTotal, labPerAddr, labPerMinute)}
	if deps.QueryFirstDDL != "" {
		d := chebotko(deps.QueryFirstDDL)
		h.diagram = &d
	}
	st.Static(static.FS, "celebrity.svg", "celebrity-simulation.svg")
	h.routes(st.Routes())
	st.Teach(h)
	return nil
}

func (h *handler) routes(g *gin.RouterGroup) {
	h.registerCourse(g)
	h.registerReference(g)
	h.registerLessonForms(g)
	g.GET("models", h.models)
	g.GET("models/inspect", h.inspect)
	g.GET("models/where", h.locate)
	h.registerLab(g)
	h.registerConsistency(g)
	g.GET("models/partitions", h.partitions)
	g.GET("models/generations", h.generations)
	g.GET("models/celebrity", h.celebrity)
	g.GET("models/race", h.racePage)
	g.POST("models/race", h.admit(h.raceGate), h.runRace)
}
