package ttl

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// The lesson's exercises: two on the node's TTL (teaching.TTLLab), one on the public line's
// day partitions as the running store holds them (cql3), and one on the widerow engine's
// compaction of a tombstone (the comparator lab's replicas, teaching.ColumnLab).

// The answers of the TTL(note) question: each names what the node's read comes out as.
const (
	ttlNull    = "null"
	ttlInsert  = "the insert's TTL"
	ttlDefault = "the table's default_time_to_live"
)

// noteTTLQuestion asks what TTL(note) reads after an update of the note of a row inserted
// USING TTL: its grader runs the update on the node and classes what TTL(note) read.
type noteTTLQuestion struct {
	id     string
	ttl    int
	update teaching.TTLUpdate
}

// surviveQuestion asks whether the row still reads once the insert's TTL has passed: its
// grader runs it on the node, polling until the reading expired.
type surviveQuestion struct {
	id     string
	ttl    int
	update teaching.TTLUpdate
}

// publicQuestion asks which day partitions a read of the newest n entries of the public line
// reads, on the running store.
type publicQuestion struct {
	id string
	n  int
}

// graceQuestion asks whether a replica's compaction keeps a tombstone, on the widerow engine.
type graceQuestion struct {
	id                  string
	compactAfter, grace int64 // seconds after the delete, GCGraceSeconds
}

var (
	noteTTL  = noteTTLQuestion{id: "ttl-1", ttl: 5, update: teaching.UpdatePlain}
	survive  = surviveQuestion{id: "ttl-2", ttl: 1, update: teaching.UpdateTTL0}
	publicQ  = publicQuestion{id: "ttl-3", n: 10}
	graceQ   = graceQuestion{id: "ttl-4", compactAfter: 11, grace: 10}
	lab2010  = int64(1273651200000000) // 2010-05-12, the lab's clock, in microseconds
	secondUs = int64(time.Second / time.Microsecond)
)

func exercises(h *labs.Handler) []frame.Exercise {
	var out []frame.Exercise
	if lab := h.Deps.TTL; lab != nil {
		a, b := noteTTL.exercise(lab), survive.exercise(lab)
		for _, e := range []*frame.Exercise{&a, &b} {
			grade := e.Grade
			e.Gate, e.Grade = h.LabGate, func(ctx context.Context, answer string) (frame.Grade, error) {
				return grade(nodeContext(ctx, &h.Deps), answer)
			}
		}
		out = append(out, a, b)
	}
	if h.Deps.Sizes != nil && h.Deps.Backend == "cql3" {
		out = append(out, publicQ.exercise(h.Deps.Sizes))
	}
	if h.Deps.Lab != nil {
		e := graceQ.exercise(h.Deps.Lab)
		e.Gate = h.LabGate
		out = append(out, e)
	}
	return out
}

func updateText(u teaching.TTLUpdate) string {
	switch u {
	case teaching.UpdatePlain:
		return "an UPDATE … SET note = 'updated' without USING TTL"
	case teaching.UpdateTTL0:
		return "an UPDATE … USING TTL 0 SET note = 'updated'"
	}
	return "no update"
}

func (q noteTTLQuestion) exercise(lab teaching.TTLLab) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Choices: []string{ttlNull, ttlInsert, ttlDefault},
		Prompt: "On the node, the lesson's table (its default_time_to_live as above) gets an INSERT of a reading and a note USING TTL " + strconv.Itoa(q.ttl) +
			", then " + updateText(q.update) + " of that row. What does TTL(note) read right after?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			r, err := lab.RunTTL(ctx, frame.ScratchSession(), teaching.TTLScenario{TTL: q.ttl, Update: q.update})
			if err != nil {
				return frame.Grade{}, labs.QueryLabError(err)
			}
			model := ttlNull
			switch n := r.Before.TTLNote; {
			case n == nil:
			case *n <= q.ttl:
				model = ttlInsert
			default:
				model = ttlDefault
			}
			return frame.Grade{Model: model, Correct: answer == model,
				Explanation: "The node ran the insert and the update (the footer lists them) and read TTL(note) = " + intOrNull(r.Before.TTLNote) + " and TTL(reading) = " + intOrNull(r.Before.TTLReading) +
					", the table's default_time_to_live being " + strconv.Itoa(r.Table.DefaultTTL) + ". A TTL belongs to each cell a write writes: a write without USING TTL gives its cells the table's default, USING TTL 0 gives them none, and the cells it does not write keep theirs."}, nil
		}}
}

func (q surviveQuestion) exercise(lab teaching.TTLLab) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Choices: []string{"yes", "no"},
		Prompt: "On the node, a row of the lesson's table is inserted (a reading and a note) USING TTL " + strconv.Itoa(q.ttl) + ", then gets " + updateText(q.update) +
			". Once the insert's TTL has passed, does a SELECT of the row by its key still return it?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			r, err := lab.RunTTL(ctx, frame.ScratchSession(), teaching.TTLScenario{TTL: q.ttl, Update: q.update, Wait: true})
			if err != nil {
				return frame.Grade{}, labs.QueryLabError(err)
			}
			if r.After == nil {
				return frame.Grade{}, fmt.Errorf("ttl: the run did not wait: %w", domain.ErrUnavailable)
			}
			model, what := "no", "no row: the insert's cells and its row marker expired together, and nothing else of the row was left"
			if r.After.Found {
				model, what = "yes", "the row, with reading null and note "+strOrNull(r.After.Note)+": a cell that has not expired keeps the row alive though the insert's row marker expired"
			}
			traced := ""
			if tr := r.Trace; tr != nil {
				traced = " The node's trace of the read counted " + strconv.Itoa(tr.Live) + " live row(s) and " + strconv.Itoa(tr.Tombstones) + " tombstone cell(s): the expired cells are tombstones now."
			}
			return frame.Grade{Model: model, Correct: answer == model,
				Explanation: "The node ran the writes, then was asked " + strconv.Itoa(len(r.Polls)) + " times, every 200 ms, until the reading had expired (" + r.After.At.Round(time.Millisecond).String() +
					" after the insert); the SELECT then read " + what + "." + traced}, nil
		}}
}

func (q publicQuestion) exercise(sizes teaching.RowSizer) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Predict, Format: "the days, newest first, comma-separated (YYYY-MM-DD), or none",
		Prompt: "On the running store, a read of the " + strconv.Itoa(q.n) + " newest tweets of the public line starts at the newest day partition and reads an older one only while it has fewer than " +
			strconv.Itoa(q.n) + ". Which day partitions does it read? (The table above lists them with their entries.)",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			p, err := sizes.PublicLine(ctx)
			if err != nil {
				return frame.Grade{}, err
			}
			var days, seen []string
			got := 0
			for _, r := range p.Rows {
				if got >= q.n {
					break
				}
				days = append(days, r.Key)
				seen = append(seen, r.Key+": "+strconv.Itoa(r.Cells))
				got += r.Cells
			}
			model := strings.Join(days, ", ")
			if len(days) == 0 {
				model = "none"
			}
			return frame.Grade{Model: model, Correct: slices.Equal(frame.AnswerNames(answer), days),
				Explanation: "The store lists the public line's day partitions newest first (public_days) and counts each (" + frame.When(len(seen) > 0, strings.Join(seen, "; ")) +
					frame.When(len(seen) == 0, "none yet") + "): the read takes the newest days until they hold " + strconv.Itoa(q.n) + " entries, so it reads " + strconv.Itoa(len(days)) +
					" partition(s), each one query of its own."}, nil
		}}
}

func (q graceQuestion) exercise(lab teaching.ColumnLab) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Choices: []string{"yes", "no"},
		Prompt: "On widerow's engine (0.6 has no TTL, but its tombstones are what an expired cell becomes on a node): a column is written, deleted 1 s later, and the replica that took the delete compacts " +
			strconv.FormatInt(q.compactAfter, 10) + " s after the delete, with GCGraceSeconds = " + strconv.FormatInt(q.grace, 10) + ". Does the replica still hold the tombstone after that compaction?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			session := frame.ScratchSession()
			defer func() { _ = lab.Clear(context.WithoutCancel(ctx), session) }()
			deleted := lab2010 + secondUs
			compacted := deleted + q.compactAfter*secondUs
			run, err := lab.Replicas(ctx, session, teaching.ReplicaScenario{Value: "21", Written: lab2010, Deleted: deleted,
				Compacted: compacted, GCGrace: q.grace, Read: compacted + secondUs})
			if err != nil {
				return frame.Grade{}, err
			}
			held := -1
			for _, st := range run.Steps {
				if st.What == "compaction" {
					held = 0
					for _, c := range st.A {
						if c.Deleted {
							held++
						}
					}
				}
			}
			if held < 0 {
				return frame.Grade{}, fmt.Errorf("ttl: the engine reported no compaction: %w", domain.ErrUnavailable)
			}
			model := frame.IfElse(held > 0, "yes", "no")
			return frame.Grade{Model: model, Correct: answer == model,
				Explanation: "The engine wrote the column, deleted it on replica A and compacted it " + strconv.FormatInt(q.compactAfter, 10) + " s after the delete with GCGraceSeconds = " +
					strconv.FormatInt(q.grace, 10) + ": replica A holds " + strconv.Itoa(held) + " tombstone(s) after it. A compaction drops a tombstone the node has held at least GCGraceSeconds, not before: until then a replica that missed the delete can still learn it from this one. A node's expired cell becomes such a tombstone at compaction, its grace counted from its write."}, nil
		}}
}
