package slices

import (
	"context"
	"strconv"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// sliceQuestion is a slice the learner predicts: the seeds' names stored under one comparator in
// a scratch row of the lab, and a get_slice of it. Its grader stores the names and runs the
// slice: the names the store returns are the right answer.
type sliceQuestion struct {
	id         string
	names      []string
	comparator string
	slice      teaching.Slice
	count      bool // the answer is how many names the slice returns, not which
	why        string
}

// sliceQuestions are the lesson's slices, on the lab's seed names.
var sliceQuestions = []sliceQuestion{
	{id: "slices-1", names: labs.SplitNames(labs.SeedNames), comparator: "BytesType", slice: teaching.Slice{Count: 3},
		why: "BytesType compares the names' bytes, here their digits as text, one byte after the other: \"123\" sorts before \"3\" because '1' < '3', whatever the numbers are."},
	{id: "slices-2", names: labs.SplitNames(labs.SeedNames), comparator: "LongType", slice: teaching.Slice{Reversed: true, Count: 2},
		why: "LongType compares the names as 64-bit numbers; reversed walks the row from its greatest name down, and count stops it after that many."},
	{id: "slices-3", names: labs.SplitNames(labs.SeedNames), comparator: "LongType", slice: teaching.Slice{Start: "100", Finish: "1000", Count: 100}, count: true,
		why: "A slice returns the names from start to finish, both included, in the comparator's order: under LongType, the numbers from 100 to 1000."},
}

// exercises are the lesson's, on the lab (none without one).
func exercises(lab teaching.ColumnLab, gate *frame.Gate) []frame.Exercise {
	if lab == nil {
		return nil
	}
	out := make([]frame.Exercise, len(sliceQuestions))
	for i, q := range sliceQuestions {
		out[i] = q.exercise(lab)
		out[i].Gate = gate
	}
	return out
}

func (q sliceQuestion) prompt() string {
	s := "A row of comparator " + q.comparator + " holds the columns named " + frame.NamesAnswer(q.names) + ". get_slice"
	switch {
	case q.slice.Start != "" || q.slice.Finish != "":
		s += " from start " + strconv.Quote(q.slice.Start) + " to finish " + strconv.Quote(q.slice.Finish)
	default:
		s += " from the start of the row"
	}
	if q.slice.Reversed {
		s += ", reversed,"
	}
	s += " with count " + strconv.Itoa(q.slice.Count)
	if q.count {
		return s + ": how many columns does it return?"
	}
	return s + ": which names does it return, in order?"
}

func (q sliceQuestion) exercise(lab teaching.ColumnLab) frame.Exercise {
	e := frame.Exercise{ID: q.id, Kind: frame.Predict, Prompt: q.prompt(),
		Format: "the names in the order returned, separated by commas (\"none\" for none)"}
	if q.count {
		e.Format = "a whole number"
	}
	e.Grade = func(ctx context.Context, answer string) (frame.Grade, error) {
		want := 0
		if q.count {
			var err error
			if want, err = frame.AnswerInt(answer); err != nil {
				return frame.Grade{}, err
			}
		}
		session := frame.ScratchSession()
		defer func() { _ = lab.ClearRow(context.WithoutCancel(ctx), session, q.comparator) }()
		sl, _, err := lab.InsertSlice(ctx, session, q.comparator, q.names, "v", q.slice)
		if err != nil {
			return frame.Grade{}, err
		}
		names := frame.LabNames(sl.Names)
		g := frame.Grade{Model: frame.NamesAnswer(names), Correct: frame.SameNames(answer, names, true),
			Explanation: "The store stored the names in a scratch row and ran " + sl.Call + ": it returned " + frame.NamesAnswer(names) + ". " + q.why}
		if q.count {
			g.Model, g.Correct = strconv.Itoa(len(names)), want == len(names)
			g.Explanation = "The store stored the names in a scratch row and ran " + sl.Call + ": it returned " + strconv.Itoa(len(names)) + " columns, " + frame.NamesAnswer(names) + ". " + q.why
		}
		return g, nil
	}
	return e
}
