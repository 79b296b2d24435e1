// Package celebrity is lesson 12 of the course: the celebrity problem. Fan-out on write (push)
// makes a post cost a row per follower; reading the author's userline at every page (pull) makes
// each page cost a slice per author followed; the hybrid pulls only the authors above a threshold.
// The sandbox lets the learner make an author cross a threshold of their choosing on a scratch
// store; the live part says how this server would fan a user's posts out, and posts one.
package celebrity

//go:generate go tool templ generate -path .

import (
	"errors"
	"time"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/web"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Slug: "celebrity", Title: "The celebrity problem",
		Summary:   "Fan-out on write costs a row per follower: push, pull, and the hybrid this server runs, with its threshold and what a post and a page cost.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showCelebrityLesson(h, c) },
		Exercises: exercises(h.Deps.Sandbox, h.SandboxGate)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

type celebrityLessonData struct {
	Backend   string
	Threshold int64
	Me        string
	Lookup    string
	Fanout    *social.Fanout
	Error     string
	Pulled    int // authors pulled on this server
	Post      *frame.Measured
	Page      *frame.Measured
	// Largest are the measured posts at the most followers of each backend; Pages the measured
	// pages with no pulled author and with the most.
	Largest []labs.CelebrityFigure
	Pages   []labs.CelebrityPageFigure
	// Heads is how many pulled authors' userline heads the server keeps, HeadBound for how long.
	Heads     int
	HeadBound time.Duration
	// Sandbox is the sandbox's form and, when the query asks for one, its run.
	Sandbox labs.SandboxData
}

func showCelebrityLesson(h *handler, c *gin.Context) (templ.Component, error) {
	ctx := c.Request.Context()
	d := celebrityLessonData{Backend: h.Deps.Backend, Threshold: h.Deps.Social.PullThreshold(), Me: site.User(c),
		Post: h.Costs.Post.Load(), Page: h.Costs.Page.Load(), Heads: len(h.Deps.Social.Heads()), HeadBound: h.Deps.Social.HeadBound()}
	all, err := h.Deps.Social.PulledAuthors(ctx)
	if err != nil {
		return nil, err
	}
	if d.Sandbox, err = h.SandboxData(c); err != nil {
		return nil, err
	}
	d.Pulled = len(all)
	for i, f := range labs.CelebrityFigures { // each backend's figures end with its most followers
		if i+1 == len(labs.CelebrityFigures) || labs.CelebrityFigures[i+1].Backend != f.Backend {
			d.Largest = append(d.Largest, f)
		}
	}
	for i, p := range labs.CelebrityPageFigures { // each backend's pages, from 0 pulled authors up
		if p.Pulled == 0 || i+1 == len(labs.CelebrityPageFigures) || labs.CelebrityPageFigures[i+1].Backend != p.Backend {
			d.Pages = append(d.Pages, p)
		}
	}
	if d.Lookup = c.Query("user"); d.Lookup == "" {
		d.Lookup = d.Me
	}
	if d.Lookup != "" {
		_, err := h.Deps.Social.GetUser(ctx, d.Lookup)
		var f social.Fanout
		if err == nil {
			f, err = h.Deps.Social.FanoutOf(ctx, d.Lookup)
		}
		switch {
		case err == nil:
			d.Fanout = &f
		case errors.Is(err, domain.ErrNotFound), errors.Is(err, domain.ErrInvalid):
			d.Error = web.MapError(err).Message
		default:
			return nil, err
		}
	}
	return celebrityLessonView(d), nil
}
