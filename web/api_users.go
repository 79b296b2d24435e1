package web

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/social"
)

// userJSON is a user as the API shows it: never the password hash.
type userJSON struct {
	Username  string `json:"username"`
	CreatedAt string `json:"created_at"`
	// Followers and Fanout are shown where one user is: the count is a read of its own.
	Followers *int64 `json:"followers,omitempty"`
	Fanout    string `json:"fanout,omitempty"`
}

func newUserJSON(u domain.User) userJSON {
	return userJSON{Username: u.Username, CreatedAt: formatTime(u.CreatedAt)}
}

// withFanout adds the follower count and how the user's posts reach the followers.
func (j userJSON) withFanout(f social.Fanout) userJSON {
	j.Followers, j.Fanout = &f.Followers, f.Mode()
	return j
}

type followJSON struct {
	Username string `json:"username"`
	Since    string `json:"since"`
}

type followPageJSON struct {
	Usernames []string     `json:"usernames"`
	Follows   []followJSON `json:"follows"`
	Next      *string      `json:"next"`
}

type credentialsRequest struct {
	Username string `json:"username" binding:"required"`
	Password string `json:"password" binding:"required"`
}

type sessionJSON struct {
	Token     string `json:"token"`
	Username  string `json:"username"`
	ExpiresAt string `json:"expires_at"`
}

func (s *Server) userRoutes() {
	s.API.POST("/users", s.signUp)
	s.API.GET("/users", s.getUsers)
	s.API.GET("/users/:username", s.getUser)
	s.API.GET("/users/:username/friends", s.listFollows(s.deps.Social.Friends))
	s.API.GET("/users/:username/followers", s.listFollows(s.deps.Social.Followers))
	s.API.PUT("/users/:username/friends/:friend", s.RequireAuth, s.follow)
	s.API.DELETE("/users/:username/friends/:friend", s.RequireAuth, s.unfollow)

	s.API.POST("/sessions", s.logIn)
	s.API.DELETE("/sessions/current", s.RequireAuth, s.logOut)
}

func (s *Server) signUp(c *gin.Context) {
	var req credentialsRequest
	if err := bindJSON(c, &req); err != nil {
		s.WriteError(c, err)
		return
	}
	u, err := s.deps.Access.SignUp(c.Request.Context(), req.Username, req.Password, s.LoginClient(c))
	if err != nil {
		if errors.Is(err, domain.ErrAlreadyExists) {
			err = clientError(err, "username %q is taken", req.Username)
		}
		s.WriteError(c, err)
		return
	}
	s.GiveDevice(c)
	c.Header("Location", "/api/v1/users/"+u.Username)
	c.JSON(http.StatusCreated, newUserJSON(u).withFanout(social.Fanout{})) // nobody follows a new user
}

func (s *Server) logIn(c *gin.Context) {
	var req credentialsRequest
	if err := bindJSON(c, &req); err != nil {
		s.WriteError(c, err)
		return
	}
	u, err := s.deps.Access.LogIn(c.Request.Context(), req.Username, req.Password, s.LoginClient(c))
	if err != nil {
		if errors.Is(err, domain.ErrUnauthenticated) {
			err = clientError(err, "wrong username or password")
		}
		s.WriteError(c, err)
		return
	}
	token, claims, err := s.Tokens.Issue(u.Username)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	s.sessions.opened(SessionID(claims.ID))
	s.GiveDevice(c)
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, sessionJSON{Token: token, Username: u.Username, ExpiresAt: formatTime(claims.ExpiresAt)})
}

// logOut ends the token's session on every server sharing the store.
func (s *Server) logOut(c *gin.Context) {
	claims, _ := ClaimsFrom(c)
	if err := s.EndSession(c.Request.Context(), SessionID(claims.ID), claims.ExpiresAt); err != nil {
		s.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

func (s *Server) getUser(c *gin.Context) {
	u, err := s.deps.Social.GetUser(c.Request.Context(), c.Param("username"))
	if err != nil {
		s.WriteError(c, notFoundAs(err, "user %q not found", c.Param("username")))
		return
	}
	f, err := s.deps.Social.FanoutOf(c.Request.Context(), u.Username)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, newUserJSON(u).withFanout(f))
}

func (s *Server) getUsers(c *gin.Context) {
	raw := c.Query("names")
	if raw == "" {
		s.WriteError(c, domain.Invalid("names", "is required: a comma-separated list of usernames"))
		return
	}
	// Refuse an overlong list before splitting it.
	if strings.Count(raw, ",") >= social.MaxMultiget {
		s.WriteError(c, domain.Invalid("names", "must name at most %d users", social.MaxMultiget))
		return
	}
	users, err := s.deps.Social.GetUsers(c.Request.Context(), strings.Split(raw, ","))
	if err != nil {
		s.WriteError(c, err)
		return
	}
	out := make([]userJSON, len(users))
	for i, u := range users {
		out[i] = newUserJSON(u)
	}
	c.JSON(http.StatusOK, gin.H{"users": out})
}

func (s *Server) listFollows(list func(ctx context.Context, username, start string, limit int) (social.FollowPage, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		limit, err := parseLimit(c)
		if err != nil {
			s.WriteError(c, err)
			return
		}
		username := c.Param("username")
		page, err := list(c.Request.Context(), username, query(c, "start"), limit)
		if err != nil {
			s.WriteError(c, notFoundAs(err, "user %q not found", username))
			return
		}
		out := followPageJSON{Usernames: make([]string, len(page.Follows)), Follows: make([]followJSON, len(page.Follows))}
		for i, f := range page.Follows {
			out.Usernames[i] = f.Username
			out.Follows[i] = followJSON{Username: f.Username, Since: formatTime(f.Since)}
		}
		if page.Next != "" {
			out.Next = &page.Next
		}
		c.JSON(http.StatusOK, out)
	}
}

// ownFriends checks that the authenticated user acts on their own friends.
func (s *Server) ownFriends(c *gin.Context) (username, friend string, ok bool) {
	claims, _ := ClaimsFrom(c)
	username, friend = c.Param("username"), c.Param("friend")
	if claims.Username != username {
		s.WriteError(c, clientError(domain.ErrForbidden, "you may only change your own friends"))
		return "", "", false
	}
	return username, friend, true
}

func (s *Server) follow(c *gin.Context) {
	username, friend, ok := s.ownFriends(c)
	if !ok {
		return
	}
	if err := s.deps.Social.Follow(c.Request.Context(), username, friend); err != nil {
		s.WriteError(c, notFoundAs(err, "user %q not found", friend))
		return
	}
	c.Status(http.StatusNoContent)
}

func (s *Server) unfollow(c *gin.Context) {
	username, friend, ok := s.ownFriends(c)
	if !ok {
		return
	}
	if err := s.deps.Social.Unfollow(c.Request.Context(), username, friend); err != nil {
		s.WriteError(c, notFoundAs(err, "user %q not found", friend))
		return
	}
	c.Status(http.StatusNoContent)
}

// notFoundAs gives a not-found error a client message; other errors pass unchanged.
func notFoundAs(err error, format string, args ...any) error {
	if errors.Is(err, domain.ErrNotFound) {
		return clientError(err, format, args...)
	}
	return err
}

// parseLimit reads ?limit=: absent means the default page size; anything but an integer from 1
// to domain.MaxPageSize is a 400 (0 included, although the service reads 0 as "default").
func parseLimit(c *gin.Context) (int, error) {
	raw, ok := queryValue(c, "limit")
	if !ok {
		return domain.DefaultPageSize, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > domain.MaxPageSize {
		return 0, domain.Invalid("limit", "must be an integer from 1 to %d", domain.MaxPageSize)
	}
	return n, nil
}
