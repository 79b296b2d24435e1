package method

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"twissandra/domain"
	"twissandra/web/teach/frame"
)

// The lesson's questions ask the formula's answer for a partition the store holds: how many
// cells the widest partition of a table holds now. The grader measures it as the page does (the
// backend's scan finds the widest, its inspector reads it, the cells it holds are counted), and
// the counted cells are the right answer: another post or follower, another count.

// cellsQuestion is one table's widest partition; cf is its column family on 0.6.
type cellsQuestion struct {
	id, table, cf, why string
}

var cellsQuestions = []cellsQuestion{
	{id: "method-1", table: "timeline", cf: "Timeline",
		why: "A timeline row holds no static column: Nv = Nr (Nc − Npk − Ns), a cell per value column of each row, and a row per post the reader sees."},
	{id: "method-2", table: "followers", cf: "Followers",
		why: "A followers partition holds a static column (follower_count on cql3): Ns counts it once per partition, whatever its rows; on 0.6 a Followers row is a column per follower."},
}

// cellsExercises are the lesson's questions on cells, on a backend whose partitions the lesson counts (widerow's
// engine, cql3's node): memory keeps maps, which hold no cells.
func cellsExercises(h *handler) []frame.Exercise {
	counts := h.Deps.Sizes != nil && (h.Deps.Backend == "widerow" && h.Deps.Wide != nil || h.Deps.Backend == "cql3" && h.Deps.CQL != nil)
	if !counts {
		return nil
	}
	out := make([]frame.Exercise, len(cellsQuestions))
	for i, q := range cellsQuestions {
		out[i] = frame.Exercise{ID: q.id, Kind: frame.Predict, Format: "a whole number",
			Prompt: "Take the widest partition of the " + q.table + " table (on 0.6, the widest row of Twissandra." + q.cf +
				") on this server now. How many cells does it hold? Nv = Nr (Nc − Npk − Ns) + Ns, with Nr its rows.",
			Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
				n, err := frame.AnswerInt(answer)
				if err != nil {
					return frame.Grade{}, err
				}
				return h.gradeCells(ctx, q, n)
			}}
	}
	return out
}

// gradeCells measures q's table's widest partition as the page does, and holds n to the cells
// the store counts in it.
func (h *handler) gradeCells(ctx context.Context, q cellsQuestion, n int) (frame.Grade, error) {
	widest, err := h.Deps.Sizes.WidestRows(ctx, 1000)
	if err != nil {
		return frame.Grade{}, err
	}
	byName := map[string]frame.ChebTable{}
	for _, t := range frame.ParseSchema(h.CqlDDL()) {
		byName[t.Name] = t
	}
	var p measuredPartition
	found := false
	for _, r := range widest.Rows { // widest first
		keyspace, name, _ := strings.Cut(r.Container, ".")
		switch {
		case widest.Unit == "rows" && name == q.table:
			t, ok := byName[q.table]
			if !ok {
				return frame.Grade{}, fmt.Errorf("the schema has no table %s: %w", q.table, domain.ErrNotFound)
			}
			p, found, err = h.measureTable(ctx, r, t, true)
		case widest.Unit == "columns" && keyspace == "Twissandra" && name == q.cf:
			p, found, err = h.measureRow(ctx, r, keyspace, name, true)
		default:
			continue
		}
		break
	}
	if err != nil {
		return frame.Grade{}, err
	}
	if !found || !p.Counts {
		return frame.Grade{}, fmt.Errorf("no %s partition on this server yet: sign up, follow and post, then answer: %w", q.table, domain.ErrNotFound)
	}
	key := p.Key
	if p.Label != "" {
		key += " (" + p.Label + ")"
	}
	why := "The store's scan found the widest " + p.Container + " partition, " + key + ", of " + strconv.Itoa(p.Nr) + " rows; its inspector read it and counted " +
		strconv.Itoa(p.Counted) + " cells"
	if p.Tombstones > 0 {
		why += ", " + strconv.Itoa(p.Tombstones) + " of them tombstones that compaction has not dropped yet"
	}
	why += ". The formula: " + strconv.Itoa(p.Nr) + " × (" + strconv.Itoa(p.Nc) + " − " + strconv.Itoa(p.Npk) + " − " + strconv.Itoa(p.Ns) + ") + " +
		strconv.Itoa(p.Ns) + " = " + strconv.Itoa(p.Formula) + ". " + q.why
	return frame.Grade{Model: strconv.Itoa(p.Counted), Correct: n == p.Counted, Explanation: why}, nil
}
