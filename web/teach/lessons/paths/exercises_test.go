package paths

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"twissandra/domain"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
)

// Each exercise's right answer is what the rehearsal's figures say its steps did: other steps,
// another answer; and the model answer, sent back, is graded correct.
func TestPathsExercisesAreGradedByTheEngine(t *testing.T) {
	t.Parallel()
	s := webkit.WiderowStores(t).Storage
	ctx := context.Background()
	grade := func(id string, ex func() (string, bool, error)) string {
		t.Helper()
		m, correct, err := ex()
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if !correct {
			t.Errorf("%s: the model %q, sent back, graded incorrect", id, m)
		}
		return m
	}
	files := func(q filesQuestion) string {
		return grade(q.id, func() (string, bool, error) {
			g, err := q.exercise(s).GradeAnswer(ctx, "0")
			if err != nil {
				return "", false, err
			}
			g2, err := q.exercise(s).GradeAnswer(ctx, g.Model)
			return g.Model, g2.Correct, err
		})
	}
	if got := files(filesQuestions[0]); got != "1" {
		t.Errorf("write, flush, flush: %s files", got)
	}
	if got := files(filesQuestion{id: "two", steps: []teaching.PathStep{write, flush, write, flush}}); got != "2" {
		t.Errorf("write, flush, write, flush: %s files", got)
	}
	if got := files(filesQuestions[1]); got != "1" {
		t.Errorf("two flushes of one column, then a compaction: %s files", got)
	}
	where := func(q whereQuestion) string {
		return grade(q.id, func() (string, bool, error) {
			g, err := q.exercise(s).GradeAnswer(ctx, inMemtable)
			if err != nil {
				return "", false, err
			}
			g2, err := q.exercise(s).GradeAnswer(ctx, g.Model)
			return g.Model, g2.Correct, err
		})
	}
	if got := where(whereQuestions[0]); got != inTable {
		t.Errorf("a read after a flush: %q", got)
	}
	if got := where(whereQuestion{id: "unflushed", steps: []teaching.PathStep{write, read}}); got != inMemtable {
		t.Errorf("a read before any flush: %q", got)
	}
	grace := func(q graceQuestion) string {
		return grade(q.id, func() (string, bool, error) {
			g, err := q.exercise(s).GradeAnswer(ctx, "yes")
			if err != nil {
				return "", false, err
			}
			g2, err := q.exercise(s).GradeAnswer(ctx, g.Model)
			return g.Model, g2.Correct, err
		})
	}
	if got := grace(graceQuestions[0]); got != "no" {
		t.Errorf("a tombstone past its grace: still stored? %q", got)
	}
	if got := grace(graceQuestion{id: "recent", ago: time.Hour}); got != "yes" {
		t.Errorf("a tombstone within its grace: still stored? %q", got)
	}
	for _, e := range exercises(s, nil) {
		if _, err := e.GradeAnswer(ctx, "junk"); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%s: junk graded: %v", e.ID, err)
		}
	}
	if exercises(nil, nil) != nil {
		t.Error("exercises without a storage engine")
	}
}

// On the node, the write count's growth is what the node's views counted around the grader's
// own write: one INSERT, one write.
func TestPathsNodeExerciseIsGradedByTheNode(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	ctx := context.Background()
	ex := nodeExercises(st.NodeViews, nil)
	if len(ex) != 1 {
		t.Fatalf("%d node exercises", len(ex))
	}
	g, err := ex[0].GradeAnswer(ctx, "0")
	if err != nil {
		t.Fatal(err)
	}
	if g.Correct || g.Model != "1" {
		t.Errorf("0 writes: %+v", g)
	}
	if g2, err := ex[0].GradeAnswer(ctx, g.Model); err != nil || !g2.Correct {
		t.Errorf("the model %q, sent back: %+v %v", g.Model, g2, err)
	}
	if _, err := ex[0].GradeAnswer(ctx, "many"); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("junk: %v", err)
	}
	if nodeExercises(nil, nil) != nil {
		t.Error("node exercises without a node")
	}
}

// A read that read no block while a table file holds the row says why (the engine's kept
// iterator), rather than let the learner take it for a memtable read; one that read blocks does not.
func TestReadSummaryExplainsAReadOfNoBlock(t *testing.T) {
	t.Parallel()
	table := []teaching.LevelFiles{{Level: 0, Files: 1}}
	r := teaching.PathRun{Step: read, Found: true, Value: "v",
		Before: teaching.StorageFigures{Levels: table, BlockCacheMisses: 4}, After: teaching.StorageFigures{Levels: table, BlockCacheMisses: 4}}
	if s := summary(r); !strings.Contains(s, "No block read anew") || !strings.Contains(s, "read 0 table blocks") {
		t.Errorf("a read of no block: %q", s)
	}
	r.After.BlockCacheHits = 2
	if s := summary(r); strings.Contains(s, "No block read anew") || !strings.Contains(s, "read 2 table blocks (2 from the block cache, 0 from the files)") {
		t.Errorf("a read of two blocks: %q", s)
	}
}
