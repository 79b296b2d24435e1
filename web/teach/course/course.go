// Package course serves the course: /learn lists the lessons, /learn/<slug> shows one, and the
// reference pages beside them (the glossary, the timeline, the departures). Each lesson is a
// package of its own in web/teach/lessons (its handler, component and test); lessons.go lists
// them, in order. No lesson imports another: the links between them come from that list,
// through frame.PublishCourse.
package course

//go:generate go tool templ generate -path .

import (
	"net/http"
	"slices"

	"github.com/gin-gonic/gin"

	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// The course: the teaching views in an order that builds, from the pieces of the 0.6 model to
// what CQL3 and a cluster make of them. /learn lists the lessons; each lesson is a page of its
// own (/learn/<slug>) with a short text in the seeds' notation, the live part where the learner
// does the thing on the running store, and, in its footer, what that cost in each model. Each
// links to the one before and the one after (rel="prev", rel="next").

// handler serves the course's pages: the labs' handler, and the lessons in order.
type handler struct {
	*labs.Handler
	lessons []frame.Lesson
}

// Register adds the course's routes (the start page, every lesson and its forms, the reference
// pages), on the labs' handler h, and publishes the course for the links of every page.
func Register(g *gin.RouterGroup, lh *labs.Handler) {
	h := &handler{Handler: lh, lessons: lessons(lh)}
	frame.PublishCourse(h.lessons)
	h.Site.Server().ServeCourse(api{h})
	g.GET("learn", h.learn)
	g.GET("learn/:slug", h.lesson)
	h.registerReference(g)
	h.registerExercises(g)
	for _, l := range h.lessons {
		if l.Routes != nil {
			l.Routes(g)
		}
	}
}

// learn is the course's start page: every lesson in order, with the learner's ticks.
func (h *handler) learn(c *gin.Context) {
	p, err := h.progressOf(c)
	if err != nil {
		h.Site.Fail(c, err)
		return
	}
	h.Site.Render(c, http.StatusOK, site.Page{Title: "Learn", Nav: "learn", Content: learnView(h.lessons, p)})
}

// lesson renders one lesson, with the links to the one before and the one after.
func (h *handler) lesson(c *gin.Context) {
	all := h.lessons
	i := slices.IndexFunc(all, func(l frame.Lesson) bool { return l.Slug == c.Param("slug") })
	if i < 0 {
		h.Site.ErrorPage(c, http.StatusNotFound, "No such lesson", "The course has no lesson “"+c.Param("slug")+"”. The lessons are listed on /learn.")
		return
	}
	l := all[i]
	body, err := l.Show(c)
	if err != nil {
		h.Site.Fail(c, err)
		return
	}
	if err := h.note(c, keyVisited, l.Slug); err != nil {
		h.Log.Warn("record a lesson visited", "lesson", l.Slug, "err", err)
	}
	p, err := h.progressOf(c)
	if err != nil {
		h.Site.Fail(c, err)
		return
	}
	var prev, next *frame.LessonLink
	if i > 0 {
		prev = all[i-1].Link()
	}
	if i+1 < len(all) {
		next = all[i+1].Link()
	}
	consoles := make([]frame.ConsoleBoxData, len(l.Consoles))
	for j, o := range l.Consoles {
		consoles[j] = h.ConsoleBox(c, o)
	}
	h.Site.Render(c, http.StatusOK, site.Page{Title: l.Title, Nav: "learn", Content: lessonView(l.Link(), all, prev, next, body, consoles, exerciseViews(c, l, p.Passed), p)})
}
