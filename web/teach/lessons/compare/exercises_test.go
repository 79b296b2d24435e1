package compare

import (
	"context"
	"strconv"
	"testing"

	wideteach "twissandra/adapters/widerow/teach"
	"twissandra/web/teach/frame"
)

// openScratch opens the sandbox's scratch node as the server does.
func openScratch() (frame.Scratch, error) {
	s, err := wideteach.OpenScratch()
	if err != nil {
		return frame.Scratch{}, err
	}
	return frame.Scratch{Users: s.Store, Tweets: s.Store, Lines: s.Store, Rows: s.Inspector, Close: s.Close}, nil
}

// A follow's calls are those the measured follow made on the scratch node: with tweets to copy
// into the follower's timeline, a batch more than with none.
func TestFollowExerciseIsGradedByTheScratchNode(t *testing.T) {
	ctx := context.Background()
	calls := func(q followQuestion) int {
		t.Helper()
		g, err := q.exercise(openScratch).GradeAnswer(ctx, "0")
		if err != nil {
			t.Fatal(err)
		}
		if g2, _ := q.exercise(openScratch).GradeAnswer(ctx, g.Model); !g2.Correct || g.Correct {
			t.Errorf("%d posts: the model %q graded %v, 0 graded %v", q.posts, g.Model, g2.Correct, g.Correct)
		}
		n, _ := strconv.Atoi(g.Model)
		return n
	}
	q := followQuestions[0]
	some := calls(q)
	q.posts = 0
	none := calls(q)
	if none < 2 || some != none+1 {
		t.Errorf("a follow's calls with %d posts to copy: %d, with none: %d", followQuestions[0].posts, some, none)
	}
	if _, err := q.exercise(openScratch).GradeAnswer(ctx, "several"); err == nil {
		t.Error("a count that is no number was graded")
	}
	if ex := exercises(nil, nil); len(ex) != 0 {
		t.Errorf("a server without a sandbox asks %d", len(ex))
	}
}
