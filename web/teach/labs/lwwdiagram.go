package labs

import (
	"fmt"
	"strconv"
	"strings"

	"twissandra/ports/teaching"
)

// The last-write-wins diagram: the writes of a run, one line each in the order they arrived,
// placed left to right by their timestamps, the one the read keeps ringed. Its accessible name is
// its <title>; its caption says every write and the outcome in words.

type lwwDiagram struct {
	Title, Desc   string
	Width, Height int
	AxisY         int
	Marks         []lwwMark
}

type lwwMark struct {
	X, Y   int // the mark's centre
	Label  string
	TS     string
	Delete bool
	Kept   bool
	Right  bool // the label reads to the right of the mark (left of it otherwise)
}

const (
	lwwWidth  = 400
	lwwMargin = 30
	lwwRow    = 36
	lwwTop    = 56
)

// newLWWDiagram lays out writes on a line of their timestamps; got is what the read returned.
func newLWWDiagram(writes []teaching.LabWrite, got teaching.LabCell) *lwwDiagram {
	if len(writes) == 0 {
		return nil
	}
	lo, hi := writes[0].Timestamp, writes[0].Timestamp
	for _, w := range writes {
		lo, hi = min(lo, w.Timestamp), max(hi, w.Timestamp)
	}
	d := &lwwDiagram{Width: lwwWidth, AxisY: 30, Title: "Last write wins: the writes on a line of timestamps",
		Height: lwwTop + lwwRow*(len(writes)-1) + 22}
	kept := -1 // the write the read keeps: the newest, a tombstone on a tie, then the larger value
	for i, w := range writes {
		if kept < 0 || beats(w, writes[kept]) {
			kept = i
		}
	}
	var words []string
	for i, w := range writes {
		x := lwwWidth / 2
		if hi > lo {
			x = lwwMargin + int(float64(w.Timestamp-lo)/float64(hi-lo)*float64(lwwWidth-2*lwwMargin))
		}
		m := lwwMark{X: x, Y: lwwTop + lwwRow*i, TS: strconv.FormatInt(w.Timestamp, 10), Delete: w.Delete, Kept: i == kept, Right: x <= lwwWidth/2}
		what := fmt.Sprintf("write %d of %q", i+1, w.Value)
		m.Label = fmt.Sprintf("%d: %q", i+1, w.Value)
		if w.Delete {
			what, m.Label = "the delete", "delete"
		}
		if m.Kept {
			m.Label += " (kept)"
		}
		words = append(words, fmt.Sprintf("%s at timestamp %d", what, w.Timestamp))
		d.Marks = append(d.Marks, m)
	}
	outcome := "nothing: the delete's tombstone hides the column"
	if got.Found {
		outcome = fmt.Sprintf("%q, timestamp %d", got.Value, got.TS)
	}
	d.Desc = "Arrived in this order: " + strings.Join(words, ", ") + ". Whatever the order, the read keeps " + outcome + "."
	return d
}

// beats says whether write a supersedes b: the higher timestamp, a tombstone on a tie, then the
// larger value.
func beats(a, b teaching.LabWrite) bool {
	switch {
	case a.Timestamp != b.Timestamp:
		return a.Timestamp > b.Timestamp
	case a.Delete != b.Delete:
		return a.Delete
	}
	return !b.Delete && a.Value > b.Value
}

// lwwMarkClass is a mark's class: a write or a delete, kept or not.
func lwwMarkClass(m lwwMark) string {
	s := "lww-mark"
	if m.Delete {
		s += " lww-delete"
	}
	if m.Kept {
		s += " lww-kept"
	}
	return s
}

// lwwLabelX is where a mark's label starts (or ends), and its anchor.
func lwwLabelX(m lwwMark) (string, string) {
	if m.Right {
		return strconv.Itoa(m.X + 14), "start"
	}
	return strconv.Itoa(m.X - 14), "end"
}
