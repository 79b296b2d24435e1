// Package unique is lesson 7 of the course: uniqueness and the lightweight transaction: the
// uniqueness race of /models/race on the running store, read-then-write against the transaction.
package unique

//go:generate go tool templ generate -path .

import (
	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Slug: "unique", Title: "Uniqueness and the lightweight transaction",
		Summary:   "Race concurrent sign-ups of one name on the running store: read-then-write welcomes several, the lightweight transaction exactly one.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showUnique(h, c) },
		Topics:    []string{"uniqueness", "lightweight transactions", "race"},
		Exercises: exercises(h.Deps.Claims, h.RaceGate)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

type uniqueData struct {
	Race labs.RaceData
}

func showUnique(h *handler, c *gin.Context) (templ.Component, error) {
	return uniqueView(uniqueData{Race: h.RaceData(c, "/learn/unique")}), nil
}
