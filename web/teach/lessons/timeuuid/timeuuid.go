// Package timeuuid is lesson 6 of the course: TimeUUIDs. Two generated in one microsecond, laid out
// field by field (the time they carry, the clock sequence and node that keep them apart), then the
// blog's TaggedPosts row sliced between the smallest TimeUUID of one day and the largest of
// another: one get_slice (one clustering range on cql3), under 0.6's order of TimeUUIDs and
// under later Cassandra's, whose bounds differ.
package timeuuid

//go:generate go tool templ generate -path .

import (
	"fmt"
	"net/url"
	"time"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/models"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Slug: "timeuuid", Title: "TimeUUIDs",
		Summary:   "Generate two TimeUUIDs in one microsecond and read their version-1 layout, then page a tag's entries between two dates in one slice.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showTimeUUID(h, c) },
		Topics:    []string{"timeuuid", "comparators", "slices"},
		Exercises: exercises(h.Deps.Lab, h.LabGate)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

type timeuuidData struct {
	A, B     uuidLayout // two TimeUUIDs of one microsecond
	SameTime bool
	// Order06 and OrderLater are TimeUUIDType's order of A and B (-1, 0 or 1) in 0.6 (ties
	// broken on unsigned bytes) and from 0.7 on (signed), CQL3's timeuuid included.
	Order06, OrderLater int

	Blog     bool   // the server runs the blog
	Backend  string // the backend that answers: widerow, cql3 or memory
	Compare  bool   // compare mode: cql3 runs the same calls second
	Tag      string
	From     string // YYYY-MM-DD
	To       string
	Reversed bool   // From is after To: no slice is sent
	SwapURL  string // the same slice with the dates the right way round
	// The slice's bounds, the largest TimeUUID of To and the smallest of From, under each order:
	// 0.6's (what widerow slices with) and later Cassandra's (what cql3 binds).
	Lo06, Hi06, LoCQL, HiCQL string
	Entries                  []blog.EntryView
	NextURL                  string
	Error                    string
	Empty                    bool // no entry of the learner's or the article's
	// Me is the signed-in learner; Whose the entry whose week the dates default to
	// (labs.ExampleEntry: theirs or the article's), "" for dates the learner gave.
	Me, Whose string
}

// uuidLayout is a version-1 UUID field by field, as RFC 4122 names them.
type uuidLayout struct {
	UUID                                     string
	TimeLow, TimeMid, TimeHi, ClockSeq, Node string // hex, as the UUID's text writes them
	Version                                  int
	Ticks                                    uint64 // 100-ns ticks since 1582-10-15
	Micros                                   int64
	Date                                     string
	ClockSeqValue                            int // the 14 bits of the clock sequence
	Multicast                                bool
}

func layoutOf(u uuid.UUID) uuidLayout {
	s := u.String()
	l := uuidLayout{UUID: s, TimeLow: s[0:8], TimeMid: s[9:13], TimeHi: s[14:18], ClockSeq: s[19:23], Node: s[24:],
		Version: int(u.Version()), Ticks: domain.TimeUUIDTicks(u), Micros: domain.TimeUUIDMicros(u),
		ClockSeqValue: int(u[8]&0x3f)<<8 | int(u[9]), Multicast: u[10]&1 == 1}
	l.Date = domain.MicrosDate(l.Micros)
	return l
}

const (
	dateForm     = "2006-01-02"
	timeuuidPage = 10
)

func showTimeUUID(h *handler, c *gin.Context) (templ.Component, error) {
	now := time.Now().UnixMicro()
	a, b := domain.NewTimeUUID(now), domain.NewTimeUUID(now)
	d := timeuuidData{A: layoutOf(a), B: layoutOf(b), SameTime: domain.TimeUUIDTicks(a) == domain.TimeUUIDTicks(b),
		Order06: domain.TieUnsigned.Compare(a, b), OrderLater: domain.TieSigned.Compare(a, b),
		Blog: h.Deps.Blog != nil, Backend: h.Deps.Backend, Compare: h.Deps.CompareBackend == "cql3",
		Tag: c.Query("tag"), From: c.Query("from"), To: c.Query("to"), Me: site.User(c)}
	if !d.Blog {
		return timeuuidView(d), nil
	}
	ctx := c.Request.Context()
	if d.Tag == "" {
		d.Tag = blog.NoTag
	}
	if d.From == "" || d.To == "" {
		// By default, the week up to the learner's newest entry, else the article's: never
		// the week of another learner's.
		e, whose, found, err := h.ExampleEntry(ctx, d.Me)
		if err != nil {
			return nil, err
		}
		if !found {
			d.Empty = true
			return timeuuidView(d), nil
		}
		to := e.PublishedAt.UTC()
		d.From, d.To, d.Whose = to.AddDate(0, 0, -7).Format(dateForm), to.Format(dateForm), whose
	}
	from, err1 := time.Parse(dateForm, d.From)
	to, err2 := time.Parse(dateForm, d.To)
	if err1 != nil || err2 != nil {
		d.Error = fmt.Sprintf("Dates are written YYYY-MM-DD, like 2009-08-18: not %q and %q.", d.From, d.To)
		return timeuuidView(d), nil
	}
	oldest, newest := from, to.AddDate(0, 0, 1).Add(-time.Microsecond)
	d.Lo06, d.Hi06 = domain.TieUnsigned.MinTimeUUID(oldest.UnixMicro()).String(), domain.TieUnsigned.MaxTimeUUID(newest.UnixMicro()).String()
	d.LoCQL, d.HiCQL = domain.TieSigned.MinTimeUUID(oldest.UnixMicro()).String(), domain.TieSigned.MaxTimeUUID(newest.UnixMicro()).String()
	if newest.Before(oldest) {
		// The slice would start below its finish: 0.6 refuses such a range, CQL3 answers it with
		// no row; the page sends neither, and says so.
		d.Reversed = true
		d.SwapURL = "/learn/timeuuid?" + url.Values{"tag": {d.Tag}, "from": {d.To}, "to": {d.From}}.Encode() + "#paging"
		return timeuuidView(d), nil
	}
	page, err := h.Deps.Blog.EntriesBetween(ctx, d.Tag, oldest, newest, c.Query("start"), timeuuidPage)
	if err != nil {
		if models.StatusOf(err) >= 500 {
			return nil, err
		}
		d.Error = models.InspectError(err)
		return timeuuidView(d), nil
	}
	d.Entries = page.Entries
	if page.Next != "" {
		d.NextURL = "/learn/timeuuid?" + url.Values{"tag": {d.Tag}, "from": {d.From}, "to": {d.To}, "start": {page.Next}}.Encode() + "#paging"
	}
	return timeuuidView(d), nil
}
