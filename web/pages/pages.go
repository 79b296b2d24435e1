// Package pages serves Twissandra's product pages in the frame of package site: the home and
// public timelines, user pages and their follow lists, following and unfollowing, posting, find
// people, sign-in, sign-up and sign-out, and the blog.
//
// The pages know nothing of the teaching views (package teach): a handler tells the site what
// it serves (a measured home page, the name of a form's action), and the site passes it on.
// Failed logins are throttled per username and per client address.
package pages

import (
	"errors"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/web/site"
)

//go:generate go tool templ generate -path .

// Deps are the pages' collaborators.
type Deps struct {
	// Social runs Twissandra's use cases (required).
	Social *social.Service
	// Blog runs the blog; nil leaves the blog pages out.
	Blog *blog.Service
	// Access logs users in, under the limit that the API shares (required).
	Access *social.Access
}

// Page sizes.
const (
	linePageSize   = domain.DefaultPageSize
	followPreview  = 20
	followPageSize = 100
	blogPageSize   = 10
	commentsPage   = 40
)

type handler struct {
	deps Deps
	site *site.Site
}

// Register adds the pages to the site: their routes.
func Register(st *site.Site, deps Deps) error {
	if deps.Social == nil {
		return errors.New("pages: Deps.Social is required")
	}
	if deps.Access == nil {
		return errors.New("pages: Deps.Access is required")
	}
	h := &handler{deps: deps, site: st}
	h.routes(st.Routes())
	return nil
}

func (h *handler) routes(g *gin.RouterGroup) {
	g.GET("", h.home)
	g.POST("tweets", h.postTweet)
	g.GET("public", h.public)
	g.GET("users/:username", h.userPage)
	g.GET("users/:username/friends", h.followList(true))
	g.GET("users/:username/followers", h.followList(false))
	g.POST("users/:username/follow", h.follow)
	g.POST("users/:username/unfollow", h.unfollow)
	g.GET("find", h.find)
	g.GET("login", h.loginPage)
	g.POST("login", h.login)
	g.POST("signup", h.signup)
	g.POST("logout", h.logout)
	if h.deps.Blog != nil {
		g.GET("blog", h.blogIndex)
		g.GET("blog/tags/:tag", h.blogTag)
		g.GET("blog/entries/:slug", h.blogEntry)
		g.POST("blog/entries/:slug/comments", h.blogComment)
		g.GET("blog/authors/:name", h.blogAuthor)
		g.GET("blog/new", h.blogNewForm)
		g.POST("blog/new", h.blogPublish)
	}
}
