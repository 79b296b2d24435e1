package pages

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/blog/model"
	"twissandra/web/site"
)

type blogIndexData struct {
	Heading  string
	Tag      string
	Entries  []blog.EntryView
	OlderURL string
}

func (h *handler) blogIndex(c *gin.Context) { h.blogList(c, "") }

func (h *handler) blogTag(c *gin.Context) {
	tag := c.Param("tag")
	if _, err := model.NormalizeTag(tag); err != nil {
		h.site.ErrorPage(c, http.StatusNotFound, "No such tag", "“"+tag+"” is not a tag of this blog.")
		return
	}
	h.blogList(c, tag)
}

func (h *handler) blogList(c *gin.Context, tag string) {
	site.Serves(c, site.BlogEntries)
	page, err := h.deps.Blog.Entries(c.Request.Context(), tag, c.Query("start"), blogPageSize)
	if err != nil {
		h.site.Fail(c, err)
		return
	}
	d := blogIndexData{Heading: "Blog", Tag: tag, Entries: page.Entries, OlderURL: olderURL("/blog", page.Next)}
	if tag != "" {
		d.Heading = "Entries tagged “" + tag + "”"
		d.OlderURL = olderURL("/blog/tags/"+url.PathEscape(tag), page.Next)
	}
	h.site.Render(c, http.StatusOK, site.Page{Title: d.Heading, Nav: "blog", Content: blogIndexContent(site.User(c), d)})
}

type commentForm struct {
	Name  string
	Email string
	Text  string
	Error string
}

type blogEntryData struct {
	Entry    blog.EntryView
	Comments []blog.Comment
	NewerURL string
	Form     commentForm
	MaxText  int
}

func (h *handler) blogEntry(c *gin.Context) {
	h.renderEntry(c, http.StatusOK, commentForm{Name: site.User(c)})
}

func (h *handler) renderEntry(c *gin.Context, status int, form commentForm) {
	ctx := c.Request.Context()
	slug := c.Param("slug")
	site.Serves(c, site.BlogEntry)
	e, err := h.deps.Blog.GetEntry(ctx, slug)
	if errors.Is(err, domain.ErrNotFound) || errors.Is(err, domain.ErrInvalid) {
		h.site.ErrorPage(c, http.StatusNotFound, "No such entry", "There is no blog entry “"+slug+"”.")
		return
	}
	if err != nil {
		h.site.Fail(c, err)
		return
	}
	site.Serves(c, site.EntryComments)
	cs, err := h.deps.Blog.Comments(ctx, slug, c.Query("start"), commentsPage)
	if err != nil {
		h.site.Fail(c, err)
		return
	}
	h.site.Render(c, status, site.Page{Title: e.Title, Nav: "blog", Content: blogEntryContent(blogEntryData{
		Entry: e, Comments: cs.Comments, Form: form, MaxText: model.MaxCommentLen,
		NewerURL: olderURL("/blog/entries/"+url.PathEscape(slug), cs.Next),
	})})
}

func (h *handler) blogComment(c *gin.Context) {
	slug := c.Param("slug")
	form := commentForm{Name: keepText(c.PostForm("name")), Email: keepText(c.PostForm("email")), Text: keepText(c.PostForm("text"))}
	_, err := h.site.Comment(c, h.deps.Blog, slug, blog.CommentDraft{
		Name: c.PostForm("name"), Email: c.PostForm("email"), Text: c.PostForm("text"),
	})
	if err != nil {
		status, msg := site.Problem(c, err)
		switch {
		case status == http.StatusNotFound:
			h.site.ErrorPage(c, status, "No such entry", "There is no blog entry “"+slug+"”.")
		case status >= 500:
			h.site.Fail(c, err)
		default:
			form.Error = msg
			h.renderEntry(c, status, form)
		}
		return
	}
	site.AddFlash(c, site.FlashOK, "Thank you, your comment is up.")
	h.site.Redirect(c, "/blog/entries/"+url.PathEscape(slug)+"#comments", "your comment")
}

// keepText returns form text to show back, unless it is not valid text or absurdly long.
func keepText(s string) string {
	if len(s) > 2*model.MaxBodyBytes {
		return ""
	}
	return strings.ToValidUTF8(s, "")
}

type blogAuthorData struct {
	Author    blog.Author
	Keys      []string
	Entries   []blog.EntryView
	OlderURL  string
	ScanLimit int
}

func (h *handler) blogAuthor(c *gin.Context) {
	name := c.Param("name")
	site.Serves(c, site.AuthorProfile)
	a, err := h.deps.Blog.GetAuthor(c.Request.Context(), name)
	if errors.Is(err, domain.ErrNotFound) || errors.Is(err, domain.ErrInvalid) {
		h.site.ErrorPage(c, http.StatusNotFound, "No such author", "There is no author named “"+name+"”.")
		return
	}
	if err != nil {
		h.site.Fail(c, err)
		return
	}
	keys := make([]string, 0, len(a.Profile))
	for k := range a.Profile {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	site.Serves(c, site.BlogEntries)
	page, err := h.deps.Blog.EntriesBy(c.Request.Context(), a.Name, c.Query("start"), blogPageSize)
	if err != nil {
		h.site.Fail(c, err)
		return
	}
	h.site.Render(c, http.StatusOK, site.Page{Title: a.Name, Nav: "blog", Content: blogAuthorContent(blogAuthorData{Author: a, Keys: keys,
		Entries: page.Entries, OlderURL: olderURL("/blog/authors/"+url.PathEscape(a.Name), page.Next), ScanLimit: blog.AuthorScanLimit})})
}

type blogNewData struct {
	Slug, Title, Body, Tags string
	Error                   string
	MaxTitle, MaxTags       int
}

func (h *handler) blogNewForm(c *gin.Context) {
	if site.User(c) == "" {
		site.AddFlash(c, site.FlashError, "Sign in to write on the blog.")
		h.site.Redirect(c, "/login?next=/blog/new", "")
		return
	}
	h.renderNew(c, http.StatusOK, blogNewData{MaxTitle: model.MaxTitleLen, MaxTags: model.MaxTags})
}

func (h *handler) renderNew(c *gin.Context, status int, d blogNewData) {
	h.site.Render(c, status, site.Page{Title: "Write an entry", Nav: "blog", Content: blogNewContent(site.User(c), d)})
}

// blogEntryAction names the action of publishing an entry, for the learner.
const blogEntryAction = "your blog entry"

func (h *handler) blogPublish(c *gin.Context) {
	me := site.User(c)
	if me == "" {
		site.AddFlash(c, site.FlashError, "Sign in to write on the blog.")
		h.site.Redirect(c, "/login?next=/blog/new", blogEntryAction)
		return
	}
	d := blogNewData{
		Slug: keepText(c.PostForm("slug")), Title: keepText(c.PostForm("title")),
		Body: keepText(c.PostForm("body")), Tags: keepText(c.PostForm("tags")),
		MaxTitle: model.MaxTitleLen, MaxTags: model.MaxTags,
	}
	var tags []string
	for t := range strings.SplitSeq(c.PostForm("tags"), ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	ctx := c.Request.Context()
	// A user publishes as their own author profile, made empty on the first entry.
	e, err := h.deps.Blog.Publish(ctx, blog.Draft{
		Slug: strings.TrimSpace(c.PostForm("slug")), Title: c.PostForm("title"), Body: c.PostForm("body"),
		Author: me, Tags: tags, NewAuthor: true,
	})
	if err != nil {
		status, msg := site.ProblemMessage(err)
		if errors.Is(err, domain.ErrAlreadyExists) {
			msg = "An entry with the slug “" + d.Slug + "” exists already; choose another slug."
		}
		if status >= 500 {
			h.site.Fail(c, err)
			return
		}
		d.Error = msg
		h.renderNew(c, status, d)
		return
	}
	site.AddFlash(c, site.FlashOK, "Published.")
	h.site.Redirect(c, "/blog/entries/"+url.PathEscape(e.Slug), blogEntryAction)
}
