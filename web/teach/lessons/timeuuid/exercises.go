package timeuuid

import (
	"context"
	"fmt"
	"strings"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// firstQuestion asks which of a row's UUID names comes first under a comparator: its grader
// stores the names in a scratch row of the lab and slices the first one, which is the answer.
type firstQuestion struct {
	id         string
	names      []string
	comparator string
	why        string
}

var firstQuestions = []firstQuestion{
	{id: "timeuuid-1", names: labs.SplitNames(labs.UuidNames), comparator: "TimeUUIDType",
		why: "TimeUUIDType compares the time a version 1 UUID carries (its time_hi, time_mid and time_low fields, in that order) before anything else: the UUID of the earliest time comes first, whatever its first hex digits."},
	{id: "timeuuid-2", names: labs.SplitNames(labs.UuidNames), comparator: "LexicalUUIDType",
		why: "LexicalUUIDType in 0.6 compares a UUID's two halves as signed 64-bit numbers, most significant first: a first hex digit from 8 to f makes the first half negative, so that UUID sorts before those that start 0 to 7."},
}

// orderQuestion asks the order of a row's UUID names under a comparator, newest first: its
// grader stores them in a scratch row of the lab and slices the row reversed, whole; the
// order the slice returns is the answer.
type orderQuestion struct {
	id         string
	names      []string
	comparator string
}

var orderQuestions = []orderQuestion{
	{id: "timeuuid-3", names: labs.SplitNames(labs.UuidNames), comparator: "TimeUUIDType"},
}

func exercises(lab teaching.ColumnLab, gate *frame.Gate) []frame.Exercise {
	if lab == nil {
		return nil
	}
	out := make([]frame.Exercise, 0, len(firstQuestions)+len(orderQuestions))
	for _, q := range firstQuestions {
		out = append(out, q.exercise(lab))
	}
	for _, q := range orderQuestions {
		out = append(out, q.exercise(lab))
	}
	for i := range out {
		out[i].Gate = gate
	}
	return out
}

func (q orderQuestion) exercise(lab teaching.ColumnLab) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Predict, Format: "the names, comma-separated, in the order returned",
		Prompt: "A row of comparator " + q.comparator + " holds the columns named " + strings.Join(q.names, ", ") +
			". A timeline reads it newest first: get_slice reversed, with a count that takes them all. In what order does it return the names?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			session := frame.ScratchSession()
			defer func() { _ = lab.ClearRow(context.WithoutCancel(ctx), session, q.comparator) }()
			sl, _, err := lab.InsertSlice(ctx, session, q.comparator, q.names, "v", teaching.Slice{Reversed: true, Count: len(q.names)})
			if err != nil {
				return frame.Grade{}, err
			}
			got := frame.LabNames(sl.Names)
			given := frame.AnswerNames(answer)
			for i := range given {
				given[i] = strings.ToLower(given[i])
			}
			return frame.Grade{Model: frame.NamesAnswer(got), Correct: frame.SameNames(frame.NamesAnswer(given), got, true),
				Explanation: "The store stored the names in a scratch row and ran " + sl.Call + ": it returned " + frame.NamesAnswer(got) +
					". Reversed, the slice starts at the latest time a UUID carries (its time_hi, then time_mid, then time_low) and walks back: the order of the hex digits as written says nothing of it."}, nil
		}}
}

func (q firstQuestion) exercise(lab teaching.ColumnLab) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Choices: q.names,
		Prompt: "A row of comparator " + q.comparator + " holds the columns named " + strings.Join(q.names, ", ") + ". Which name does get_slice return first?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			session := frame.ScratchSession()
			defer func() { _ = lab.ClearRow(context.WithoutCancel(ctx), session, q.comparator) }()
			sl, _, err := lab.InsertSlice(ctx, session, q.comparator, q.names, "v", teaching.Slice{Count: 1})
			if err != nil {
				return frame.Grade{}, err
			}
			if len(sl.Names) == 0 {
				return frame.Grade{}, fmt.Errorf("the lab's %s row read back empty: %w", q.comparator, domain.ErrUnavailable)
			}
			first := frame.NameText(sl.Names[0].Name)
			return frame.Grade{Model: first, Correct: strings.EqualFold(answer, first),
				Explanation: "The store stored the names in a scratch row and ran " + sl.Call + ": it returned " + first + " first. " + q.why}, nil
		}}
}
