package web

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/blog"
)

// The blog of "WTF is a SuperColumn" as JSON under /api/v1/blog. An API user publishes as the
// blog author of their own username; the profile is created empty on their first entry.
// Commenters do not log in: they give a name and, optionally, an email address, which is kept
// but never shown.

// authorJSON is an author as the API shows it.
type authorJSON struct {
	Name    string            `json:"name"`
	Profile map[string]string `json:"profile"`
	Posts   int64             `json:"posts"`
}

func newAuthorJSON(a blog.Author) authorJSON {
	p := a.Profile
	if p == nil {
		p = map[string]string{}
	}
	return authorJSON{Name: a.Name, Profile: p, Posts: a.Posts}
}

// entryJSON is an entry with its author's profile.
type entryJSON struct {
	Slug        string     `json:"slug"`
	ID          string     `json:"id"`
	Title       string     `json:"title"`
	Body        string     `json:"body"`
	Tags        []string   `json:"tags"`
	PublishedAt string     `json:"published_at"`
	Author      authorJSON `json:"author"`
}

func newEntryJSON(v blog.EntryView) entryJSON {
	tags := v.Tags
	if tags == nil {
		tags = []string{}
	}
	author := v.AuthorProfile
	if author.Name == "" {
		author.Name = v.Author
	}
	return entryJSON{
		Slug: v.Slug, ID: v.ID.String(), Title: v.Title, Body: v.Body, Tags: tags,
		PublishedAt: formatTime(v.PublishedAt), Author: newAuthorJSON(author),
	}
}

type entryPageJSON struct {
	Entries []entryJSON `json:"entries"`
	Next    *string     `json:"next"`
}

// commentJSON leaves out the commenter's email: the blog promises never to show it.
type commentJSON struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
	Text string `json:"text"`
	Time string `json:"time"`
}

func newCommentJSON(c blog.Comment) commentJSON {
	return commentJSON{ID: c.ID.String(), Slug: c.Slug, Name: c.Name, Text: c.Text, Time: formatTime(c.Time)}
}

type commentPageJSON struct {
	Comments []commentJSON `json:"comments"`
	Next     *string       `json:"next"`
}

type publishRequest struct {
	Slug  string   `json:"slug" binding:"required"`
	Title string   `json:"title" binding:"required"`
	Body  string   `json:"body" binding:"required"`
	Tags  []string `json:"tags"`
	// Author may be given, but only as the caller's own username.
	Author *string `json:"author"`
}

type commentRequest struct {
	Name  string `json:"name" binding:"required"`
	Email string `json:"email"`
	Text  string `json:"text" binding:"required"`
}

type putAuthorRequest struct {
	Profile map[string]string `json:"profile" binding:"required"`
}

// blogRoutes registers the blog API under /api/v1/blog when a blog service is configured.
func (s *Server) blogRoutes() {
	if s.deps.Blog == nil {
		return
	}
	g := s.API.Group("/blog")
	g.GET("/entries", s.listBlogEntries)
	g.POST("/entries", s.RequireAuth, s.publishBlogEntry)
	g.GET("/entries/:slug", s.getBlogEntry)
	g.DELETE("/entries/:slug", s.RequireAuth, s.deleteBlogEntry)
	g.GET("/entries/:slug/comments", s.listBlogComments)
	g.POST("/entries/:slug/comments", s.postBlogComment)
	g.GET("/authors/:name", s.getBlogAuthor)
	g.PUT("/authors/:name", s.RequireAuth, s.putBlogAuthor)
}

func (s *Server) listBlogEntries(c *gin.Context) {
	limit, err := parseLimit(c)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	page, err := s.deps.Blog.Entries(c.Request.Context(), query(c, "tag"), query(c, "start"), limit)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	out := entryPageJSON{Entries: make([]entryJSON, len(page.Entries))}
	for i, v := range page.Entries {
		out.Entries[i] = newEntryJSON(v)
	}
	if page.Next != "" {
		out.Next = &page.Next
	}
	c.JSON(http.StatusOK, out)
}

func (s *Server) getBlogEntry(c *gin.Context) {
	slug := c.Param("slug")
	v, err := s.deps.Blog.GetEntry(c.Request.Context(), slug)
	if err != nil {
		s.WriteError(c, notFoundAs(err, "entry %q not found", slug))
		return
	}
	c.JSON(http.StatusOK, newEntryJSON(v))
}

func (s *Server) publishBlogEntry(c *gin.Context) {
	claims, _ := ClaimsFrom(c)
	var req publishRequest
	if err := bindJSON(c, &req); err != nil {
		s.WriteError(c, err)
		return
	}
	if req.Author != nil && *req.Author != claims.Username {
		s.WriteError(c, clientError(domain.ErrForbidden, "you may only publish as yourself (%q)", claims.Username))
		return
	}
	ctx := c.Request.Context()
	// A user publishes as their own author profile, made empty on the first entry.
	d := blog.Draft{Slug: req.Slug, Title: req.Title, Body: req.Body, Author: claims.Username, Tags: req.Tags, NewAuthor: true}
	e, err := s.deps.Blog.Publish(ctx, d)
	if err != nil {
		if errors.Is(err, domain.ErrAlreadyExists) {
			err = clientError(err, "slug %q is taken", req.Slug)
		}
		s.WriteError(c, err)
		return
	}
	view, err := s.deps.Blog.GetEntry(ctx, e.Slug)
	if err != nil {
		// Deleted again already: answer with what was published.
		view = blog.EntryView{Entry: e, AuthorProfile: blog.Author{Name: e.Author}}
	}
	c.Header("Location", "/api/v1/blog/entries/"+e.Slug)
	c.JSON(http.StatusCreated, newEntryJSON(view))
}

func (s *Server) deleteBlogEntry(c *gin.Context) {
	claims, _ := ClaimsFrom(c)
	slug := c.Param("slug")
	ctx := c.Request.Context()
	v, err := s.deps.Blog.GetEntry(ctx, slug)
	if err != nil {
		s.WriteError(c, notFoundAs(err, "entry %q not found", slug))
		return
	}
	if v.Author != claims.Username {
		s.WriteError(c, clientError(domain.ErrForbidden, "only the entry's author may delete it"))
		return
	}
	if err := s.deps.Blog.DeleteEntry(ctx, slug); err != nil {
		s.WriteError(c, notFoundAs(err, "entry %q not found", slug))
		return
	}
	c.Status(http.StatusNoContent)
}

func (s *Server) listBlogComments(c *gin.Context) {
	limit, err := parseLimit(c)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	slug := c.Param("slug")
	page, err := s.deps.Blog.Comments(c.Request.Context(), slug, query(c, "start"), limit)
	if err != nil {
		s.WriteError(c, notFoundAs(err, "entry %q not found", slug))
		return
	}
	out := commentPageJSON{Comments: make([]commentJSON, len(page.Comments))}
	for i, cm := range page.Comments {
		out.Comments[i] = newCommentJSON(cm)
	}
	if page.Next != "" {
		out.Next = &page.Next
	}
	c.JSON(http.StatusOK, out)
}

func (s *Server) postBlogComment(c *gin.Context) {
	slug := c.Param("slug")
	var req commentRequest
	if err := bindJSON(c, &req); err != nil {
		s.WriteError(c, err)
		return
	}
	cm, err := s.Comment(c, s.deps.Blog, slug, blog.CommentDraft{Name: req.Name, Email: req.Email, Text: req.Text})
	if err != nil {
		s.WriteError(c, notFoundAs(err, "entry %q not found", slug))
		return
	}
	c.JSON(http.StatusCreated, newCommentJSON(cm))
}

func (s *Server) getBlogAuthor(c *gin.Context) {
	name := c.Param("name")
	a, err := s.deps.Blog.GetAuthor(c.Request.Context(), name)
	if err != nil {
		s.WriteError(c, notFoundAs(err, "author %q not found", name))
		return
	}
	c.JSON(http.StatusOK, newAuthorJSON(a))
}

func (s *Server) putBlogAuthor(c *gin.Context) {
	claims, _ := ClaimsFrom(c)
	name := c.Param("name")
	if name != claims.Username {
		s.WriteError(c, clientError(domain.ErrForbidden, "you may only change your own author profile"))
		return
	}
	var req putAuthorRequest
	if err := bindJSON(c, &req); err != nil {
		s.WriteError(c, err)
		return
	}
	a, err := s.deps.Blog.PutAuthor(c.Request.Context(), name, req.Profile)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	c.Header("Location", "/api/v1/blog/authors/"+url.PathEscape(a.Name))
	c.JSON(http.StatusOK, newAuthorJSON(a))
}
