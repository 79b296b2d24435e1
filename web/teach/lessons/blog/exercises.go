package blog

import (
	"context"
	"strconv"
	"strings"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// superQuestion writes subcolumns into super columns of one row of seed 004's AddressBook (a
// super column family) and asks how the row reads back: its grader writes them into a scratch
// row of the lab and reads it, and the row's super columns, in order, are the answer.
type superQuestion struct {
	id   string
	puts []teaching.LabPut
}

var superQuestions = []superQuestion{
	{id: "blog-1", puts: []teaching.LabPut{
		{SuperColumn: "jsmith", Name: "zip", Value: "10001"}, {SuperColumn: "Bob", Name: "city", Value: "Oslo"},
		{SuperColumn: "ann", Name: "street", Value: "1 Main St"}, {SuperColumn: "jsmith", Name: "city", Value: "New York"}}},
}

func exercises(lab teaching.ColumnLab, gate *frame.Gate) []frame.Exercise {
	if lab == nil {
		return nil
	}
	out := make([]frame.Exercise, len(superQuestions))
	for i, q := range superQuestions {
		out[i] = q.exercise(lab)
		out[i].Gate = gate
	}
	return out
}

func (q superQuestion) exercise(lab teaching.ColumnLab) frame.Exercise {
	writes := make([]string, len(q.puts))
	for i, p := range q.puts {
		writes[i] = strconv.Quote(p.Name) + " = " + strconv.Quote(p.Value) + " in the super column " + strconv.Quote(p.SuperColumn)
	}
	return frame.Exercise{ID: q.id, Kind: frame.Predict, Format: "the super columns' names in order, separated by commas",
		Prompt: "Into one row of the super column family " + teaching.PrimerSuper + " (CompareWith UTF8Type), write " + strings.Join(writes, ", then ") +
			". Which super columns does the row hold, in the order get_slice reads them?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			row, err := lab.TryPuts(ctx, frame.ScratchSession(), q.puts)
			if err != nil {
				return frame.Grade{}, err
			}
			names := make([]string, len(row.Columns))
			subs := make([]string, len(row.Columns))
			for i, sc := range row.Columns {
				names[i] = frame.NameText(sc.Name)
				sub := make([]string, len(sc.Columns))
				for j, c := range sc.Columns {
					sub[j] = frame.NameText(c.Name)
				}
				subs[i] = names[i] + " (" + strings.Join(sub, ", ") + ")"
			}
			return frame.Grade{Model: frame.NamesAnswer(names), Correct: frame.SameNames(answer, names, true),
				Explanation: "The store wrote the subcolumns into a scratch row of " + row.Keyspace + "." + row.ColumnFamily + " and read it back: " +
					strconv.Itoa(len(names)) + " super columns, " + strings.Join(subs, "; ") + ". A super column is a column whose value is columns: the row keeps its super columns sorted by name under CompareWith (" +
					row.Comparator + ", bytes: capitals first), and each one's subcolumns under CompareSubcolumnsWith (" + row.SubComparator + "); a second write into a super column adds to it."}, nil
		}}
}
