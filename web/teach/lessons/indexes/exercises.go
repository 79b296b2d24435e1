package indexes

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// The lesson's questions, each graded by doing the thing on a store: on the node, a run of the
// lab (teaching.IndexLab) for a scratch learner of the grading's own, whose traces and refusals
// give the right answer (which ways ask token ranges; which ways' writes read first; which
// operators the SAI takes); on widerow, the lookup by name the seeds make, whose reads give the
// column families it reads. A backend with neither offers none.

// The exercises' ids.
const (
	idRanges    = "indexes-1"
	idReadFirst = "indexes-2"
	idOperators = "indexes-3"
	idWide      = "indexes-4"
)

func exercises(h *handler) []frame.Exercise {
	var out []frame.Exercise
	if h.Deps.IndexLab != nil {
		out = append(out, rangesExercise(h), readFirstExercise(h), operatorsExercise(h))
	}
	if h.Deps.Wide != nil {
		out = append(out, wideExercise(h))
	}
	return out
}

// run runs the lab for one grading, as a learner of its own: the user it writes is the
// grading's, apart from every learner's, and expires with the lab's rows.
func (h *handler) run(ctx context.Context) (teaching.IndexRun, error) {
	r, err := h.Deps.IndexLab.FindUser(h.nodeContext(ctx), frame.ScratchSession(), "ann")
	return r, labs.QueryLabError(err)
}

// wayNames reads an answer of ways (table, 2i, mv, sai, or none), and the names in it that are
// no way: an answer that names one is graded, and wrong, with the ways named in its explanation.
func wayNames(answer string) (names, unknown []string) {
	for _, n := range frame.AnswerNames(strings.ToLower(answer)) {
		if slices.Contains(teaching.Ways, n) {
			names = append(names, n)
		} else {
			unknown = append(unknown, n)
		}
	}
	return names, unknown
}

// notAmong is what an explanation says of the names of an answer that are none of what.
func notAmong(unknown []string, what string) string {
	if len(unknown) == 0 {
		return ""
	}
	return " (" + strings.Join(unknown, ", ") + ": not " + what + ")"
}

func rangesExercise(h *handler) frame.Exercise {
	return frame.Exercise{ID: idRanges, Kind: frame.Predict, Gate: h.gate,
		Format: "the ways, comma-separated, from: table, 2i, mv, sai (or none)",
		Prompt: "Each way finds the user by name. Which of them make the coordinator ask token ranges (every node's share of the ring), rather than one partition's replicas? The node's trace of each read says.",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			names, unknown := wayNames(answer)
			r, err := h.run(ctx)
			if err != nil {
				return frame.Grade{}, err
			}
			var model []string
			why := "The node traced each way's read of the user by name:"
			for _, w := range r.Ways {
				if w.Refused != "" {
					why += " " + w.Way + ": refused by the node (" + w.Refused + ");"
					continue
				}
				last := w.Read[len(w.Read)-1]
				if last.RangeRead() {
					model = append(model, w.Way)
					why += " " + w.Way + ": " + rangeEvent(last) + ";"
				} else {
					why += " " + w.Way + ": one partition, " + strconv.Itoa(len(last.Sources)) + " " + frame.Plural(len(last.Sources), "node", "nodes") + " in the trace;"
				}
			}
			why = strings.TrimSuffix(why, ";") + ". An index lives beside each node's own rows: a query that names no partition must ask every node's token ranges. A table keyed by the name, or a view, is a partition the coordinator finds by its token."
			return frame.Grade{Correct: len(unknown) == 0 && frame.SameNames(strings.Join(names, ", "), model, false), Model: frame.NamesAnswer(model),
				Explanation: why + notAmong(unknown, "one of the ways: "+strings.Join(teaching.Ways, ", "))}, nil
		}}
}

// rangeEvent is the trace's line that says how many ranges the coordinator asked.
func rangeEvent(t teaching.TracedStatement) string {
	for _, e := range t.Events {
		if strings.Contains(e, "range requests") {
			_, a, _ := strings.Cut(e, ": ")
			return "“" + a + "”"
		}
	}
	return "token ranges asked"
}

func readFirstExercise(h *handler) frame.Exercise {
	return frame.Exercise{ID: idReadFirst, Kind: frame.Predict, Gate: h.gate,
		Format: "the ways, comma-separated, from: table, 2i, mv, sai (or none)",
		Prompt: "The user is written into each way (one INSERT into its base table; the hand-kept way's second INSERT into its index table). Whose writes make the node read the row before it writes it?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			names, unknown := wayNames(answer)
			r, err := h.run(ctx)
			if err != nil {
				return frame.Grade{}, err
			}
			var model []string
			why := "The node traced each way's writes:"
			for _, w := range r.Ways {
				if w.Refused != "" {
					why += " " + w.Way + ": no view, the node refused it (" + w.Refused + ");"
					continue
				}
				read := slices.ContainsFunc(w.Write, teaching.TracedStatement.ReadBeforeWrite)
				if read {
					model = append(model, w.Way)
				}
				idx := 0
				for _, t := range w.Write {
					idx += len(indexWrites(t))
				}
				why += " " + w.Way + ": " + frame.IfElse(read, "read the base row first", "no read") + ", " + strconv.Itoa(idx) + " index " + frame.Plural(idx, "table", "tables") + " written;"
			}
			why = strings.TrimSuffix(why, ";") + ". A view is keyed otherwise than its base: to move the view's row when the name changes, the base's replica reads the old row before every write. An index is written beside the row, with no read; the hand-kept table is a second write the application makes."
			return frame.Grade{Correct: len(unknown) == 0 && frame.SameNames(strings.Join(names, ", "), model, false), Model: frame.NamesAnswer(model),
				Explanation: why + notAmong(unknown, "one of the ways: "+strings.Join(teaching.Ways, ", "))}, nil
		}}
}

// The operators the SAI question asks of.
var operators = []string{"=", "IN", ">", "LIKE"}

// operatorOf is the operator a statement asks username with.
func operatorOf(cql string) string {
	switch {
	case strings.Contains(cql, " username IN ("):
		return "IN"
	case strings.Contains(cql, " username > "):
		return ">"
	case strings.Contains(cql, " username LIKE "):
		return "LIKE"
	case strings.Contains(cql, " username = "):
		return "="
	}
	return ""
}

func operatorsExercise(h *handler) frame.Exercise {
	return frame.Exercise{ID: idOperators, Kind: frame.Predict, Gate: h.gate,
		Format: "the operators, comma-separated, from: =, IN, >, LIKE (or none)",
		Prompt: "The storage-attached index is on username, a text column. Which of these restrictions of username does the node answer through it, without ALLOW FILTERING: =, IN, >, LIKE?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			var got, unknown []string
			for _, o := range frame.AnswerNames(strings.ToUpper(answer)) {
				if slices.Contains(operators, o) {
					got = append(got, o)
				} else {
					unknown = append(unknown, o)
				}
			}
			r, err := h.run(ctx)
			if err != nil {
				return frame.Grade{}, err
			}
			w, _ := r.Way(teaching.WaySAI)
			var model []string
			why := "The node ran each on the SAI's table:"
			for _, t := range append(append([]teaching.TracedStatement{}, w.Read...), w.Cannot...) {
				op := operatorOf(t.CQL)
				if op == "" {
					continue
				}
				if t.Error == "" {
					model = append(model, op)
					why += " " + op + ": answered, " + strconv.Itoa(max(t.Rows, 0)) + " " + frame.Plural(max(t.Rows, 0), "row", "rows") + ";"
				} else {
					why += " " + op + ": refused (" + t.Error + ");"
				}
			}
			why = strings.TrimSuffix(why, ";") + ". In 5.0 a SAI on a text column matches whole values: ranges are for numbers and dates, and LIKE was SASI's, never SAI's."
			return frame.Grade{Correct: len(unknown) == 0 && frame.SameNames(strings.Join(got, ", "), model, false), Model: frame.NamesAnswer(model),
				Explanation: why + notAmong(unknown, "one of the operators asked: "+strings.Join(operators, ", "))}, nil
		}}
}

// wideExercise asks which column families a lookup by name reads on the 0.6 model: graded by
// making the lookup, whose reads (the engine's get_slice calls, in the request's log) say.
func wideExercise(h *handler) frame.Exercise {
	return frame.Exercise{ID: idWide, Kind: frame.Predict,
		Format: "the column families, comma-separated, in order (or none)",
		Prompt: "On the 0.6 model, log-in finds a user by name. Which column families does that lookup read, in order? The grader looks up the first name the Username column family holds (on an empty store, a name nobody has).",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			rec := &families{}
			var up oplog.Recorder
			if l := oplog.LogFrom(ctx); l != nil {
				up = l
			}
			ctx = oplog.With(ctx, &tee{families: rec, up: up})
			keys, err := h.Deps.Wide.RowKeys(ctx, "Twissandra", "Username", 1)
			if err != nil {
				return frame.Grade{}, err
			}
			name := "nobody_has_this_name"
			if len(keys) > 0 {
				name = keys[0]
			}
			rec.read = nil // the lookup's reads only, not the search for a name
			w, err := h.lookUp(ctx, name)
			if err != nil {
				return frame.Grade{}, err
			}
			why := "The lookup of " + strconv.Quote(name) + " read " + frame.NamesAnswer(rec.read) + ": Username['" + name + "'] "
			if w.Key != "" {
				why += "holds the user's row key " + w.Key + ", and User['" + w.Key + "'] the user."
			} else {
				why += "holds no row key: nobody has the name, and there is no User row to read."
			}
			why += " 0.6 had no secondary index: the seeds keep Username by hand, a second write at sign-up and a second read at each lookup."
			lower := make([]string, len(rec.read))
			for i, f := range rec.read {
				lower[i] = strings.ToLower(f)
			}
			return frame.Grade{Correct: frame.SameNames(strings.ToLower(answer), lower, true), Model: frame.NamesAnswer(rec.read), Explanation: why}, nil
		}}
}

// families keeps the column families the engine read, in order, once each.
type families struct{ read []string }

// tee records each operation into families and on to the request's log.
type tee struct {
	families *families
	up       oplog.Recorder
}

func (t *tee) Record(op oplog.Op) {
	if op.Model == "widerow" && op.Kind == oplog.Read && op.Family != "" {
		_, cf, _ := strings.Cut(op.Family, ".")
		if cf != "" && !slices.Contains(t.families.read, cf) {
			t.families.read = append(t.families.read, cf)
		}
	}
	if t.up != nil {
		t.up.Record(op)
	}
}

// Detailed asks the engine for the whole record: the grader reads its column family.
func (t *tee) Detailed() bool { return true }
