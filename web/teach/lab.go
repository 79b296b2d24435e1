package teach

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/site"
)

// The comparator and slice lab: a learner's names stored under each of the six comparators,
// side by side, then sliced; and one column written with chosen timestamps, to see which write
// wins. It runs on a scratch keyspace of its own (teaching.ColumnLab), whatever the backend. Each
// browser has a lab of its own, named by a random id kept in its session cookie.

const keyLab = "lab" // the session's lab id

func (h *handler) registerLab(g *gin.RouterGroup) {
	g.GET("models/lab", h.lab)
	g.POST("models/lab/insert", h.admit(h.labGate), h.labInsert)
	g.POST("models/lab/slice", h.admit(h.labGate), h.labSlice)
	g.POST("models/lab/lww", h.admit(h.labGate), h.labLWW)
	g.POST("models/lab/clear", h.admit(h.labGate), h.labClear)
}

type labData struct {
	Available   bool
	Bounds      string // the lab's bounds (gate.Bounds)
	Backend     string // the running backend's, not the lab's
	Comparators []string
	Names       string // the insert form's names
	Value       string // and value
	Inserted    []string
	InsertError string
	Rows        []teaching.LabRow
	Depth       []int // row positions of the order table
	Held        int   // the most names one comparator's row holds

	Cmp        string
	Start      string
	Finish     string
	Reversed   bool
	Count      string
	Slice      *teaching.LabSlice
	SliceError string

	LWW      lwwForm
	Results  []*lwwResult // the writes applied in order, then in reverse
	LWWError string
	Verdict  string
}

type lwwForm struct {
	V1, V2       string
	T1, T2, TDel string
	Delete       bool
}

type lwwResult struct {
	Order  string
	Cell   teaching.LabCell
	Stored []notationLine
}

func newLabData(h *handler) labData {
	d := labData{Available: h.deps.Lab != nil, Backend: h.deps.Backend, Bounds: h.labGate.Bounds(), Names: "3 123 976 832416", Value: "v", Cmp: "LongType", Count: "10",
		LWW: lwwForm{V1: "first", T1: "1273651200000000", V2: "second", T2: "1273651100000000", TDel: "1273651300000000"}}
	if d.Available {
		d.Comparators = h.deps.Lab.Comparators()
	}
	return d
}

// labSession is the browser's lab id; create makes one when the session has none.
func labSession(c *gin.Context, create bool) string {
	s := sessions.Default(c)
	if v, ok := s.Get(keyLab).(string); ok && v != "" {
		return v
	}
	if !create {
		return ""
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)
	s.Set(keyLab, id)
	return id
}

func (h *handler) lab(c *gin.Context) {
	h.labPage(c, http.StatusOK, newLabData(h))
}

// labPage reads the session's rows (unless an insert just did) and renders the lab. A failure
// of the lab itself is a logged 500 with a generic message; bad input keeps its status.
func (h *handler) labPage(c *gin.Context, status int, d labData) {
	if d.Available && d.Rows == nil {
		if id := labSession(c, false); id != "" {
			rows, err := h.deps.Lab.Rows(c.Request.Context(), id)
			if err != nil {
				d.InsertError, status = h.labError(err)
			}
			d.Rows = rows
		}
	}
	for _, r := range d.Rows {
		d.Held = max(d.Held, len(r.Names))
	}
	for i := range d.Held {
		d.Depth = append(d.Depth, i)
	}
	h.site.Render(c, status, site.Page{Title: "Comparator lab", Nav: "models", Content: labView(d)})
}

// labError is the message and status of a lab failure.
func (h *handler) labError(err error) (string, int) {
	status := statusOf(err)
	if status >= http.StatusInternalServerError {
		h.log.Error("comparator lab", "err", err)
		return "The lab could not run: its scratch store failed. Try again.", status
	}
	return site.Sentence(inspectError(err)), status
}

// labUnavailable renders the page that says the lab is not there, for a POST to it.
func (h *handler) labUnavailable(c *gin.Context, d labData) bool {
	if d.Available {
		return false
	}
	h.site.Render(c, http.StatusNotFound, site.Page{Title: "Comparator lab", Nav: "models", Content: labView(d)})
	return true
}

func splitNames(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\n' || r == '\r' || r == '\t' })
}

func (h *handler) labInsert(c *gin.Context) {
	d := newLabData(h)
	if h.labUnavailable(c, d) {
		return
	}
	d.Names, d.Value = c.PostForm("names"), c.PostForm("value")
	names := splitNames(d.Names)
	rows, err := h.deps.Lab.Insert(c.Request.Context(), labSession(c, true), names, d.Value)
	if err != nil {
		msg, status := h.labError(err)
		d.InsertError = msg
		h.labPage(c, status, d)
		return
	}
	d.Rows, d.Inserted = rows, names
	h.labPage(c, http.StatusOK, d)
}

func (h *handler) labClear(c *gin.Context) {
	d := newLabData(h)
	if h.labUnavailable(c, d) {
		return
	}
	if id := labSession(c, false); id != "" {
		if err := h.deps.Lab.Clear(c.Request.Context(), id); err != nil {
			msg, status := h.labError(err)
			d.InsertError = msg
			h.labPage(c, status, d)
			return
		}
	}
	h.labPage(c, http.StatusOK, d)
}

func (h *handler) labSlice(c *gin.Context) {
	d := newLabData(h)
	if h.labUnavailable(c, d) {
		return
	}
	d.Cmp, d.Start, d.Finish, d.Reversed, d.Count = c.PostForm("cmp"), c.PostForm("start"), c.PostForm("finish"), c.PostForm("reversed") != "", c.PostForm("count")
	n, err := strconv.Atoi(strings.TrimSpace(d.Count))
	if err != nil {
		d.SliceError = fmt.Sprintf("Count must be a whole number, not %q.", d.Count)
		h.labPage(c, http.StatusBadRequest, d)
		return
	}
	sl, err := h.deps.Lab.Slice(c.Request.Context(), labSession(c, true), d.Cmp, teaching.Slice{Start: d.Start, Finish: d.Finish, Reversed: d.Reversed, Count: n})
	if err != nil {
		msg, status := h.labError(err)
		d.SliceError = msg
		h.labPage(c, status, d)
		return
	}
	d.Slice = &sl
	h.labPage(c, http.StatusOK, d)
}

func (h *handler) labLWW(c *gin.Context) {
	d := newLabData(h)
	if h.labUnavailable(c, d) {
		return
	}
	d.LWW = lwwForm{V1: c.PostForm("v1"), T1: c.PostForm("t1"), V2: c.PostForm("v2"), T2: c.PostForm("t2"), TDel: c.PostForm("tdel"), Delete: c.PostForm("del") != ""}
	writes, err := lwwWrites(d.LWW)
	if err == nil {
		err = h.runLWW(c, &d, writes)
	}
	if err != nil {
		msg, status := h.labError(err)
		d.LWWError = msg
		h.labPage(c, status, d)
		return
	}
	h.labPage(c, http.StatusOK, d)
}

// lwwWrites reads the form: two writes, and the delete when asked.
func lwwWrites(f lwwForm) ([]teaching.LabWrite, error) {
	ts := func(what, s string) (int64, error) {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || n < 0 {
			return 0, domain.Invalid(what, "its timestamp must be a whole number of microseconds, not %q", s)
		}
		return n, nil
	}
	t1, err := ts("write 1", f.T1)
	if err != nil {
		return nil, err
	}
	t2, err := ts("write 2", f.T2)
	if err != nil {
		return nil, err
	}
	writes := []teaching.LabWrite{{Value: f.V1, Timestamp: t1}, {Value: f.V2, Timestamp: t2}}
	if f.Delete {
		td, err := ts("the delete", f.TDel)
		if err != nil {
			return nil, err
		}
		writes = append(writes, teaching.LabWrite{Delete: true, Timestamp: td})
	}
	return writes, nil
}

func (h *handler) runLWW(c *gin.Context, d *labData, writes []teaching.LabWrite) error {
	fwd, rev, err := h.deps.Lab.LastWriteWins(c.Request.Context(), labSession(c, true), writes)
	if err != nil {
		return err
	}
	show := func(order string, cell teaching.LabCell) *lwwResult {
		return &lwwResult{Order: order, Cell: cell, Stored: notation("Bytes", cell.Key, cell.Stored)}
	}
	d.Results = []*lwwResult{show("in the order given", fwd), show("in the reverse order", rev)}
	d.Verdict = lwwVerdict(writes, fwd)
	return nil
}

// lwwVerdict is the one sentence that says why the read returns what it does.
func lwwVerdict(writes []teaching.LabWrite, got teaching.LabCell) string {
	var newest int64 = -1
	var del *teaching.LabWrite
	ties := 0
	for i, w := range writes {
		if w.Delete {
			del = &writes[i]
			continue
		}
		switch {
		case w.Timestamp > newest:
			newest, ties = w.Timestamp, 1
		case w.Timestamp == newest:
			ties++
		}
	}
	switch {
	case !got.Found && del != nil:
		return fmt.Sprintf("Both replicas read nothing: the delete's tombstone (timestamp %d) is at least as new as every write (the newest is %d, and a tombstone wins a tie), so it hides them in whatever order they arrived; only a write with a timestamp above %d would bring the column back.", del.Timestamp, newest, del.Timestamp)
	case !got.Found:
		return "Both replicas read nothing."
	case ties > 1:
		return fmt.Sprintf("Both replicas read %q: %d writes share the highest timestamp (%d), and on a tie Cassandra keeps the larger value (compared as bytes), so every replica picks the same one.", got.Value, ties, newest)
	case del != nil:
		return fmt.Sprintf("Both replicas read %q: its timestamp (%d) is higher than the delete's (%d), so the tombstone hides only what was written before it, whatever order the writes arrived in.", got.Value, got.TS, del.Timestamp)
	}
	return fmt.Sprintf("Both replicas read %q: the write with the highest timestamp (%d) wins, not the one that arrived last.", got.Value, got.TS)
}

// rejected are why each name of the last insert was refused, comparator by comparator.
func rejected(rows []teaching.LabRow) []string {
	var whys []string
	for _, r := range rows {
		whys = append(whys, r.Rejected...)
	}
	return whys
}

// nameAt is the i-th name of a lab row, nil past its end (the order table's empty cells).
func nameAt(ns []teaching.LabName, i int) *teaching.LabName {
	if i < len(ns) {
		return &ns[i]
	}
	return nil
}
