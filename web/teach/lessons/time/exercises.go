package time

import (
	"context"
	"strconv"
	"strings"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// writesQuestion is a column written (and perhaps deleted) with the timestamps given, as two
// replicas might receive the calls: its grader applies them on a scratch row of the lab, in the
// order given and in the reverse order, and the read the store answers is the right answer.
type writesQuestion struct {
	id     string
	writes []teaching.LabWrite
	// found asks whether a read finds the column (yes or no) rather than which value it reads.
	found bool
}

// writesQuestions are the lesson's: the timestamps are the lab's (2010-05-12, in microseconds).
var writesQuestions = []writesQuestion{
	{id: "time-1", writes: []teaching.LabWrite{{Value: "first", Timestamp: 1273651200000000}, {Value: "second", Timestamp: 1273651100000000}}},
	{id: "time-2", found: true, writes: []teaching.LabWrite{{Value: "first", Timestamp: 1273651100000000}, {Delete: true, Timestamp: 1273651300000000}, {Value: "again", Timestamp: 1273651200000000}}},
}

func exercises(lab teaching.ColumnLab, gate *frame.Gate) []frame.Exercise {
	if lab == nil {
		return nil
	}
	out := make([]frame.Exercise, len(writesQuestions))
	for i, q := range writesQuestions {
		out[i] = q.exercise(lab)
		out[i].Gate = gate
	}
	return out
}

// callText is one write as the prompt says it.
func callText(w teaching.LabWrite) string {
	if w.Delete {
		return "a delete at timestamp " + strconv.FormatInt(w.Timestamp, 10)
	}
	return "an insert of " + strconv.Quote(w.Value) + " at timestamp " + strconv.FormatInt(w.Timestamp, 10)
}

func (q writesQuestion) prompt() string {
	calls := make([]string, len(q.writes))
	for i, w := range q.writes {
		calls[i] = callText(w)
	}
	s := "One column receives, in this order: " + strings.Join(calls, ", then ") + ". "
	if q.found {
		return s + "Does a read of the column find it?"
	}
	return s + "Which value does a read return?"
}

func (q writesQuestion) exercise(lab teaching.ColumnLab) frame.Exercise {
	e := frame.Exercise{ID: q.id, Kind: frame.Predict, Prompt: q.prompt(), Format: "the value, as written"}
	if q.found {
		e.Kind, e.Choices, e.Format = frame.Choose, []string{"yes", "no"}, ""
	}
	e.Grade = func(ctx context.Context, answer string) (frame.Grade, error) {
		fwd, rev, err := lab.LastWriteWins(ctx, frame.ScratchSession(), q.writes)
		if err != nil {
			return frame.Grade{}, err
		}
		did := "The store applied the " + strconv.Itoa(len(fwd.Calls)) + " calls to a scratch row in the order given and to a second one in the reverse order, as a replica that received them late would (the footer lists them): "
		read := func(c teaching.LabCell) string {
			if !c.Found {
				return "no column"
			}
			return strconv.Quote(c.Value) + " (timestamp " + strconv.FormatInt(c.TS, 10) + ")"
		}
		did += "the first reads " + read(fwd) + ", the second " + read(rev) + ". The greatest timestamp wins, whatever the order of arrival"
		if q.found {
			model := "no"
			if fwd.Found {
				model = "yes"
			}
			return frame.Grade{Model: model, Correct: answer == model,
				Explanation: did + ", and a tombstone is a write like any other: it hides every value older than it, and a value written later with an older timestamp stays hidden."}, nil
		}
		if !fwd.Found {
			return frame.Grade{Model: "none", Correct: strings.EqualFold(answer, "none"), Explanation: did + "."}, nil
		}
		return frame.Grade{Model: fwd.Value, Correct: answer == fwd.Value,
			Explanation: did + ": the value written last in time is the one of the greatest timestamp, not the one that arrived last."}, nil
	}
	return e
}
