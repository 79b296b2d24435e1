package teach

import (
	"errors"
	"time"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/web"
	"twissandra/web/site"
)

// Lesson 11: the celebrity problem. Fan-out on write (push) makes a post cost a row per
// follower; reading the author's userline at every page (pull) makes each page cost a slice
// per author followed; the hybrid pulls only the authors above a threshold. The live part says
// how this server would fan a user's posts out, and posts one.

func init() {
	addLesson(lesson{N: 11, Slug: "celebrity", Title: "The celebrity problem",
		Summary: "Fan-out on write costs a row per follower: push, pull, and the hybrid this server runs, with its threshold and what a post and a page cost.",
		show:    showCelebrityLesson})
}

type celebrityLessonData struct {
	Backend   string
	Threshold int64
	Me        string
	Lookup    string
	Fanout    *social.Fanout
	Error     string
	Pulled    int // authors pulled on this server
	Post      *measured
	Page      *measured
	// Largest are the measured posts at the most followers of each backend; Pages the measured
	// pages with no pulled author and with the most.
	Largest []celebrityFigure
	Pages   []celebrityPageFigure
	// Heads is how many pulled authors' userline heads the server keeps, HeadBound for how long.
	Heads     int
	HeadBound time.Duration
}

func showCelebrityLesson(h *handler, c *gin.Context) (templ.Component, error) {
	ctx := c.Request.Context()
	d := celebrityLessonData{Backend: h.deps.Backend, Threshold: h.deps.Social.PullThreshold(), Me: site.User(c),
		Post: h.costs.post.Load(), Page: h.costs.page.Load(), Heads: len(h.deps.Social.Heads()), HeadBound: h.deps.Social.HeadBound()}
	all, err := h.deps.Social.PulledAuthors(ctx)
	if err != nil {
		return nil, err
	}
	d.Pulled = len(all)
	for i, f := range celebrityFigures { // each backend's figures end with its most followers
		if i+1 == len(celebrityFigures) || celebrityFigures[i+1].Backend != f.Backend {
			d.Largest = append(d.Largest, f)
		}
	}
	for i, p := range celebrityPageFigures { // each backend's pages, from 0 pulled authors up
		if p.Pulled == 0 || i+1 == len(celebrityPageFigures) || celebrityPageFigures[i+1].Backend != p.Backend {
			d.Pages = append(d.Pages, p)
		}
	}
	if d.Lookup = c.Query("user"); d.Lookup == "" {
		d.Lookup = d.Me
	}
	if d.Lookup != "" {
		_, err := h.deps.Social.GetUser(ctx, d.Lookup)
		var f social.Fanout
		if err == nil {
			f, err = h.deps.Social.FanoutOf(ctx, d.Lookup)
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
