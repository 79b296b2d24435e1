// Package teach puts Twissandra's teaching room into the frame of package site: it checks the
// teaching views' Deps, builds the room's packages on them and adds their routes, and installs
// the footer of every page (site.Teacher), which says what the page cost the storage, in each
// model's own words. The room itself is in the packages below:
//
//   - frame: what every teaching view shares (the footer and banner, the action and cost
//     ledgers, the gates, the notation, the shared components, the schema helpers);
//   - models: the models page, the inspectors, where a record lives, partitions, generations;
//   - labs: the comparator and consistency labs, the race, the celebrity page, and each
//     browser's lab memory;
//   - course: /learn, the reference pages, and the one list of the lessons;
//   - class: the instructor's page (/instructor) and the class's API;
//   - lessons: a package a lesson, each its handler, component and test;
//   - static: the figures the pages embed.
//
// The footer comes through the site's Teacher hook: the site renders what the frame gives it,
// and the product's pages (package pages) say what they are (a measured home page, a form's
// action) through the site, never to the teaching room.
package teach

import (
	"errors"

	"twissandra/web/site"
	"twissandra/web/teach/class"
	"twissandra/web/teach/course"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/models"
	"twissandra/web/teach/static"
)

// Deps are the teaching views' collaborators.
type Deps = frame.Deps

// Scratch is what Deps.Sandbox opens: a scratch store the celebrity lesson's sandbox runs on.
type Scratch = frame.Scratch

// Gates are the bounds of the runs anyone may start (frame.Gates).
type Gates = frame.Gates

// GateLimits are one gate's (frame.GateLimits).
type GateLimits = frame.GateLimits

// Register adds the teaching views to the site: their routes and static files, and the footer
// of every page (site.Teacher).
func Register(st *site.Site, deps Deps) error {
	if deps.Social == nil {
		return errors.New("teach: Deps.Social is required")
	}
	// A nil pointer from an optional fx dependency is no collaborator.
	frame.NoneIfNil(&deps.Wide)
	frame.NoneIfNil(&deps.CQL)
	frame.NoneIfNil(&deps.Lab)
	frame.NoneIfNil(&deps.Consistency)
	frame.NoneIfNil(&deps.ClusterLevels)
	frame.NoneIfNil(&deps.Claims)
	frame.NoneIfNil(&deps.Sizes)
	frame.NoneIfNil(&deps.CompareSizes)
	frame.NoneIfNil(&deps.Locator)
	frame.NoneIfNil(&deps.Actions)
	if deps.Actions == nil {
		deps.Actions = frame.NewMemoryLedger()
	}
	frame.NoneIfNil(&deps.QueryLab)
	frame.NoneIfNil(&deps.Ring)
	frame.NoneIfNil(&deps.CompareRing)
	frame.NoneIfNil(&deps.Progress)
	frame.NoneIfNil(&deps.AddressBook)
	frame.NoneIfNil(&deps.Counters)
	frame.NoneIfNil(&deps.Storage)
	frame.NoneIfNil(&deps.NodeViews)
	frame.NoneIfNil(&deps.IndexLab)
	frame.NoneIfNil(&deps.Classes)
	deps.Consoles = frame.PresentConsoles(deps.Consoles)
	if deps.Backend == "" {
		deps.Backend = "memory"
	}
	deps.Gates = deps.Gates.Or(labs.DefaultGates())
	b := &frame.Base{Deps: deps, Site: st, Log: st.Logger(), Actions: deps.Actions,
		RaceGate: frame.NewGate("race", deps.Gates.Race), LabGate: frame.NewGate("lab", deps.Gates.Lab),
		TrialsGate:  frame.NewGate("run of trials", deps.Gates.Trials),
		RingGate:    frame.NewGate("drawing of a ring", deps.Gates.Rings),
		SandboxGate: frame.NewGate("sandbox", deps.Gates.Sandbox)}
	if deps.QueryFirstDDL != "" {
		d := frame.Chebotko(deps.QueryFirstDDL)
		b.Diagram = &d
	}
	st.Static(static.FS, "celebrity.svg", "celebrity-simulation.svg")
	g := st.Routes()
	mh := &models.Handler{Base: b}
	mh.Register(g)
	lh := labs.New(mh)
	lh.Register(g)
	course.Register(g, lh)
	class.Register(g, b)
	st.Teach(b)
	return nil
}

// DefaultGates are the gates' bounds unless configured (labs.DefaultGates).
func DefaultGates() Gates { return labs.DefaultGates() }
