package teach

import (
	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/web/site"
)

// Lesson 12: one action, two models. Compare mode runs every action on a second backend too,
// and every page's footer shows what it cost each model side by side; the live part is a post
// in compare mode, or how to start a server in it.

func init() {
	addLesson(lesson{N: 12, Slug: "compare", Title: "One action, two models: compare mode",
		Summary: "Run the same application on widerow and cql3 at once: every action's cost in both models side by side, and the reads where they disagree.",
		show:    showCompareLesson})
}

type compareLessonData struct {
	Backend, Compare string
	Me               string
	Post, Page       *measured
}

func showCompareLesson(h *handler, c *gin.Context) (templ.Component, error) {
	return compareLessonView(compareLessonData{Backend: h.deps.Backend, Compare: h.deps.CompareBackend, Me: site.User(c),
		Post: h.costs.post.Load(), Page: h.costs.page.Load()}), nil
}
