package ttl

import (
	"context"
	"strings"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
)

// The engine's compaction decides whether the tombstone is kept: the same delete compacted with a
// longer GCGraceSeconds keeps it.
func TestGraceExerciseIsGradedByTheEngine(t *testing.T) {
	t.Parallel()
	lab := webkit.Lab(t)
	ctx := context.Background()
	for _, c := range []struct {
		grace int64
		want  string
	}{{10, "no"}, {20, "yes"}} {
		q := graceQ
		q.grace = c.grace
		g, err := q.exercise(lab).GradeAnswer(ctx, "yes")
		if err != nil {
			t.Fatal(err)
		}
		if g.Model != c.want || g.Correct != (c.want == "yes") {
			t.Errorf("GCGraceSeconds %d: %+v, want %s", c.grace, g, c.want)
		}
	}
}

// layout is a RowSizer whose public line is the test's.
type layout struct {
	teaching.RowSizer
	p teaching.PublicLayout
}

func (l layout) PublicLine(context.Context) (teaching.PublicLayout, error) { return l.p, nil }

// The day partitions a read takes are the newest until they hold the page: more tweets on the
// newest day, fewer partitions.
func TestPublicExerciseFollowsTheStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	days := func(counts ...int) layout {
		l := layout{p: teaching.PublicLayout{Bounded: true}}
		for i, n := range counts {
			l.p.Rows = append(l.p.Rows, teaching.RowSize{Key: "2026-11-2" + string(rune('8'-i)), Cells: n})
		}
		return l
	}
	for _, c := range []struct {
		l    layout
		want string
	}{{days(4, 3, 5, 9), "2026-11-28, 2026-11-27, 2026-11-26"}, {days(12, 3), "2026-11-28"}, {days(), "none"}} {
		g, err := publicQ.exercise(c.l).GradeAnswer(ctx, c.want)
		if err != nil {
			t.Fatal(err)
		}
		if g.Model != c.want || !g.Correct {
			t.Errorf("%+v: %+v, want %s", c.l.p.Rows, g, c.want)
		}
	}
}

// On the node, the exercises' answers follow what the node did: another update, another TTL;
// a note of TTL 0 keeps the row, none lets it go.
func TestTTLExercisesAreGradedByTheNode(t *testing.T) {
	t.Parallel()
	st, _ := webkit.CQL3Stores(t)
	lab := st.TTL
	ctx := context.Background()
	for _, q := range []struct {
		u    teaching.TTLUpdate
		want string
	}{{teaching.UpdatePlain, ttlDefault}, {teaching.UpdateTTL0, ttlNull}, {teaching.NoUpdate, ttlInsert}} {
		n := noteTTL
		n.update = q.u
		g, err := n.exercise(lab).GradeAnswer(ctx, ttlNull)
		if err != nil {
			t.Fatal(err)
		}
		if g.Model != q.want {
			t.Errorf("TTL(note) after %s: %q, want %q (%s)", q.u, g.Model, q.want, g.Explanation)
		}
	}
	for _, q := range []struct {
		u    teaching.TTLUpdate
		want string
	}{{teaching.UpdateTTL0, "yes"}, {teaching.NoUpdate, "no"}} {
		s := survive
		s.update = q.u
		g, err := s.exercise(lab).GradeAnswer(ctx, "yes")
		if err != nil {
			t.Fatal(err)
		}
		if g.Model != q.want || !strings.Contains(g.Explanation, "every 200 ms") {
			t.Errorf("the row after %s: %q, want %q (%s)", q.u, g.Model, q.want, g.Explanation)
		}
	}
}
