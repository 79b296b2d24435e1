package labs

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/models"
)

// The comparator and slice lab: a learner's names stored under each of the six comparators,
// side by side, then sliced; and one column written with chosen timestamps, to see which write
// wins. It runs on a scratch keyspace of its own (teaching.ColumnLab), whatever the backend. Each
// browser has a lab of its own, named by a random id kept in its session cookie. Its forms
// answer with a redirect to the page they came from (/models/lab or a lesson), which shows what
// they did (labstate.go).

func (h *Handler) registerLab(g *gin.RouterGroup) {
	g.GET("models/lab", h.lab)
	g.POST("models/lab/insert", h.Admit(h.LabGate), h.labInsert)
	g.POST("models/lab/slice", h.Admit(h.LabGate), h.labSlice)
	g.POST("models/lab/lww", h.Admit(h.LabGate), h.labLWW)
	g.POST("models/lab/clear", h.Admit(h.LabGate), h.labClear)
	g.POST("models/lab/put", h.Admit(h.LabGate), h.labPut)
	g.POST("models/lab/replicas", h.Admit(h.LabGate), h.labReplicas)
	// An address of a form's action, bookmarked when the lab answered its forms with a page,
	// leads to the lab.
	g.GET("models/lab/:action", func(c *gin.Context) { c.Redirect(http.StatusSeeOther, labHome) })
}

const labHome = "/models/lab"

// The seeds' names, and the four UUIDs of the reference's comparator vectors: A, B, C, D.
const (
	SeedNames = "3 123 976 832416"
	UuidNames = "00000000-0000-1000-8000-000000000001 80000000-0000-1000-8000-000000000000 ffffffff-0000-1000-8000-000000000000 00000000-0000-1001-8000-000000000000"
)

type LabData struct {
	Available   bool
	Bounds      string // the lab's bounds (gate.Bounds)
	Back        string // the page the forms come back to
	Backend     string // the running backend's, not the lab's
	Comparators []string
	Names       string // the insert form's names
	Value       string // and value
	Inserted    []string
	InsertError string
	Rows        []teaching.LabRow
	Depth       []int // row positions of the order table
	Held        int   // the most names one comparator's row holds
	// LexicalFirst is the UUID LexicalUUIDType puts first when the row holds a UUID whose
	// first half reads as a negative number, "" otherwise: the note that says why.
	LexicalFirst string

	Cmp        string
	Start      string
	Finish     string
	Reversed   bool
	Count      string
	Slice      *teaching.LabSlice
	SliceWhy   string // why the slice returned nothing
	SliceError string

	LWW      lwwForm
	Results  []*lwwResult // the writes applied in order, then in reverse
	LWWError string
	Verdict  string
	Diagram  *lwwDiagram
}

type lwwForm struct {
	V1, V2       string
	T1, T2, TDel string
	Delete       bool
}

type lwwResult struct {
	Order  string
	Cell   teaching.LabCell
	Stored []frame.NotationLine
}

// labInsert is what the last insert did.
type labInsert struct {
	Names, Value string
	Inserted     []string
	Rejected     map[string][]string // by comparator
}

// labSliceRun is the last slice and what it returned.
type labSliceRun struct {
	Cmp, Start, Finish, Count string
	Reversed                  bool
	Slice                     teaching.LabSlice
	// Why says, when the slice returned nothing, where its bounds fall in the row's order.
	Why string
}

// lwwRun is the last last-write-wins run.
type lwwRun struct {
	Form    lwwForm
	Writes  []teaching.LabWrite
	Fwd     teaching.LabCell
	Rev     teaching.LabCell
	Verdict string
}

func newLabData(h *Handler, back string) LabData {
	d := LabData{Available: h.Deps.Lab != nil, Back: back, Backend: h.Deps.Backend, Bounds: h.LabGate.Bounds(), Names: SeedNames, Value: "v", Cmp: "LongType", Count: "10",
		LWW: lwwForm{V1: "first", T1: "1273651200000000", V2: "second", T2: "1273651100000000", TDel: "1273651300000000"}}
	if d.Available {
		d.Comparators = h.Deps.Lab.Comparators()
	}
	return d
}

// labView reads the browser's rows and what its forms did last, for the page at back.
func (h *Handler) LabData(c *gin.Context, back string) LabData {
	d := newLabData(h, back)
	if !d.Available {
		return d
	}
	st := h.Recalled(c)
	if id := LabSession(c, false); id != "" {
		rows, err := h.Deps.Lab.Rows(c.Request.Context(), id)
		if err != nil {
			d.InsertError, _ = h.labError(err)
		}
		d.Rows = rows
	}
	if in := st.Insert; in != nil {
		d.Names, d.Value, d.Inserted = in.Names, in.Value, in.Inserted
		for i := range d.Rows {
			d.Rows[i].Rejected = in.Rejected[d.Rows[i].Comparator]
		}
	}
	if r := st.Refusal("insert"); r != nil {
		d.Names, d.Value, d.Inserted, d.InsertError = r.Form["names"], r.Form["value"], nil, r.Msg
	}
	for _, r := range d.Rows {
		d.Held = max(d.Held, len(r.Names))
		if r.Comparator == "LexicalUUIDType" && len(r.Names) > 0 && lexicalNegative(r.Names[0].Name) {
			d.LexicalFirst = r.Names[0].Name
		}
	}
	for i := range d.Held {
		d.Depth = append(d.Depth, i)
	}
	if s := st.Slice; s != nil {
		d.Cmp, d.Start, d.Finish, d.Count, d.Reversed, d.Slice, d.SliceWhy = s.Cmp, s.Start, s.Finish, s.Count, s.Reversed, &s.Slice, s.Why
	}
	if r := st.Refusal("slice"); r != nil {
		d.Cmp, d.Start, d.Finish, d.Count, d.Reversed, d.Slice, d.SliceError = r.Form["cmp"], r.Form["start"], r.Form["finish"], r.Form["count"], r.Form["reversed"] != "", nil, r.Msg
	}
	if l := st.LWW; l != nil {
		d.LWW, d.Verdict = l.Form, l.Verdict
		show := func(order string, cell teaching.LabCell) *lwwResult {
			return &lwwResult{Order: order, Cell: cell, Stored: frame.Notation("Bytes", cell.Key, cell.Stored)}
		}
		d.Results = []*lwwResult{show("in the order given", l.Fwd), show("in the reverse order", l.Rev)}
		d.Diagram = newLWWDiagram(l.Writes, l.Fwd)
	}
	if r := st.Refusal("lww"); r != nil {
		d.LWW = lwwForm{V1: r.Form["v1"], T1: r.Form["t1"], V2: r.Form["v2"], T2: r.Form["t2"], TDel: r.Form["tdel"], Delete: r.Form["del"] != ""}
		d.Results, d.Verdict, d.Diagram, d.LWWError = nil, "", nil, r.Msg
	}
	return d
}

// lexicalNegative says whether LexicalUUIDType reads a UUID's first half as a negative number:
// its first hex digit is 8 to f.
func lexicalNegative(name string) bool {
	return name != "" && strings.ContainsRune("89abcdef", rune(name[0]))
}

func (h *Handler) lab(c *gin.Context) {
	h.Site.Render(c, http.StatusOK, site.Page{Title: "Comparator lab", Nav: "models", Content: labView(h.LabData(c, labHome))})
}

// labError is the message and status of a lab failure.
func (h *Handler) labError(err error) (string, int) {
	status := models.StatusOf(err)
	if status >= http.StatusInternalServerError {
		h.Log.Error("comparator lab", "err", err)
		return "The lab could not run: its scratch store failed. Try again.", status
	}
	return site.Sentence(models.InspectError(err)), status
}

// labUnavailable renders the page that says the lab is not there, for a POST to it.
func (h *Handler) labUnavailable(c *gin.Context) bool {
	if h.Deps.Lab != nil {
		return false
	}
	h.Site.Render(c, http.StatusNotFound, site.Page{Title: "Comparator lab", Nav: "models", Content: labView(newLabData(h, labHome))})
	return true
}

// labDone ends a lab form: back to the page it came from, at anchor, the action named for the
// footer ("your insert"), or, when err refused it, with the refusal and what was typed.
func (h *Handler) labDone(c *gin.Context, part, anchor, action string, err error, form map[string]string) {
	if err != nil {
		msg, _ := h.labError(err)
		h.Refuse(c, part, msg, form)
	}
	h.Site.Redirect(c, backTo(c, labHome)+"#"+anchor, action)
}

// PostForm is the named fields of the request's form.
func PostForm(c *gin.Context, names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[n] = c.PostForm(n)
	}
	return m
}

func SplitNames(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\n' || r == '\r' || r == '\t' })
}

func (h *Handler) labInsert(c *gin.Context) {
	if h.labUnavailable(c) {
		return
	}
	form := PostForm(c, "names", "value")
	names := SplitNames(form["names"])
	rows, err := h.Deps.Lab.Insert(c.Request.Context(), LabSession(c, true), names, form["value"])
	if err == nil {
		in := &labInsert{Names: form["names"], Value: form["value"], Inserted: names, Rejected: map[string][]string{}}
		for _, r := range rows {
			in.Rejected[r.Comparator] = r.Rejected
		}
		h.remember(c, func(s *labState) { s.Insert = in })
	}
	h.labDone(c, "insert", "lab-rows", "your insert", err, form)
}

func (h *Handler) labClear(c *gin.Context) {
	if h.labUnavailable(c) {
		return
	}
	var err error
	if id := LabSession(c, false); id != "" {
		err = h.Deps.Lab.Clear(c.Request.Context(), id)
		if err == nil {
			h.remember(c, func(s *labState) { s.Insert, s.Slice, s.Put = nil, nil, nil })
		}
	}
	h.labDone(c, "insert", "lab-rows", "your clear", err, PostForm(c, "names", "value"))
}

func (h *Handler) labSlice(c *gin.Context) {
	if h.labUnavailable(c) {
		return
	}
	form := PostForm(c, "cmp", "start", "finish", "count", "reversed")
	run := &labSliceRun{Cmp: form["cmp"], Start: form["start"], Finish: form["finish"], Count: form["count"], Reversed: form["reversed"] != ""}
	n, err := strconv.Atoi(strings.TrimSpace(run.Count))
	if err != nil {
		err = domain.Invalid("count", "must be a whole number, not %q", run.Count)
	} else {
		run.Slice, err = h.Deps.Lab.Slice(c.Request.Context(), LabSession(c, true), run.Cmp, teaching.Slice{Start: run.Start, Finish: run.Finish, Reversed: run.Reversed, Count: n})
		if err == nil && len(run.Slice.Names) == 0 && n > 0 {
			run.Why, err = h.emptySliceWhy(c, run)
		}
	}
	if err == nil {
		h.remember(c, func(s *labState) { s.Slice = run })
	}
	h.labDone(c, "slice", "slice", "your slice", err, form)
}

func (h *Handler) labLWW(c *gin.Context) {
	if h.labUnavailable(c) {
		return
	}
	form := PostForm(c, "v1", "t1", "v2", "t2", "tdel", "del")
	f := lwwForm{V1: form["v1"], T1: form["t1"], V2: form["v2"], T2: form["t2"], TDel: form["tdel"], Delete: form["del"] != ""}
	writes, err := lwwWrites(f)
	if err == nil {
		var run lwwRun
		run.Fwd, run.Rev, err = h.Deps.Lab.LastWriteWins(c.Request.Context(), LabSession(c, true), writes)
		if err == nil {
			run.Form, run.Writes, run.Verdict = f, writes, lwwVerdict(writes, run.Fwd)
			h.remember(c, func(s *labState) { s.LWW = &run })
		}
	}
	h.labDone(c, "lww", "lww", "your writes", err, form)
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

// emptySliceWhy says why a slice of count above 0 returned nothing: the row holds no names under
// the comparator, or both bounds fall between the same two of its names in the comparator's
// order. Two more get_slice calls read it from the store: the whole row, then the names up to
// a bound (a slice that returns nothing has no name from its lower bound to its upper, so one
// bound's place is the other's).
func (h *Handler) emptySliceWhy(c *gin.Context, run *labSliceRun) (string, error) {
	ctx, session := c.Request.Context(), LabSession(c, true)
	row, err := h.Deps.Lab.Slice(ctx, session, run.Cmp, teaching.Slice{Count: teaching.LabMaxRow})
	if err != nil {
		return "", err
	}
	names := row.Names
	if len(names) == 0 {
		return fmt.Sprintf("Your row holds no names under %s: store some above, then slice them. (The get_slice after yours in the footer read the whole row.)", run.Cmp), nil
	}
	lower, upper := strings.TrimSpace(run.Start), strings.TrimSpace(run.Finish) // in the comparator's order
	if run.Reversed {
		lower, upper = upper, lower
	}
	bound := lower
	if bound == "" {
		bound = upper
	}
	k := 0 // the names before the bounds
	if bound != "" {
		upTo, err := h.Deps.Lab.Slice(ctx, session, run.Cmp, teaching.Slice{Finish: bound, Count: teaching.LabMaxRow})
		if err != nil {
			return "", err
		}
		k = len(upTo.Names)
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = n.Name
	}
	var where string
	switch {
	case k == 0:
		where = "before " + quoted[0]
	case k >= len(names):
		where = "after " + quoted[len(quoted)-1]
	default:
		where = "between " + quoted[k-1] + " and " + quoted[k]
	}
	why := fmt.Sprintf("Under %s your row's %d %s sort %s, and both bounds (start %s, finish %s) sort %s: no name lies between them.",
		run.Cmp, len(names), frame.Plural(len(names), "name", "names"), strings.Join(quoted, ", "), boundText(run.Start), boundText(run.Finish), where)
	if textual[run.Cmp] {
		why += " " + run.Cmp + " compares names as text, byte by byte: a name of digits is not a number here (LongType reads it as one)."
	}
	if bound != "" {
		why += " (The two get_slice calls after yours in the footer read the whole row, then its names up to " + bound + ".)"
	} else {
		why += " (The get_slice after yours in the footer read the whole row.)"
	}
	return why, nil
}

// textual are the comparators that order names as text.
var textual = map[string]bool{"BytesType": true, "AsciiType": true, "UTF8Type": true}

// boundText is a slice bound as the form gave it, or that it is open.
func boundText(b string) string {
	if b = strings.TrimSpace(b); b == "" {
		return "open"
	}
	return b
}
