package models

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// "Where does it live" (/models/where): every row, column, partition or map entry one record occupies in the
// running model(s), read from the stores now (teaching.Locator), from any tweet, user, follow,
// blog entry or comment.

// LocateFollowers is how many followers' timelines one page of a tweet's places lists.
const LocateFollowers = 50

type locateData struct {
	Available bool
	What      string
	Error     string
	Models    []LocateModel
	NextURL   string
	FirstURL  string
	Followers bool // the tweet's followers page
}

type LocateModel struct {
	Model   string
	Title   string
	Present int
	Places  []locatePlace
}

type locatePlace struct {
	// Role is the record ("ann's record"), Part which part of it the place holds, if it has
	// several ("the Username index …").
	Role, Part, Container, Address, Inspect string
	// Token is the partitioner's token of the place's row or partition key ("" for none), and
	// Ring the tokens lesson's page that places the key on the ring.
	Token   string
	Ring    templ.SafeURL
	Present bool
	Lines   []frame.NotationLine // the place as its model writes it
	Disk    []frame.NotationLine // a CQL row as Cassandra 1.2-2.2 stored it
}

var modelTitles = map[string]string{
	"widerow": "widerow: Cassandra 0.6 column families (seed 001)",
	"cql3":    "cql3: CQL3 tables (seed 002)",
	"memory":  "memory: Go maps behind the ports",
}

// blogTitles name the models of a blog record's places: the blog is seed 004's, not the seeds
// of Twissandra's column families and tables.
var blogTitles = map[string]string{
	"widerow": "widerow: Cassandra 0.6 column families (seed 004's blog)",
	"cql3":    "cql3: CQL3 tables (seed 004's blog as tables, migration 002)",
	"memory":  "memory: Go maps behind the ports (seed 004's blog)",
}

// isBlogLocus reports whether k is a record of the blog.
func isBlogLocus(k teaching.LocusKind) bool {
	return k == teaching.LocusAuthor || k == teaching.LocusEntry || k == teaching.LocusTagRef || k == teaching.LocusComment
}

func (h *Handler) Locate(c *gin.Context) {
	d := locateData{Available: h.Deps.Locator != nil}
	page := func(status int) {
		h.Site.Render(c, status, site.Page{Title: "Where does it live", Nav: "models", Content: locateView(d)})
	}
	if !d.Available {
		page(http.StatusOK)
		return
	}
	ctx := c.Request.Context()
	loci, err := h.locateLoci(ctx, c, &d)
	if err == nil && loci == nil {
		d.Error = "Say what to locate: ?tweet=<id>, ?user=<name>, ?follower=<name>&followed=<name>, ?entry=<slug> or ?entry=<slug>&comment=<id>. Every tweet, user page, blog entry and comment links here."
		page(http.StatusBadRequest)
		return
	}
	if err != nil {
		d.What = "" // nothing is located: no "every place … occupies"
		var m *missingError
		if errors.As(err, &m) {
			d.Error = m.sentence
			page(http.StatusNotFound)
			return
		}
		d.Error = site.Sentence(InspectError(err))
		page(StatusOf(err))
		return
	}
	places, err := h.Deps.Locator.Locate(ctx, loci)
	if err != nil {
		d.Error = "Reading the stores failed: " + err.Error()
		page(StatusOf(err))
		return
	}
	d.Models = h.GroupPlaces(places)
	page(http.StatusOK)
}

// missingError is a record that does not exist, said as a plain sentence (a 404).
type missingError struct {
	sentence string
	err      error
}

func (e *missingError) Error() string { return e.sentence }
func (e *missingError) Unwrap() error { return e.err }

// missing is err, said as sentence when it is domain.ErrNotFound.
func missing(err error, sentence string) error {
	if errors.Is(err, domain.ErrNotFound) {
		return &missingError{sentence: sentence, err: err}
	}
	return err
}

// locateLoci reads the query: what to locate. nil, nil when it names nothing.
func (h *Handler) locateLoci(ctx context.Context, c *gin.Context, d *locateData) ([]teaching.Locus, error) {
	bad := func(field, format string, args ...any) error { return domain.Invalid(field, format, args...) }
	switch {
	case c.Query("tweet") != "":
		id, err := uuid.Parse(c.Query("tweet"))
		if err != nil {
			return nil, bad("tweet", "%q is not a tweet ID (a UUID)", c.Query("tweet"))
		}
		after := c.Query("after")
		t, loci, next, err := h.Deps.Social.TweetLoci(ctx, id, after, LocateFollowers)
		if err != nil {
			return nil, missing(err, "There is no tweet "+id.String()+" on this server.")
		}
		d.What = fmt.Sprintf("@%s's tweet %q", t.Username, t.Body)
		d.Followers = after != ""
		if next != "" {
			d.NextURL = "/models/where?" + url.Values{"tweet": {id.String()}, "after": {next}}.Encode()
		}
		if after != "" {
			d.FirstURL = "/models/where?tweet=" + id.String()
		}
		return loci, nil
	case c.Query("user") != "":
		d.What = "the user @" + c.Query("user")
		loci, err := h.Deps.Social.UserLoci(ctx, c.Query("user"))
		return loci, missing(err, "There is no user named "+c.Query("user")+" on this server.")
	case c.Query("follower") != "" || c.Query("followed") != "":
		a, b := c.Query("follower"), c.Query("followed")
		if a == "" || b == "" {
			return nil, bad("follow", "a follow needs both follower and followed")
		}
		for _, n := range []string{a, b} {
			if _, err := h.Deps.Social.UserLoci(ctx, n); err != nil {
				return nil, missing(err, "There is no user named "+n+" on this server.")
			}
		}
		d.What = fmt.Sprintf("@%s follows @%s", a, b)
		return h.Deps.Social.FollowLoci(a, b), nil
	case c.Query("entry") != "":
		if h.Deps.Blog == nil {
			return nil, bad("entry", "this server runs no blog")
		}
		slug := c.Query("entry")
		if s := c.Query("comment"); s != "" {
			id, err := uuid.Parse(s)
			if err != nil {
				return nil, bad("comment", "%q is not a comment ID (a UUID)", s)
			}
			d.What = fmt.Sprintf("comment %s on the entry %q", id, slug)
			loci, err := h.Deps.Blog.CommentLoci(ctx, slug, id)
			return loci, missing(err, "There is no blog entry "+strconv.Quote(slug)+" on this server.")
		}
		d.What = fmt.Sprintf("the blog entry %q", slug)
		loci, err := h.Deps.Blog.EntryLoci(ctx, slug)
		return loci, missing(err, "There is no blog entry "+strconv.Quote(slug)+" on this server.")
	}
	return nil, nil
}

func (h *Handler) GroupPlaces(places []teaching.Placement) []LocateModel {
	var models []LocateModel
	for _, p := range places {
		i := len(models) - 1
		if i < 0 || models[i].Model != p.Model {
			title := modelTitles[p.Model]
			if isBlogLocus(p.Locus.Kind) {
				title = blogTitles[p.Model]
			}
			if title == "" {
				title = p.Model
			}
			models = append(models, LocateModel{Model: p.Model, Title: title})
			i++
		}
		wp := locatePlace{Role: p.Locus.Role, Part: p.Part, Container: p.Container, Address: p.Address, Present: p.Present, Token: p.Token}
		if p.Token != "" {
			wp.Ring = tokensLessonURL(p.Key)
		}
		if p.Model == h.Deps.Backend && p.Inspect != "" && (h.Deps.Wide != nil || h.Deps.CQL != nil) {
			wp.Inspect = "/models/inspect?" + p.Inspect
		}
		if p.Present {
			models[i].Present++
			wp.Lines, wp.Disk = placeLines(p)
		}
		models[i].Places = append(models[i].Places, wp)
	}
	return models
}

// placeLines writes a place in its model's notation: a 0.6 row with its columns (name, value,
// timestamp), a CQL row with its key columns, or a Go map entry; a CQL row also as the composite
// cells it was in Cassandra 1.2 to 2.2.
func placeLines(p teaching.Placement) (lines, disk []frame.NotationLine) {
	switch {
	case p.Table != nil:
		row := make([]frame.CQLCell, len(p.Cells))
		for i, c := range p.Cells {
			row[i] = frame.CQLCell{Name: c.Name, Value: c.Value, Null: c.Value == "null", Timestamp: c.Timestamp, TTL: c.TTL}
		}
		rows := [][]frame.CQLCell{row}
		return CqlNotation(p.Table, []string{p.Key}, rows), WideRowNotation(p.Table, []string{p.Key}, rows)
	case p.Model == "widerow":
		cols := make([]teaching.WideColumn, 0, len(p.Cells))
		for _, c := range p.Cells {
			col := teaching.WideColumn{Name: c.Name, Value: c.Value, Timestamp: c.Timestamp}
			switch n := len(cols); {
			case c.Super == "":
				cols = append(cols, col)
			case n > 0 && cols[n-1].Columns != nil && cols[n-1].Name == c.Super: // the super column's next subcolumn
				cols[n-1].Columns = append(cols[n-1].Columns, col)
			default: // a super column, drawn as seed 004 writes it: its subcolumns inside it
				cols = append(cols, teaching.WideColumn{Name: c.Super, Columns: []teaching.WideColumn{col}})
			}
		}
		_, cf, _ := strings.Cut(p.Container, ".")
		return frame.Notation(cf, p.Key, cols), nil
	}
	lines = []frame.NotationLine{{Name: p.Container + "[" + strconv.Quote(p.Key) + "]", Open: true}}
	for _, c := range p.Cells {
		lines = append(lines, frame.NotationLine{Indent: "    ", Name: c.Name, Value: c.Value})
	}
	return append(lines, frame.NotationLine{Close: true}), nil
}
