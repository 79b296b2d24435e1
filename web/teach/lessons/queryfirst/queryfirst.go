// Package queryfirst is lesson 9 of the course: query-first design. The access patterns come first,
// the tables follow (the Chebotko diagram); then the learner picks a primary key for an access
// pattern, and the running node says what it makes of the pattern's query on a table so keyed
// (teaching.QueryLab): one partition, several, a scan, or a refusal that asks for ALLOW FILTERING,
// and what each statement cost.
package queryfirst

//go:generate go tool templ generate -path .

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{Handler: lh, keys: lh.RunGate("key trial")}
	return frame.Lesson{Consoles: []frame.ConsoleOffer{console},
		Slug: "query-first", Title: "Query-first design",
		Summary:   "List the queries first, then make a table for each; pick a primary key for an access pattern and the running node says whether its query reads one partition, many, or needs ALLOW FILTERING.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showQueryFirstLesson(h, c) },
		Exercises: exercises(lh, h.keys),
		Routes: func(g *gin.RouterGroup) {
			g.POST("learn/act/key", h.Admit(h.keys), h.tryKey)
		}}
}

// handler is the labs' handler, which the lesson reads the running store through, and the
// browsers' last trials.
type handler struct {
	*labs.Handler
	// keyTrials are the last trial of each browser.
	keyTrials frame.LastRuns[keyTrialResult]
	// keys bounds the keys tried, the form's and the exercises' gradings together.
	keys *frame.Gate
}

// keyTrialResult is a trial, or why there is none (the store has no CQL).
type keyTrialResult struct {
	Trial teaching.KeyTrial
	Why   string
	at    time.Time
}

type queryFirstData struct {
	Backend, Compare string
	Patterns         []frame.AccessPattern
	Diagram          *frame.ChebDiagram
	// The exercise.
	Available bool // a QueryLab is there
	OnNode    bool // it tries keys on a cql3 node
	Lab       []teaching.KeyPattern
	Pattern   teaching.KeyPattern
	Form      keyForm
	Result    *keyTrialResult
	Hot       bool // the tried key's partition key holds only constants
}

// keyForm is the exercise's form as filled: up to two partition key columns, and up to two
// clustering columns with their order.
type keyForm struct {
	P1, P2, C1, C2 string
	D1, D2         bool
}

func formOf(k teaching.KeyChoice) keyForm {
	var f keyForm
	if len(k.Partition) > 0 {
		f.P1 = k.Partition[0]
	}
	if len(k.Partition) > 1 {
		f.P2 = k.Partition[1]
	}
	if len(k.Clustering) > 0 {
		f.C1, f.D1 = k.Clustering[0].Column, k.Clustering[0].Desc
	}
	if len(k.Clustering) > 1 {
		f.C2, f.D2 = k.Clustering[1].Column, k.Clustering[1].Desc
	}
	return f
}

func (f keyForm) choice(pattern string) teaching.KeyChoice {
	k := teaching.KeyChoice{Pattern: pattern}
	for _, p := range []string{f.P1, f.P2} {
		if p != "" {
			k.Partition = append(k.Partition, p)
		}
	}
	for _, c := range []teaching.ClusteringChoice{{Column: f.C1, Desc: f.D1}, {Column: f.C2, Desc: f.D2}} {
		if c.Column != "" {
			k.Clustering = append(k.Clustering, c)
		}
	}
	return k
}

func showQueryFirstLesson(h *handler, c *gin.Context) (templ.Component, error) {
	d := queryFirstData{Backend: h.Deps.Backend, Compare: h.Deps.CompareBackend, Patterns: frame.AccessPatterns, Diagram: h.Diagram,
		Available: h.Deps.QueryLab != nil, OnNode: h.Deps.Backend == "cql3" || h.Deps.CompareBackend == "cql3", Lab: teaching.KeyPatterns}
	var ok bool
	if d.Pattern, ok = teaching.LookupPattern(c.Query("pattern")); !ok {
		d.Pattern = teaching.KeyPatterns[0]
	}
	// The form starts with the first column alone in the partition key: a key to improve.
	d.Form = keyForm{P1: d.Pattern.Columns[0].Name}
	if id := labs.LabSession(c, false); id != "" {
		if r, ok := h.keyTrials.Get(id); ok && (r.Why != "" || r.Trial.Choice.Pattern == d.Pattern.ID) {
			d.Result = &r
			if r.Why == "" {
				d.Form = formOf(r.Trial.Choice)
				d.Hot = hotKey(d.Pattern, r.Trial.Choice)
			}
		}
	}
	return queryFirstLessonView(d), nil
}

// hotKey says the key's partition key holds only constant columns: one partition for every row.
// orderNote says in which order the rows of one partition came back: the clustering order, or
// its reverse when the query's ORDER BY asks the other way than the table's first clustering
// column sorts (the node then reads the partition backwards).
func orderNote(p teaching.KeyPattern, k teaching.KeyChoice) string {
	for _, c := range p.Columns {
		if c.Role != teaching.Ordered || len(k.Clustering) == 0 || k.Clustering[0].Column != c.Name {
			continue
		}
		orderBy := "ORDER BY " + c.Name + map[bool]string{true: " DESC", false: " ASC"}[p.Desc]
		if k.Clustering[0].Desc != p.Desc {
			return "in the reverse of the clustering order (" + orderBy + ")"
		}
		return "in clustering order (" + orderBy + " is the table's own)"
	}
	return "in clustering order"
}

func hotKey(p teaching.KeyPattern, k teaching.KeyChoice) bool {
	return !slices.ContainsFunc(k.Partition, func(name string) bool {
		c, _ := p.Column(name)
		return c.Role != teaching.Constant
	})
}

// tryKey runs the learner's key on the lab and goes back to the lesson, which shows what
// Cassandra made of it; the footer shows what the statements cost.
func (h *handler) tryKey(c *gin.Context) {
	if h.Deps.QueryLab == nil {
		h.Site.ErrorPage(c, http.StatusNotFound, "No query lab", "This server has no query lab.")
		return
	}
	pattern := c.PostForm("pattern")
	back := "/learn/query-first?" + url.Values{"pattern": {pattern}}.Encode() + "#result"
	f := keyForm{P1: c.PostForm("p1"), P2: c.PostForm("p2"), C1: c.PostForm("c1"), C2: c.PostForm("c2"),
		D1: c.PostForm("d1") == "desc", D2: c.PostForm("d2") == "desc"}
	session := labs.LabSession(c, true)
	ctx := h.QueryLabContext(c.Request.Context())
	// The lab counts the trials of the learner (frame.LearnerID); the gate has counted the
	// learner's address too, which bounds a client that drops its cookies.
	trial, err := h.Deps.QueryLab.TryKey(ctx, h.Learner(c), f.choice(pattern))
	switch {
	case err == nil:
		h.keyTrials.Put(session, keyTrialResult{Trial: trial, at: time.Now()})
	case errors.Is(err, teaching.ErrNoQueryLab):
		h.keyTrials.Put(session, keyTrialResult{Why: site.Sentence(err.Error()), at: time.Now()})
	case errors.Is(err, teaching.ErrTooManyTrials):
		site.AddFlash(c, site.FlashError, site.Sentence(err.Error()))
		h.Site.Redirect(c, back, "")
		return
	case errors.Is(err, domain.ErrInvalid):
		_, msg := site.ProblemMessage(err)
		site.AddFlash(c, site.FlashError, msg)
		h.Site.Redirect(c, back, "")
		return
	default:
		h.Site.Fail(c, err)
		return
	}
	h.Site.Redirect(c, back, "your table")
}

// console is the lesson's CQL console, ready to run: a table made for its query: the partition key is what the query names, the clustering column its order.
var console = frame.ConsoleOffer{Language: "cql", Statements: []string{
	"CREATE TABLE IF NOT EXISTS tweets_by_user (username text, posted_at timestamp, body text, PRIMARY KEY ((username), posted_at)) WITH CLUSTERING ORDER BY (posted_at DESC);",
	"INSERT INTO tweets_by_user (username, posted_at, body) VALUES ('ann', '2026-01-01 10:00:00+0000', 'first');",
	"INSERT INTO tweets_by_user (username, posted_at, body) VALUES ('ann', '2026-01-02 10:00:00+0000', 'second');",
	"SELECT * FROM tweets_by_user WHERE username = 'ann' LIMIT 10;",
}}
