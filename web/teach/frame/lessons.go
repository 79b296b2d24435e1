package frame

import (
	"slices"
	"sync/atomic"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
)

// A Lesson is one step of the course: package course lists the lessons, in order, and numbers
// them; each lesson's package makes its own (its Lesson function).
type Lesson struct {
	N     int    // its place in the course, from 1
	Slug  string // its address: /learn/<slug>
	Title string
	// Summary is what the start page says of it: one sentence.
	Summary string
	// Show reads what the lesson shows from the running store and returns its body (text and
	// live part), or an error the site renders as the lesson's error page.
	Show func(c *gin.Context) (templ.Component, error)
	// Routes adds the routes of the lesson's own forms; nil for a lesson with none.
	Routes func(g *gin.RouterGroup)
	// Topics are what the lesson teaches, as words an instructor's tool can filter on
	// ("comparators", "slices"): /api/v1/course lists them.
	Topics []string
	// Exercises are the lesson's questions, asked below its body and graded by the store
	// (exercise.go); a lesson leaves out those whose collaborator the server lacks.
	Exercises []Exercise
	// Consoles are the lesson's consoles (ConsoleOffer): the statements it offers to run and
	// change, in a box after its body (ConsoleBoxView), shown on every backend, which says
	// where the backend has no console of that language.
	Consoles []ConsoleOffer
}

// LessonLink is a link to a lesson from another page.
type LessonLink struct {
	N           int
	Slug, Title string
	Summary     string // the lesson's one sentence
	// Consoles are the lesson's consoles (Lesson.Consoles).
	Consoles []ConsoleOffer
}

// Link is a link to l.
func (l Lesson) Link() *LessonLink {
	return &LessonLink{N: l.N, Slug: l.Slug, Title: l.Title, Summary: l.Summary, Consoles: l.Consoles}
}

// course is the links to the course's lessons, in order, as package course published them: the
// pages that name a lesson (the lab, the race, the reference pages) read its number here, so that
// no page imports a lesson.
var course atomic.Pointer[[]LessonLink]

// PublishCourse makes ls, the course in order, the lessons every page links to.
func PublishCourse(ls []Lesson) {
	links := make([]LessonLink, len(ls))
	for i, l := range ls {
		links[i] = *l.Link()
	}
	course.Store(&links)
}

// Course is the links to the lessons, in order (none before package course published them).
func Course() []LessonLink {
	if ls := course.Load(); ls != nil {
		return *ls
	}
	return nil
}

// IsLesson says whether slug is a lesson's.
func IsLesson(slug string) bool {
	return slices.ContainsFunc(Course(), func(l LessonLink) bool { return l.Slug == slug })
}

// LessonNumber is the place in the course of the lesson slug. A slug that names no lesson is a
// fault of the code that names it, and a test reads every one.
func LessonNumber(slug string) int {
	for _, l := range Course() {
		if l.Slug == slug {
			return l.N
		}
	}
	panic("no lesson " + slug)
}

// LessonURL is a lesson's address.
func LessonURL(slug string) templ.SafeURL { return templ.SafeURL("/learn/" + slug) }
