package web

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
)

type postTweetRequest struct {
	Body string `json:"body" binding:"required"`
}

func (s *Server) tweetRoutes() {
	s.API.POST("/tweets", s.RequireAuth, s.postTweet)
	s.API.GET("/tweets/:id", s.getTweet)
	s.API.GET("/users/:username/tweets", s.userline)
	s.API.GET("/timeline", s.RequireAuth, s.timeline)
	s.API.GET("/public", s.publicLine)
}

func (s *Server) postTweet(c *gin.Context) {
	claims, _ := ClaimsFrom(c)
	var req postTweetRequest
	if err := bindJSON(c, &req); err != nil {
		s.WriteError(c, err)
		return
	}
	t, err := s.deps.Social.Post(c.Request.Context(), claims.Username, req.Body)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	c.Header("Location", "/api/v1/tweets/"+t.ID.String())
	writeTweet(c, http.StatusCreated, t)
}

func (s *Server) getTweet(c *gin.Context) {
	id, err := domain.ParseTweetID(c.Param("id"))
	if err != nil {
		s.WriteError(c, err)
		return
	}
	t, err := s.deps.Social.GetTweet(c.Request.Context(), id)
	if err != nil {
		s.WriteError(c, notFoundAs(err, "tweet %s not found", id))
		return
	}
	writeTweet(c, http.StatusOK, t)
}

func (s *Server) userline(c *gin.Context) {
	limit, err := parseLimit(c)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	username := c.Param("username")
	page, err := s.deps.Social.Userline(c.Request.Context(), username, query(c, "start"), limit)
	if err != nil {
		s.WriteError(c, notFoundAs(err, "user %q not found", username))
		return
	}
	s.writeTweetPage(c, page)
}

func (s *Server) timeline(c *gin.Context) {
	claims, _ := ClaimsFrom(c)
	limit, err := parseLimit(c)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	page, err := s.deps.Social.Timeline(c.Request.Context(), claims.Username, query(c, "start"), limit)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	s.writeTweetPage(c, page)
}

func (s *Server) publicLine(c *gin.Context) {
	limit, err := parseLimit(c)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	start := query(c, "start")
	if start == "" && s.pages != nil {
		s.servePublicFirstPage(c, limit)
		return
	}
	page, err := s.deps.Social.PublicLine(c.Request.Context(), start, limit)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	s.writeTweetPage(c, page)
}
