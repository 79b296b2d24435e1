// Package slices is lesson 2 of the course: comparators and slices, on the comparator lab: the
// learner's names under the six comparators side by side (the seeds' 3, 123, 976, 832416, and four
// UUIDs), then get_slice with start, finish, reversed and count.
package slices

//go:generate go tool templ generate -path .

import (
	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Consoles: []frame.ConsoleOffer{console},
		Slug: "slices", Title: "Comparators and slices",
		Summary:   "Store the seeds' 3, 123, 976 and 832416 under the six comparators side by side, see their bytes, and slice them with start, finish, reversed and count.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showSlices(h, c) },
		Topics:    []string{"comparators", "slices", "0.6"},
		Exercises: exercises(h.Deps.Lab, h.LabGate)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

type slicesData struct {
	Lab      labs.LabData
	Timeline teaching.WideCF // Twissandra.Timeline, the application's LongType row
	Tagged   teaching.WideCF // BloggyAppy.TaggedPosts, its TimeUUIDType row
}

func showSlices(h *handler, c *gin.Context) (templ.Component, error) {
	d := slicesData{Lab: h.LabData(c, "/learn/slices")}
	d.Timeline, _ = h.SchemaCF("Twissandra", "Timeline")
	d.Tagged, _ = h.SchemaCF("BloggyAppy", "TaggedPosts")
	return slicesView(d), nil
}

// console is the lesson's cassandra-cli console, ready to run: the seeds' numbers under LongType and under UTF8Type, then slices of them.
var console = frame.ConsoleOffer{Language: "cli", Statements: []string{
	"set Sandbox.Longs['seeds'][3] = 'three'",
	"set Sandbox.Longs['seeds'][123] = 'one two three'",
	"set Sandbox.Longs['seeds'][976] = 'nine seven six'",
	"set Sandbox.Longs['seeds'][832416] = 'eight three two four one six'",
	"set Sandbox.UTF8s['seeds']['3'] = 'three'",
	"set Sandbox.UTF8s['seeds']['123'] = 'one two three'",
	"set Sandbox.UTF8s['seeds']['976'] = 'nine seven six'",
	"set Sandbox.UTF8s['seeds']['832416'] = 'eight three two four one six'",
	"get Sandbox.Longs['seeds']",
	"get Sandbox.UTF8s['seeds']",
	"get Sandbox.Longs['seeds'] start 100 finish 1000",
	"get Sandbox.Longs['seeds'] reversed limit 2",
}}
