// Package compare is lesson 13 of the course: one action, two models. Compare mode runs every
// action on a second backend too, and every page's footer shows what it cost each model side by
// side; the live part is a post in compare mode, or how to start a server in it.
package compare

//go:generate go tool templ generate -path .

import (
	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Slug: "compare", Title: "One action, two models: compare mode",
		Summary:   "Run the same application on widerow and cql3 at once: every action's cost in both models side by side, and the reads where they disagree.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showCompareLesson(h, c) },
		Exercises: exercises(h.Deps.Sandbox, h.SandboxGate)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

type compareLessonData struct {
	Backend, Compare string
	Me               string
	Post, Page       *frame.Measured
}

func showCompareLesson(h *handler, c *gin.Context) (templ.Component, error) {
	return compareLessonView(compareLessonData{Backend: h.Deps.Backend, Compare: h.Deps.CompareBackend, Me: site.User(c),
		Post: h.Costs.Post.Load(), Page: h.Costs.Page.Load()}), nil
}
