package site

import (
	"slices"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
)

// Teacher is what the teaching views add to every page the site serves. The site calls it at
// fixed points and knows nothing of what it does; package teach supplies one (Site.Teach).
type Teacher interface {
	// Banner is what the layout shows at the top of the page's main content, before the
	// flashes, in answer to c (nil for nothing): what a learner must see before anything else,
	// such as the two models of compare mode answering differently. An error from its Render
	// makes the page a 500.
	Banner(c *gin.Context) templ.Component
	// Footer is what the layout shows at the head of the footer of the page rendered in answer
	// to c. An error from its Render makes the page a 500, as any rendering failure does.
	Footer(c *gin.Context) templ.Component
	// Acted is told, just before its redirect, that c carried a form's action, named for the
	// learner ("your post"): what it cost is for the next page to show.
	Acted(c *gin.Context, action string)
	// Measured is told, as the response to c is written (a page or a redirect), that the
	// handler said it is one of kind (Measure).
	Measured(c *gin.Context, kind Measured)
}

// Measured names a kind of response whose storage cost the teaching views keep: the last of
// each is measured for the pages that compare data models. The handler that serves one says so
// with Measure; the site itself knows none of them.
type Measured int

// The kinds of measured response.
const (
	// HomeTimelinePage is a signed-in reader's home timeline page.
	HomeTimelinePage Measured = iota + 1
	// Post is the action of posting a tweet.
	Post
)

const measureKey = "twissandra.site.measured"

// Measure says that the response to c, the page it renders or the redirect it answers with, is
// one of kind: the Teacher is told as it is written.
func Measure(c *gin.Context, kind Measured) { c.Set(measureKey, kind) }

// measured tells the Teacher what the handler said the response to c is, if anything.
func (s *Site) measured(c *gin.Context) {
	if s.teacher == nil {
		return
	}
	v, _ := c.Get(measureKey)
	if kind, ok := v.(Measured); ok {
		s.teacher.Measured(c, kind)
	}
}

// AccessPattern names one of the access patterns of the seeds' application that the teaching
// views list on /models (Q1 to Q9). A handler says which its response served (Serves), and the
// page's footer says where each model finds them.
type AccessPattern string

// The access patterns, as /models numbers them.
const (
	UserByName    AccessPattern = "Q1" // a user by username
	Userline      AccessPattern = "Q2" // a user's tweets, newest first
	HomeTimeline  AccessPattern = "Q3" // a user's home timeline
	PublicLine    AccessPattern = "Q4" // the public line
	Follows       AccessPattern = "Q5" // whom a user follows, who follows a user
	BlogEntries   AccessPattern = "Q6" // blog entries newest first, all or by tag
	BlogEntry     AccessPattern = "Q7" // one blog entry with its author
	EntryComments AccessPattern = "Q8" // an entry's comments
	AuthorProfile AccessPattern = "Q9" // an author's profile
)

const servesKey = "twissandra.site.serves"

// Serves says that the response to c served the access patterns ps, beside those it named
// before: what this request read, not what its route may read.
func Serves(c *gin.Context, ps ...AccessPattern) {
	prev, _ := c.Get(servesKey)
	had, _ := prev.([]AccessPattern)
	for _, p := range ps {
		if !slices.Contains(had, p) {
			had = append(had, p)
		}
	}
	c.Set(servesKey, had)
}

// Served is the access patterns the handler said the response to c served (Serves), in the
// order it named them; nil when it said none.
func Served(c *gin.Context) []AccessPattern {
	v, _ := c.Get(servesKey)
	ps, _ := v.([]AccessPattern)
	return ps
}
