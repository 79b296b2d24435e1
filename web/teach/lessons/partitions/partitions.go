// Package partitions is lesson 11 of the course: hot partitions and partition sizes. Each column
// family's or table's largest row or partition, measured now, against Cassandra's guidance; what
// grows without bound; the public line's hot row on 0.6 and its day buckets on cql3; and a post
// that widens it.
package partitions

//go:generate go tool templ generate -path .

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/models"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Slug: "partitions", Title: "Hot partitions and partition sizes",
		Summary:   "Each table's largest partition, measured now, against Cassandra's guidance of about 100 MB and 100,000 cells; what grows without bound, and the public line's day buckets.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showPartitionsLesson(h, c) },
		Exercises: exercises(h)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

// Cassandra's guidance for a partition: stay under about 100 MB and 100,000 cells. Past them
// a partition is slow to read, to compact and to repair, and weighs on its replicas' heap.
const (
	guideBytes = 100 << 20
	guideCells = 100_000
)

// growth says what makes the rows of a column family, table or map grow (without bound, unless
// bounds says how far); those missing stay a few cells each (a user, a tweet, an entry).
var growth = map[string]string{
	"Twissandra.Followers":   "a column per follower: a celebrity's row holds their whole audience",
	"Twissandra.Friends":     "a column per user followed",
	"Twissandra.Timeline":    "every post of everyone the reader follows, kept for ever",
	"Twissandra.Userline":    "every post of the user; the !PUBLIC! row every post of everyone",
	"BloggyAppy.TaggedPosts": "every entry under its tags; the __notag__ row every entry of the blog",
	"BloggyAppy.Comments":    "every comment of the entry",
	"followers":              "a row per follower: a celebrity's partition holds their whole audience",
	"friends":                "a row per user followed",
	"timeline":               "every post of everyone the reader follows, kept for ever",
	"userline":               "every post of the user",
	"tagged_posts":           "every entry under its tag",
	"comments":               "every comment of the entry",
	"pulled_authors":         "every author ever pulled",
	"public_days":            "a row a day with posts, 365 a year",
	"public_line":            "every post of everyone that day; the next day's posts write another partition",
	"lines":                  "every entry of the line (the public line: every post)",
}

// bounds says how the rows of the containers of growth that do not grow without bound grow:
// public_days gains a row a day, for ever but slowly; a public_line partition holds one day.
var bounds = map[string]string{
	"public_days": "without bound, slowly",
	"public_line": "bounded by a day",
}

// largestOf is a container's widest row or partition, against the guidance.
type largestOf struct {
	teaching.RowSize
	Name      string // the container's name without its keyspace
	Cells     int    // cells, as Cassandra counts them: columns (0.6), rows × value columns (CQL3)
	Grows     string // what makes it grow, or "": a few cells each
	Bound     string // how far it grows: "without bound", or as bounds says
	CellShare string // of guideCells
	ByteShare string // of guideBytes
}

type partitionsLessonModel struct {
	Backend  string
	Unit     string
	Largest  []largestOf
	Scanned  int
	PerScan  int
	Capped   []string
	Public   teaching.PublicLayout
	MaxDay   int
	Many     bool
	Measured int // how many of the widest rows were measured
}

type partitionsLessonData struct {
	Available bool
	Me        string
	Models    []partitionsLessonModel
}

func showPartitionsLesson(h *handler, c *gin.Context) (templ.Component, error) {
	d := partitionsLessonData{Available: h.Deps.Sizes != nil, Me: site.User(c)}
	if !d.Available {
		return partitionsLessonView(d), nil
	}
	ctx := c.Request.Context()
	sizers := []struct {
		s       teaching.RowSizer
		backend string
	}{{h.Deps.Sizes, h.Deps.Backend}}
	if h.Deps.CompareSizes != nil {
		sizers = append(sizers, struct {
			s       teaching.RowSizer
			backend string
		}{h.Deps.CompareSizes, h.Deps.CompareBackend})
	}
	for _, sz := range sizers {
		lm, err := h.measured(ctx, sz.s, sz.backend, len(sizers) > 1)
		if err != nil {
			return nil, err
		}
		d.Models = append(d.Models, lm)
	}
	return partitionsLessonView(d), nil
}

// measured is one model's widest partitions, measured now: each container's largest against the
// guidance, widest first (the page's table, and what its exercises are graded by).
func (h *handler) measured(ctx context.Context, s teaching.RowSizer, backend string, many bool) (partitionsLessonModel, error) {
	m, err := models.Measure(ctx, s, backend, models.PartitionsMax)
	if err != nil {
		return partitionsLessonModel{}, err
	}
	lm := partitionsLessonModel{Backend: backend, Unit: m.Widest.Unit, Scanned: m.Widest.Scanned, PerScan: m.Widest.PerContainer,
		Capped: m.Widest.CappedIn, Public: m.Public, MaxDay: m.MaxPublic, Many: many, Measured: len(m.Widest.Rows)}
	seen := map[string]bool{}
	for _, r := range m.Widest.Rows { // widest first: the first of each container is its largest
		if seen[r.Container] {
			continue
		}
		seen[r.Container] = true
		lm.Largest = append(lm.Largest, h.largest(r, m.Widest.Unit))
	}
	slices.SortStableFunc(lm.Largest, func(a, b largestOf) int { return cmp.Compare(b.Cells, a.Cells) })
	return lm, nil
}

// largest is a row against the guidance: its cells, as Cassandra counts them, and what makes
// it grow.
func (h *handler) largest(r teaching.RowSize, unit string) largestOf {
	l := largestOf{RowSize: r, Name: r.Container, Cells: r.Cells}
	if unit == "rows" { // a CQL row is a cell per value column (and a row marker, in 1.2 to 2.x)
		_, l.Name, _ = strings.Cut(r.Container, ".")
		if t, ok := frame.SchemaTable(h.Deps.QueryFirstDDL, l.Name); ok {
			l.Cells = r.Cells*max(1, len(t.Regular)) + len(t.Static)
		}
	}
	l.Grows = growth[r.Container]
	if l.Grows == "" {
		l.Grows = growth[l.Name]
	}
	l.Bound = bounds[l.Name]
	if (r.Key == "!PUBLIC!" || r.Key == "public") && l.Bound == "" { // public_days' one partition is keyed "public" too
		l.Grows, l.Bound = "every post of everyone: the public line", ""
	}
	if l.Bound == "" {
		l.Bound = "without bound"
	}
	l.CellShare = shareOf(int64(l.Cells), guideCells)
	l.ByteShare = shareOf(r.Bytes, guideBytes)
	return l
}

// shareOf is n as a share of of: "under 1%", or a whole percentage.
func shareOf(n, of int64) string {
	if n*100 < of {
		return "under 1%"
	}
	return strconv.FormatInt(n*100/of, 10) + "%"
}
