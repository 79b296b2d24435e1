// Package compare is lesson 13 of the course: one action, two models. Compare mode runs every
// action on a second backend too, and every page's footer shows what it cost each model side by
// side; the live part is a post in compare mode, or how to start a server in it.
package compare

//go:generate go tool templ generate -path .

import (
	"strconv"
	"strings"

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
	// The follow on a scratch node: whether the server has a sandbox, its bounds, the form as
	// typed (the number of star's posts), what it refused, and the run.
	Sandbox     bool
	Bounds      string
	Posts       string
	MaxPosts    int
	FollowError string
	Follow      *labs.SandboxStep
}

func showCompareLesson(h *handler, c *gin.Context) (templ.Component, error) {
	d := compareLessonData{Backend: h.Deps.Backend, Compare: h.Deps.CompareBackend, Me: site.User(c),
		Post: h.Costs.Post.Load(), Page: h.Costs.Page.Load(),
		Sandbox: h.Deps.Sandbox != nil, Bounds: h.SandboxGate.Bounds(), Posts: "2", MaxPosts: labs.SandboxMaxPosts}
	posts, asked := c.GetQuery("posts")
	if !d.Sandbox || !asked {
		return compareLessonView(d), nil
	}
	d.Posts = posts
	n, err := strconv.Atoi(strings.TrimSpace(posts))
	if err != nil || n < 0 || n > labs.SandboxMaxPosts {
		d.FollowError = "The number of star's tweets is a whole number from 0 to " + strconv.Itoa(labs.SandboxMaxPosts) + ", and “" + posts + "” is not one."
		return compareLessonView(d), nil
	}
	d.Posts = strconv.Itoa(n)
	leave, err := h.EnterFor(c, h.SandboxGate)
	if err != nil {
		return nil, err
	}
	defer leave()
	step, err := labs.RunFollow(c.Request.Context(), h.Deps.Sandbox, n)
	if err != nil {
		return nil, err
	}
	d.Follow = &step
	return compareLessonView(d), nil
}

// followURL is the page with a follow on a scratch node after star's posts.
func followURL(posts int) string { return "/learn/compare?posts=" + strconv.Itoa(posts) + "#follow" }
