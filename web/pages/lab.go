package pages

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"twissandra/ports"
)

// The comparator and slice lab: a learner's names stored under each of the six comparators,
// side by side, then sliced; and one column written with chosen timestamps, to see which write
// wins. It runs on a scratch keyspace of its own (ports.ColumnLab), whatever the backend.
// Its forms are GETs: every write it makes is idempotent, to a scratch row named by the input.

var labComparators = []string{"BytesType", "AsciiType", "UTF8Type", "LongType", "LexicalUUIDType", "TimeUUIDType"}

type labData struct {
	Available   bool
	Names       string
	Comparators []string
	Rows        []ports.LabRow
	Depth       []int // row positions of the order table
	Cmp         string
	Start       string
	Finish      string
	Reversed    bool
	Count       int
	Slice       *ports.LabSlice
	Error       string

	LWW      lwwForm
	Results  []*lwwResult // the writes applied in order, then in reverse
	LWWError string
	Verdict  string
}

type lwwForm struct {
	V1, V2       string
	T1, T2, TDel string
	Delete, Ran  bool
}

type lwwResult struct {
	Order  string
	Cell   ports.LabCell
	Stored []notationLine
}

func (h *handler) lab(c *gin.Context) {
	d := labData{Available: h.deps.Lab != nil, Comparators: labComparators, Names: "3 123 976 832416", Cmp: "LongType", Count: 10,
		LWW: lwwForm{V1: "first", T1: "1273651200000000", V2: "second", T2: "1273651100000000", TDel: "1273651300000000"}}
	status := http.StatusOK
	if !d.Available {
		h.render(c, status, "lab", "Comparator lab", "models", d)
		return
	}
	ctx := c.Request.Context()
	if v, ok := c.GetQuery("names"); ok {
		d.Names = v
	}
	names := strings.FieldsFunc(d.Names, func(r rune) bool { return r == ' ' || r == ',' || r == '\n' || r == '\r' || r == '\t' })
	d.Cmp = c.DefaultQuery("cmp", d.Cmp)
	d.Start, d.Finish, d.Reversed = c.Query("start"), c.Query("finish"), c.Query("reversed") != ""
	if s := c.Query("count"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			n = 0
		}
		d.Count = n
	}
	if rows, err := h.deps.Lab.Order(ctx, names); err != nil {
		d.Error, status = sentence(inspectError(err)), statusOf(err)
	} else {
		d.Rows = rows
		depth := 0
		for _, r := range rows {
			depth = max(depth, len(r.Names))
		}
		for i := range depth {
			d.Depth = append(d.Depth, i)
		}
		if sl, err := h.deps.Lab.Slice(ctx, names, d.Cmp, ports.Slice{Start: d.Start, Finish: d.Finish, Reversed: d.Reversed, Count: d.Count}); err != nil {
			d.Error, status = "Slice: "+sentence(inspectError(err)), statusOf(err)
		} else {
			d.Slice = &sl
		}
	}
	if c.Query("lww") != "" {
		d.LWW = lwwForm{V1: c.Query("v1"), T1: c.Query("t1"), V2: c.Query("v2"), T2: c.Query("t2"), TDel: c.Query("tdel"), Delete: c.Query("del") != "", Ran: true}
		if err := h.runLWW(c, &d); err != nil {
			d.LWWError, status = sentence(inspectError(err)), statusOf(err)
		}
	}
	h.render(c, status, "lab", "Comparator lab", "models", d)
}

// nameAt is the i-th name of a lab row, nil past its end (the order table's empty cells).
func nameAt(ns []ports.LabName, i int) *ports.LabName {
	if i < len(ns) {
		return &ns[i]
	}
	return nil
}

func (h *handler) runLWW(c *gin.Context, d *labData) error {
	ts := func(what, s string) (int64, error) {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || n < 0 {
			return 0, badInput{fmt.Sprintf("The timestamp of %s must be a number of microseconds, not %q.", what, s)}
		}
		return n, nil
	}
	t1, err := ts("write 1", d.LWW.T1)
	if err != nil {
		return err
	}
	t2, err := ts("write 2", d.LWW.T2)
	if err != nil {
		return err
	}
	writes := []ports.LabWrite{{Value: d.LWW.V1, Timestamp: t1}, {Value: d.LWW.V2, Timestamp: t2}}
	if d.LWW.Delete {
		td, err := ts("the delete", d.LWW.TDel)
		if err != nil {
			return err
		}
		writes = append(writes, ports.LabWrite{Delete: true, Timestamp: td})
	}
	fwd, rev, err := h.deps.Lab.LastWriteWins(c.Request.Context(), writes)
	if err != nil {
		return err
	}
	show := func(order string, cell ports.LabCell) *lwwResult {
		return &lwwResult{Order: order, Cell: cell, Stored: notation("Bytes", "row", cell.Stored)}
	}
	d.Results = []*lwwResult{show("in the order given", fwd), show("in the reverse order", rev)}
	switch {
	case fwd.Found:
		d.Verdict = fmt.Sprintf("Both replicas read %q: the write with the highest timestamp (%d) wins, whatever order the writes arrived in. On a tie the larger value wins; a tombstone beats a value of its own timestamp.", fwd.Value, fwd.TS)
	default:
		d.Verdict = "Both replicas read nothing: the tombstone's timestamp is higher than every write's, so it hides them, in whatever order they arrived. A write with a timestamp above the tombstone's would bring the column back."
	}
	return nil
}
