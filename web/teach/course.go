package teach

import (
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"

	"twissandra/web/site"
)

// The course: the teaching views in an order that builds, from the pieces of the 0.6 model to
// what CQL3 and a cluster make of them. /learn lists the lessons; each lesson is a page of its
// own (/learn/<slug>) with a short text in the seeds' notation, the live part where the learner
// does the thing on the running store, and, in its footer, what that cost in each model. Each
// links to the one before and the one after (rel="prev", rel="next").
//
// A lesson lives in lesson_<slug>.go and .templ, and registers itself (addLesson) with its
// number: the course is the lessons in the order of their numbers.

func (h *handler) registerCourse(g *gin.RouterGroup) {
	g.GET("learn", h.learn)
	g.GET("learn/:slug", h.lesson)
}

// learn is the course's start page: every lesson in order.
func (h *handler) learn(c *gin.Context) {
	h.site.Render(c, http.StatusOK, site.Page{Title: "Learn", Nav: "learn", Content: learnView(course())})
}

// lesson renders one lesson, with the links to the one before and the one after.
func (h *handler) lesson(c *gin.Context) {
	all := course()
	i := slices.IndexFunc(all, func(l lesson) bool { return l.Slug == c.Param("slug") })
	if i < 0 {
		h.site.ErrorPage(c, http.StatusNotFound, "No such lesson", "The course has no lesson “"+c.Param("slug")+"”. The lessons are listed on /learn.")
		return
	}
	l := all[i]
	body, err := l.show(h, c)
	if err != nil {
		h.site.Fail(c, err)
		return
	}
	var prev, next *lessonLink
	if i > 0 {
		prev = all[i-1].link()
	}
	if i+1 < len(all) {
		next = all[i+1].link()
	}
	h.site.Render(c, http.StatusOK, site.Page{Title: l.Title, Nav: "learn", Content: lessonView(l.link(), len(all), prev, next, body)})
}
