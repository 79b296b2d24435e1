package course

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"twissandra/web/site"
)

// The actions of the lessons' live parts: a form posts here, the action runs on the running
// store, and the answer is a redirect back to the lesson (post-redirect-get), whose page then
// shows what the action cost in each model above what the page cost.

// lessonActions are the lessons whose live part posts a tweet or changes a follow.
var (
	postLessons   = []string{"partitions", "celebrity", "compare"}
	followLessons = []string{"cql3", "celebrity"}
)

func (h *handler) registerLessonActions(g *gin.RouterGroup) {
	g.POST("learn/act/post", h.lessonPost)
	g.POST("learn/act/follow", h.lessonFollow)
}

// lessonBack is the lesson a form came from, or "" when it names none that takes the action.
func lessonBack(c *gin.Context, allowed []string) string {
	if slug := c.PostForm("lesson"); slices.Contains(allowed, slug) {
		return slug
	}
	return ""
}

// lessonPost posts a tweet as the signed-in learner and goes back to the lesson, where the
// footer shows what the post cost (its fan-out, the hot row it widened).
func (h *handler) lessonPost(c *gin.Context) {
	slug := lessonBack(c, postLessons)
	if slug == "" {
		h.Site.ErrorPage(c, http.StatusBadRequest, "No such lesson", "This form belongs to no lesson that posts.")
		return
	}
	back := "/learn/" + slug + "#live"
	me := site.User(c)
	if me == "" {
		site.AddFlash(c, site.FlashError, "Sign in to post.")
		h.Site.Redirect(c, back, "")
		return
	}
	if _, err := h.Deps.Social.Post(c.Request.Context(), me, c.PostForm("body")); err != nil {
		h.Site.RefuseBack(c, err, back)
		return
	}
	site.AddFlash(c, site.FlashOK, "Posted.")
	site.Measure(c, site.Post)
	h.Site.Redirect(c, back, "your post")
}

// lessonFollow follows or unfollows a user as the signed-in learner and goes back to the
// lesson, showing that user.
func (h *handler) lessonFollow(c *gin.Context) {
	slug := lessonBack(c, followLessons)
	if slug == "" {
		h.Site.ErrorPage(c, http.StatusBadRequest, "No such lesson", "This form belongs to no lesson that follows.")
		return
	}
	who := strings.TrimSpace(c.PostForm("user"))
	back := "/learn/" + slug + "?" + url.Values{"user": {who}}.Encode() + "#live"
	me := site.User(c)
	if me == "" {
		site.AddFlash(c, site.FlashError, "Sign in to follow.")
		h.Site.Redirect(c, back, "")
		return
	}
	op, action := h.Deps.Social.Follow, "your follow of "+who
	if c.PostForm("op") == "unfollow" {
		op, action = h.Deps.Social.Unfollow, "your unfollow of "+who
	}
	if err := op(c.Request.Context(), me, who); err != nil {
		h.Site.RefuseBack(c, err, back)
		return
	}
	h.Site.Redirect(c, back, action)
}
