// Package blog is lesson 5 of the course: super columns in the blog of seed 004: its four column
// families (TaggedPosts with its __notag__ row, BlogEntries, the super column family Comments,
// Authors), and one entry's rows read through "where it lives", its comments as super columns.
package blog

//go:generate go tool templ generate -path .

import (
	"context"
	"errors"
	"net/http"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/models"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Consoles: []frame.ConsoleOffer{console},
		Slug: "blog", Title: "Super columns: the blog",
		Summary: "Seed 004's blog: the TaggedPosts index and its __notag__ row, BlogEntries, Authors, and the comments as super columns, read from the store.",
		Show:    func(c *gin.Context) (templ.Component, error) { return showBlogLesson(h, c) },
		Routes: func(g *gin.RouterGroup) {
			g.POST("learn/blog/load", h.blogLoad)
		},
		Topics:    []string{"super columns", "0.6", "blog"},
		Exercises: exercises(h.Deps.Lab, h.LabGate)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

// blogLessonComments is how many of an entry's comments the lesson locates.
const blogLessonComments = 3

type blogLessonData struct {
	Keyspace teaching.WideKeyspace
	Blog     bool // the server runs the blog
	Locates  bool
	NoTag    string
	Entry    *blog.EntryView
	Places   []models.LocateModel
	Comments []models.LocateModel
	Shown    int  // comments located
	More     bool // the entry has more comments than that
	Error    string
	// Whose the entry is when the learner named none (labs.ExampleEntry): theirs or the
	// article's; "" for an entry asked for by its slug.
	Whose string
}

func showBlogLesson(h *handler, c *gin.Context) (templ.Component, error) {
	d := blogLessonData{Keyspace: h.SchemaKeyspace("BloggyAppy"), Blog: h.Deps.Blog != nil, Locates: h.Deps.Locator != nil, NoTag: blog.NoTag}
	if !d.Blog || !d.Locates {
		return blogLessonView(d), nil
	}
	ctx := c.Request.Context()
	slug := c.Query("entry")
	if slug == "" {
		// The learner's own newest entry, else the article's: never another learner's.
		e, whose, found, err := h.ExampleEntry(ctx, site.User(c))
		if err != nil {
			return nil, err
		}
		if !found {
			return blogLessonView(d), nil
		}
		slug, d.Whose = e.Slug, whose
	}
	if err := h.blogLessonPlaces(ctx, &d, slug); err != nil {
		if !errors.Is(err, domain.ErrNotFound) && !errors.Is(err, domain.ErrInvalid) {
			return nil, err
		}
		d.Error = "The blog has no entry “" + slug + "”."
	}
	return blogLessonView(d), nil
}

// blogLessonPlaces reads where the entry of slug lives, and where its first comments do.
func (h *handler) blogLessonPlaces(ctx context.Context, d *blogLessonData, slug string) error {
	e, err := h.Deps.Blog.GetEntry(ctx, slug)
	if err != nil {
		return err
	}
	loci, err := h.Deps.Blog.EntryLoci(ctx, slug)
	if err != nil {
		return err
	}
	comments, err := h.Deps.Blog.Comments(ctx, slug, "", blogLessonComments)
	if err != nil {
		return err
	}
	var cloci []teaching.Locus
	for _, cm := range comments.Comments {
		l, err := h.Deps.Blog.CommentLoci(ctx, slug, cm.ID)
		if err != nil {
			return err
		}
		cloci = append(cloci, l...)
	}
	places, err := h.Deps.Locator.Locate(ctx, append(loci, cloci...))
	if err != nil {
		return err
	}
	var entry, comment []teaching.Placement
	for _, p := range places {
		if p.Locus.Kind == teaching.LocusComment {
			comment = append(comment, p)
		} else {
			entry = append(entry, p)
		}
	}
	d.Entry, d.Places, d.Comments = &e, h.GroupPlaces(entry), h.GroupPlaces(comment)
	d.Shown, d.More = len(comments.Comments), comments.Next != ""
	return nil
}

// blogLoad loads the article's blog (authors, entries, comments) from the lesson: loading it
// again reads what exists and writes nothing.
func (h *handler) blogLoad(c *gin.Context) {
	if h.Deps.Blog == nil {
		h.Site.ErrorPage(c, http.StatusNotFound, "No blog", "This server runs no blog.")
		return
	}
	if err := blog.LoadFixture(c.Request.Context(), h.Deps.Blog); err != nil {
		h.Site.Fail(c, err)
		return
	}
	h.Site.Redirect(c, "/learn/blog#entry", "loading the article's blog")
}

// console is the lesson's cassandra-cli console, ready to run: seed 004's AddressBook: a super column per contact, its subcolumns sorted by name.
var console = frame.ConsoleOffer{Language: "cli", Statements: []string{
	"set Sandbox.AddressBook['phatduckk']['John']['street'] = 'Howard street'",
	"set Sandbox.AddressBook['phatduckk']['John']['zip'] = '94404'",
	"set Sandbox.AddressBook['phatduckk']['Joey']['street'] = 'Bloomfield'",
	"get Sandbox.AddressBook['phatduckk']",
	"get Sandbox.AddressBook['phatduckk']['John']",
	"count Sandbox.AddressBook['phatduckk']",
}}
