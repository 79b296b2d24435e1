package partitions

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"twissandra/domain"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/models"
)

// The lesson's questions are graded by the measurement its page shows: the running backend's
// RowSizer scans each container (bounded, as the page's scan is) and the widest partition it
// finds, with its cells as Cassandra counts them, is the right answer. Another follower, another
// post, and the widest partition, or its size, changes.

func exercises(h *handler) []frame.Exercise {
	if h.Deps.Sizes == nil {
		return nil
	}
	return []frame.Exercise{
		{ID: "partitions-1", Kind: frame.Predict, Format: "the name of the table (column family on 0.6, map on memory): timeline, Twissandra.Followers, lines",
			Prompt: "Of every table of this server's backend (column family on 0.6, map on memory), which holds the widest partition now, counted in cells as Cassandra counts them (a CQL row is a cell per value column, a static once; on memory, entries)?",
			Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
				return h.gradeWidest(ctx, answer, false)
			}},
		{ID: "partitions-2", Kind: frame.Predict, Format: "a whole number",
			Prompt: "And how many cells (on memory, entries) does that widest partition hold now?",
			Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
				return h.gradeWidest(ctx, answer, true)
			}},
	}
}

// gradeWidest grades answer against the widest partition the running backend's scan measures:
// its container (any of those tied for widest) or, when cells, its count.
func (h *handler) gradeWidest(ctx context.Context, answer string, cells bool) (frame.Grade, error) {
	n := 0
	if cells {
		var err error
		if n, err = frame.AnswerInt(answer); err != nil {
			return frame.Grade{}, err
		}
	}
	lm, err := h.measured(ctx, h.Deps.Sizes, h.Deps.Backend, false)
	if err != nil {
		return frame.Grade{}, err
	}
	if len(lm.Largest) == 0 {
		return frame.Grade{}, fmt.Errorf("nothing is stored on this server yet: sign up and post, then answer: %w", domain.ErrNotFound)
	}
	w := lm.Largest[0]
	var tied []string
	correct := false
	for _, l := range lm.Largest {
		if l.Cells != w.Cells {
			break
		}
		tied = append(tied, l.Name)
		correct = correct || strings.EqualFold(answer, l.Name) || strings.EqualFold(answer, l.Container)
	}
	key := w.Key
	if w.Label != "" {
		key += " (" + w.Label + ")"
	}
	unit := "cells"
	if lm.Unit != "rows" && lm.Unit != "columns" {
		unit = lm.Unit
	}
	why := "The store scanned each " + models.ContainerName(lm.Unit) + " (" + strconv.Itoa(lm.Scanned) + " " + lm.Unit + " read, at most " +
		strconv.Itoa(lm.PerScan) + " in each): the widest partition is " + w.Name + "[" + key + "], of " + strconv.Itoa(w.Cells) + " " + unit +
		" (" + w.CellShare + " of the 100,000 cells of Cassandra's guidance); it grows " + w.Bound + ": " + frame.IfElse(w.Grows != "", w.Grows, "a few cells each") + "."
	if len(tied) > 1 {
		why += " As wide: " + frame.NamesAnswer(tied[1:]) + "."
	}
	if cells {
		return frame.Grade{Model: strconv.Itoa(w.Cells), Correct: n == w.Cells, Explanation: why}, nil
	}
	return frame.Grade{Model: w.Name, Correct: correct, Explanation: why}, nil
}
