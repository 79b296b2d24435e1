package collections

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// The lesson's questions, each graded by doing it: on the node (the lesson's tables, a scratch
// partition per grading, deleted after), or on the engine's AddressBook (a scratch row, cleared
// after). Nothing of the answer is written here: the cells the store returns are.

const (
	udtChoice    = "address (not frozen)"
	frozenChoice = "frozen<address>"
)

func exercises(h *handler) []frame.Exercise {
	var out []frame.Exercise
	if h.Deps.AddressBook != nil {
		for _, e := range []frame.Exercise{mapFieldExercise(h), mapWholeExercise(h), udtExercise(h)} {
			e.Gate = h.gate
			out = append(out, e)
		}
	}
	if h.Deps.Lab != nil {
		e := superExercise(h.Deps.Lab)
		e.Gate = h.LabGate
		out = append(out, e)
	}
	return out
}

// runOn runs form and change on the node for one grading.
func runOn(ctx context.Context, h *handler, form teaching.AddressForm, change teaching.AddressChange) (teaching.AddressRun, error) {
	owner := frame.ScratchSession()
	r, err := h.Deps.AddressBook.RunAddress(h.nodeContext(ctx), owner, owner, form, change)
	return r, labs.QueryLabError(err)
}

// cellsSaid is the cells of a run's last step, each with whether the step wrote it.
func cellsSaid(r teaching.AddressRun) string {
	last := r.Steps[len(r.Steps)-1]
	var parts []string
	for _, c := range last.Cells {
		s := c.Name + " = " + c.Value
		if c.Timestamp == last.Timestamp {
			s += " (written now)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// lastWrite is the statement that made a run's last step.
func lastWrite(r teaching.AddressRun) string {
	w := r.Steps[len(r.Steps)-1].Writes
	return w[len(w)-1].CQL
}

func mapFieldExercise(h *handler) frame.Exercise {
	return frame.Exercise{ID: "collections-1", Kind: frame.Predict, Format: "a whole number",
		Prompt: "John's address is a map<text, text> of his " + strconv.Itoa(len(teaching.AddressEntry.Fields)) +
			" fields, each an element. The node runs UPDATE … SET address['city'] = '" + teaching.ChangedCity +
			"' with a timestamp of its own. Afterwards, how many of the map's cells carry that update's timestamp?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			n, err := frame.AnswerInt(answer)
			if err != nil {
				return frame.Grade{}, err
			}
			r, err := runOn(ctx, h, teaching.Map, teaching.OneField)
			if err != nil {
				return frame.Grade{}, err
			}
			w := len(r.Written())
			return frame.Grade{Model: strconv.Itoa(w), Correct: n == w,
				Explanation: fmt.Sprintf("The node ran %s, then read WRITETIME(address), a write time per element: %s. A non-frozen map stores each element as a cell of its own, so setting one element writes that cell alone, as a super column's subcolumn was written alone.",
					lastWrite(r), cellsSaid(r))}, nil
		}}
}

func mapWholeExercise(h *handler) frame.Exercise {
	three := changedFields(teaching.Whole)
	var names []string
	for _, f := range three {
		names = append(names, f.Name)
	}
	return frame.Exercise{ID: "collections-2", Kind: frame.Predict, Format: "a whole number",
		Prompt: "John's address is a map<text, text> of his " + strconv.Itoa(len(teaching.AddressEntry.Fields)) +
			" fields. The node overwrites it with UPDATE … SET address = {…}, a map of " + strconv.Itoa(len(three)) + " entries (" +
			strings.Join(names, ", ") + "). How many elements does the map hold afterwards?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			n, err := frame.AnswerInt(answer)
			if err != nil {
				return frame.Grade{}, err
			}
			r, err := runOn(ctx, h, teaching.Map, teaching.Whole)
			if err != nil {
				return frame.Grade{}, err
			}
			held := len(r.Steps[len(r.Steps)-1].Cells)
			why := fmt.Sprintf("The node ran %s, then read the map: %s.", lastWrite(r), cellsSaid(r))
			if gone := r.Gone(); len(gone) > 0 {
				why += " Gone: " + strings.Join(gone, ", ") + ". Setting a whole non-frozen collection first deletes the one there (a tombstone over the collection, a microsecond before the write), then writes the new elements: an element the new value does not name is deleted, and every such overwrite leaves a tombstone to read past until compaction drops it."
			}
			why += " Written as rows of clustering columns, as a super column's subcolumns were, the fields not named would have stayed."
			return frame.Grade{Model: strconv.Itoa(held), Correct: n == held, Explanation: why}, nil
		}}
}

func udtExercise(h *handler) frame.Exercise {
	choices := []string{udtChoice, frozenChoice}
	return frame.Exercise{ID: "collections-3", Kind: frame.Choose, Choices: choices,
		Prompt: "John's address is a user-defined type address (street, zip, city, state). The city changes. In which form of the column does the write of the new city leave the street's cell as it was (its write time unchanged)?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			i := slices.Index(choices, answer)
			if i < 0 {
				return frame.Grade{}, domain.Invalid("answer", "%q is not one of the choices", answer)
			}
			var model string
			var says []string
			for _, f := range []struct {
				form   teaching.AddressForm
				choice string
			}{{teaching.UDT, udtChoice}, {teaching.Frozen, frozenChoice}} {
				r, err := runOn(ctx, h, f.form, teaching.OneField)
				if err != nil {
					return frame.Grade{}, err
				}
				last := r.Steps[len(r.Steps)-1]
				kept := slices.ContainsFunc(last.Cells, func(c teaching.AddressCell) bool {
					return strings.Contains(c.Name+" "+c.Value, "street") && c.Timestamp != last.Timestamp
				})
				if kept && model == "" {
					model = f.choice
				}
				var sent []string
				for _, w := range last.Writes {
					s := w.CQL
					if w.Error != "" {
						s += " (refused: " + w.Error + ")"
					}
					sent = append(sent, s)
				}
				says = append(says, f.choice+": "+strings.Join(sent, "; then ")+" → "+cellsSaid(r))
			}
			if model == "" {
				return frame.Grade{}, fmt.Errorf("collections: neither form kept the street's cell")
			}
			return frame.Grade{Model: model, Correct: answer == model,
				Explanation: "The node ran both: " + strings.Join(says, ". ") + ". A non-frozen user type stores each field as a cell of its own (Cassandra 3.6 on); a frozen one is one cell, its fields serialised together, so a change of one field is a write of the whole value, and Cassandra refuses to set a field of it."}, nil
		}}
}

func superExercise(lab teaching.ColumnLab) frame.Exercise {
	var fields []string
	for _, f := range teaching.AddressEntry.Fields {
		fields = append(fields, f.Name)
	}
	// The page's form writes the same entry on the engine (an insert a subcolumn) and reads it
	// back: the learner's check.
	return frame.Exercise{ID: "collections-4", Kind: frame.Predict, Format: "names, comma-separated, in order",
		Check: frame.PostCheck("/learn/act/addressbook", url.Values{"change": {string(teaching.OneField)}}),
		Prompt: "On the engine (the 0.6 model), the lab writes seed 004's entry for John as the super column John of an AddressBook row, a subcolumn per field, in the seed's order: " +
			strings.Join(fields, ", ") + ". In what order does a read of the super column return its subcolumns?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			// The entry's subcolumns in one batch_mutate into a row of the grading's own, read
			// back and deleted (three calls; the page's form writes them an insert each).
			var puts []teaching.LabPut
			for _, f := range teaching.AddressEntry.Fields {
				puts = append(puts, teaching.LabPut{SuperColumn: teaching.AddressEntry.Name, Name: f.Name, Value: f.Value})
			}
			r, err := lab.TryPuts(ctx, frame.ScratchSession(), puts)
			if err != nil {
				return frame.Grade{}, err
			}
			var names []string
			for _, sc := range r.Columns {
				if frame.NameText(sc.Name) == teaching.AddressEntry.Name {
					for _, c := range sc.Columns {
						names = append(names, frame.NameText(c.Name))
					}
				}
			}
			return frame.Grade{Model: frame.NamesAnswer(names), Correct: frame.SameNames(answer, names, true),
				Explanation: fmt.Sprintf("The engine wrote %d subcolumns into %s.%s['%s']['%s'], in the seed's order and in one batch_mutate, and read the super column back: %s. Inside a super column, subcolumns are kept sorted by CompareSubcolumnsWith (%s here), whatever order they were written in, as a row's columns are by CompareWith; CQL3 keeps that order in a clustering column (a map's elements too are sorted by key, a user type's fields are in the type's order).",
					len(names), r.Keyspace, r.ColumnFamily, r.Key, teaching.AddressEntry.Name, strings.Join(names, ", "), r.SubComparator)}, nil
		}}
}
