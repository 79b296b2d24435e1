package teach

import (
	"cmp"
	"slices"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
)

// lesson is one step of the course.
type lesson struct {
	N     int    // its place in the course, from 1
	Slug  string // its address: /learn/<slug>
	Title string
	// Summary is what the start page says of it: one sentence.
	Summary string
	// show reads what the lesson shows from the running store and returns its body (text and
	// live part), or an error the site renders as the lesson's error page.
	show func(h *handler, c *gin.Context) (templ.Component, error)
}

// lessons are the lessons registered, in no order; course returns them in order.
var lessons []lesson

// addLesson registers a lesson; two lessons of one number or slug are a mistake the tests catch.
func addLesson(l lesson) { lessons = append(lessons, l) }

// course is the lessons in their order.
func course() []lesson {
	out := slices.Clone(lessons)
	slices.SortFunc(out, func(a, b lesson) int { return cmp.Compare(a.N, b.N) })
	return out
}

// lessonLink is a link to a lesson from another page.
type lessonLink struct {
	N           int
	Slug, Title string
}

func (l lesson) link() *lessonLink { return &lessonLink{N: l.N, Slug: l.Slug, Title: l.Title} }

// lessonNumber is the place in the course of the lesson slug. A slug that names no lesson is a
// fault of the code that names it, and a test reads every one.
func lessonNumber(slug string) int {
	for _, l := range lessons {
		if l.Slug == slug {
			return l.N
		}
	}
	panic("no lesson " + slug)
}

// lessonURL is a lesson's address.
func lessonURL(slug string) templ.SafeURL { return templ.SafeURL("/learn/" + slug) }
