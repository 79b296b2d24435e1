package paths

import (
	"context"
	"strconv"
	"strings"
	"time"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// The exercises run their steps on a fresh node of the engine of their own (StorageEngine.
// Rehearse), whose figures only those steps move, and grade the answer against what its figures
// say the steps did: change the steps and the right answer changes with them.

var (
	write = teaching.PathStep{Action: teaching.PathWrite}
	flush = teaching.PathStep{Action: teaching.PathFlush}
	read  = teaching.PathStep{Action: teaching.PathRead}
	merge = teaching.PathStep{Action: teaching.PathCompact}
)

func deleteReceived(ago time.Duration) teaching.PathStep {
	return teaching.PathStep{Action: teaching.PathDelete, Received: ago}
}

// filesQuestion asks how many table files the store holds after its steps.
type filesQuestion struct {
	id, prompt string
	steps      []teaching.PathStep
}

// whereQuestion asks where a read after its steps finds the column: the memtable, or a table
// file (the read read table blocks).
type whereQuestion struct {
	id, prompt string
	steps      []teaching.PathStep // the last one a read
}

// graceQuestion asks whether a tombstone is still stored after a compaction, the delete received
// ago before it.
type graceQuestion struct {
	id  string
	ago time.Duration
}

var (
	filesQuestions = []filesQuestion{
		{id: "paths-1", steps: []teaching.PathStep{write, flush, flush},
			prompt: "On an empty node: write a column, flush the memtable, then flush again without writing anything. How many table files does the node hold?"},
		{id: "paths-2", steps: []teaching.PathStep{write, flush, write, flush, merge},
			prompt: "On an empty node: write a column and flush, write the same column again and flush, then compact. How many table files does the node hold?"},
	}
	whereQuestions = []whereQuestion{
		{id: "paths-3", steps: []teaching.PathStep{write, flush, read},
			prompt: "On an empty node: write a column, flush the memtable, then read the column. Where does the read find it?"},
	}
	graceQuestions = []graceQuestion{
		{id: "paths-4", ago: 11 * 24 * time.Hour},
	}
)

func exercises(s teaching.StorageEngine, gate *frame.Gate) []frame.Exercise {
	if s == nil {
		return nil
	}
	var out []frame.Exercise
	for _, q := range filesQuestions {
		out = append(out, q.exercise(s))
	}
	for _, q := range whereQuestions {
		out = append(out, q.exercise(s))
	}
	for _, q := range graceQuestions {
		out = append(out, q.exercise(s))
	}
	for i := range out {
		out[i].Gate = gate
	}
	return out
}

// stepsSaid says what each step did to the table files.
func stepsSaid(runs []teaching.PathRun) string {
	parts := make([]string, len(runs))
	for i, r := range runs {
		parts[i] = string(r.Step.Action) + ": " + strconv.FormatInt(r.Before.TableFiles(), 10) + " → " + strconv.FormatInt(r.After.TableFiles(), 10) + " files"
		if r.Step.Action == teaching.PathFlush {
			parts[i] += " (flushes " + strconv.FormatInt(r.Before.Flushes, 10) + " → " + strconv.FormatInt(r.After.Flushes, 10) + ")"
		}
	}
	return strings.Join(parts, "; ")
}

func (q filesQuestion) exercise(s teaching.StorageEngine) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Predict, Prompt: q.prompt, Format: "a whole number", Check: rehearsalCheck(q.steps),
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			n, err := frame.AnswerInt(answer)
			if err != nil {
				return frame.Grade{}, err
			}
			runs, err := s.Rehearse(ctx, q.steps)
			if err != nil {
				return frame.Grade{}, err
			}
			last := runs[len(runs)-1].After
			model := last.TableFiles()
			why := "A flush writes the memtable to a new table file in L0; a flush of an empty memtable writes none. "
			if last.Compactions > 0 {
				why += "The compaction merged the overlapping files (each held a version of the same column) into one file of the last level, L6, holding the newest version: " +
					strconv.FormatInt(levelFiles(last, 6), 10) + " in L6 after it. "
			}
			return frame.Grade{Correct: int64(n) == model, Model: strconv.FormatInt(model, 10),
				Explanation: why + "The engine's figures, step by step: " + stepsSaid(runs) + "."}, nil
		}}
}

// The answers of a whereQuestion.
const (
	inMemtable = "the memtable"
	inTable    = "a table file"
)

func (q whereQuestion) exercise(s teaching.StorageEngine) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Prompt: q.prompt, Choices: []string{inMemtable, inTable}, Check: rehearsalCheck(q.steps),
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			runs, err := s.Rehearse(ctx, q.steps)
			if err != nil {
				return frame.Grade{}, err
			}
			r := runs[len(runs)-1]
			blocks := r.After.BlockReads() - r.Before.BlockReads()
			model, why := inMemtable, "The column was still in the memtable (no flush since the write), and the node had no table file to read: the read read no table block."
			if blocks > 0 {
				model, why = inTable, "The flush had written the memtable to a table file and started an empty memtable: the read found the column in the table, reading "+strconv.FormatInt(blocks, 10)+" of its blocks (index and data)."
			}
			return frame.Grade{Correct: answer == model, Model: model,
				Explanation: why + " Table files when it read: " + strconv.FormatInt(r.Before.TableFiles(), 10) + "; flushes before it: " + strconv.FormatInt(r.Before.Flushes, 10) + "."}, nil
		}}
}

func (q graceQuestion) steps() []teaching.PathStep {
	return []teaching.PathStep{write, flush, deleteReceived(q.ago), merge}
}

func (q graceQuestion) exercise(s teaching.StorageEngine) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Choices: []string{"yes", "no"}, Check: rehearsalCheck(q.steps()),
		Prompt: "On an empty node whose GCGraceSeconds is ten days (864000, 0.6's default and Cassandra's): write a column and flush, then delete it, the node receiving the delete " + days(q.ago) + " ago, and compact. Does the node still store the column's tombstone after the compaction?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			runs, err := s.Rehearse(ctx, q.steps())
			if err != nil {
				return frame.Grade{}, err
			}
			c := runs[len(runs)-1]
			model, why := "yes", "The delete was received "+days(q.ago)+" ago, within the grace period of "+days(c.GCGrace)+": the compaction kept the tombstone (0 dropped), so that a replica that missed the delete learns it from repair before the tombstone goes."
			if c.Purged > 0 {
				model, why = "no", "The delete was received "+days(q.ago)+" ago, past the grace period of "+days(c.GCGrace)+": the compaction dropped the tombstone ("+strconv.Itoa(c.Purged)+" dropped) and the merge left no trace of the column."
			}
			return frame.Grade{Correct: answer == model, Model: model,
				Explanation: why + " Table files: " + strconv.FormatInt(c.Before.TableFiles(), 10) + " → " + strconv.FormatInt(c.After.TableFiles(), 10) + "."}, nil
		}}
}

// days writes d in days, or hours below a day.
func days(d time.Duration) string {
	if d >= 24*time.Hour {
		n := int(d / (24 * time.Hour))
		return strconv.Itoa(n) + frame.IfElse(n == 1, " day", " days")
	}
	n := int(d / time.Hour)
	return strconv.Itoa(n) + frame.IfElse(n == 1, " hour", " hours")
}

// nodeExercises ask what the node's own views count of a learner's write and read: the grader
// writes and reads a row of its own and reads the views around it (NodeViews.Watch).
func nodeExercises(v teaching.NodeViews, gate *frame.Gate) []frame.Exercise {
	if v == nil {
		return nil
	}
	return []frame.Exercise{{ID: "paths-5", Kind: frame.Predict, Format: "a whole number", Gate: gate,
		Prompt: "On the Cassandra node: you write one row of a table (one INSERT), then read it (one SELECT). By how much does the node's count of local writes to that table (system_views.local_write_latency) grow?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			n, err := frame.AnswerInt(answer)
			if err != nil {
				return frame.Grade{}, err
			}
			run, err := v.Watch(ctx, frame.ScratchSession())
			if err != nil {
				return frame.Grade{}, err
			}
			w, _ := run.Figure("local_write_latency", "count")
			r, _ := run.Figure("local_read_latency", "count")
			m, _ := run.Figure("thread_pools", "MutationStage completed")
			grew := w.After - w.Before
			return frame.Grade{Correct: int64(n) == grew, Model: strconv.FormatInt(grew, 10),
				Explanation: "The node counted " + strconv.FormatInt(grew, 10) + " local " + frame.IfElse(grew == 1, "write", "writes") + " to " + run.Keyspace + "." + run.Table +
					" (" + strconv.FormatInt(w.Before, 10) + " → " + strconv.FormatInt(w.After, 10) + ") and " + strconv.FormatInt(r.After-r.Before, 10) + " local reads: a replica counts each mutation it applies to the table (its commit log, then its memtable), once per write whatever the columns; the read counts apart. " +
					"Its MutationStage completed " + strconv.FormatInt(m.After-m.Before, 10) + " tasks meanwhile, every table's. Another client writing the table at the same time would count too: the count is the node's, not the session's."}, nil
		}}}
}
