package primer

import (
	"context"
	"strconv"
	"strings"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// putsQuestion is columns written one after the other into the primer's standard row (the
// column family UTF8s): its grader writes them into a scratch row of the lab and reads the row
// back, and what the row holds is the right answer.
type putsQuestion struct {
	id   string
	puts []teaching.LabPut
	// count asks how many columns the row holds, rather than their names in order.
	count bool
	why   string
}

var putsQuestions = []putsQuestion{
	{id: "primer-1", puts: []teaching.LabPut{{Name: "zebra", Value: "1"}, {Name: "Apple", Value: "2"}, {Name: "mango", Value: "3"}},
		why: "A row keeps its columns sorted by name, in the column family's comparator's order, whatever the order they were written in: UTF8Type compares the names' UTF-8 bytes, and every capital letter's byte is smaller than every small letter's."},
	{id: "primer-2", count: true, puts: []teaching.LabPut{{Name: "email", Value: "ann@example.com"}, {Name: "email", Value: "ann@example.org"}, {Name: "city", Value: "Oslo"}},
		why: "A column's name is unique in its row: a second write of a name replaces the column (the newer timestamp wins), it does not add one."},
}

func exercises(lab teaching.ColumnLab, gate *frame.Gate) []frame.Exercise {
	if lab == nil {
		return nil
	}
	out := make([]frame.Exercise, len(putsQuestions))
	for i, q := range putsQuestions {
		out[i] = q.exercise(lab)
		out[i].Gate = gate
	}
	return out
}

func (q putsQuestion) prompt() string {
	cols := make([]string, len(q.puts))
	for i, p := range q.puts {
		cols[i] = strconv.Quote(p.Name) + " = " + strconv.Quote(p.Value)
	}
	s := "Into one row of the column family " + teaching.PrimerStandard + " (CompareWith UTF8Type), write the columns " + strings.Join(cols, ", then ") + ". "
	if q.count {
		return s + "How many columns does the row hold?"
	}
	return s + "In what order does get_slice read their names back?"
}

func (q putsQuestion) exercise(lab teaching.ColumnLab) frame.Exercise {
	e := frame.Exercise{ID: q.id, Kind: frame.Predict, Prompt: q.prompt(), Format: "the names in order, separated by commas"}
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
		row, err := lab.TryPuts(ctx, frame.ScratchSession(), q.puts)
		if err != nil {
			return frame.Grade{}, err
		}
		names := make([]string, len(row.Columns))
		for i, c := range row.Columns {
			names[i] = frame.NameText(c.Name)
		}
		did := "The store wrote the columns into a scratch row, " + row.Keyspace + "." + row.ColumnFamily + ", in that order, and read it back: it holds " +
			strconv.Itoa(len(names)) + " columns, " + frame.NamesAnswer(names) + ". " + q.why
		if q.count {
			return frame.Grade{Model: strconv.Itoa(len(names)), Correct: want == len(names), Explanation: did}, nil
		}
		return frame.Grade{Model: frame.NamesAnswer(names), Correct: frame.SameNames(answer, names, true), Explanation: did}, nil
	}
	return e
}
