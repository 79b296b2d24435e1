package teach

import (
	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
)

// Lesson 7: uniqueness and the lightweight transaction: the uniqueness race of /models/race on
// the running store, read-then-write against the transaction.

func init() {
	addLesson(lesson{N: 7, Slug: "unique", Title: "Uniqueness and the lightweight transaction",
		Summary: "Race concurrent sign-ups of one name on the running store: read-then-write welcomes several, the lightweight transaction exactly one.",
		show:    showUnique})
}

type uniqueData struct {
	Race raceData
}

func showUnique(h *handler, c *gin.Context) (templ.Component, error) {
	return uniqueView(uniqueData{Race: h.raceData(c, "/learn/unique")}), nil
}
