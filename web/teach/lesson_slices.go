package teach

import (
	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/ports/teaching"
)

// Lesson 2: comparators and slices, on the comparator lab: the learner's names under the six
// comparators side by side (the seeds' 3, 123, 976, 832416, and four UUIDs), then get_slice
// with start, finish, reversed and count.

func init() {
	addLesson(lesson{N: 2, Slug: "slices", Title: "Comparators and slices",
		Summary: "Store the seeds' 3, 123, 976 and 832416 under the six comparators side by side, see their bytes, and slice them with start, finish, reversed and count.",
		show:    showSlices})
}

type slicesData struct {
	Lab      labData
	Timeline teaching.WideCF // Twissandra.Timeline, the application's LongType row
	Tagged   teaching.WideCF // BloggyAppy.TaggedPosts, its TimeUUIDType row
}

func showSlices(h *handler, c *gin.Context) (templ.Component, error) {
	d := slicesData{Lab: h.labData(c, "/learn/slices")}
	d.Timeline, _ = h.schemaCF("Twissandra", "Timeline")
	d.Tagged, _ = h.schemaCF("BloggyAppy", "TaggedPosts")
	return slicesView(d), nil
}
