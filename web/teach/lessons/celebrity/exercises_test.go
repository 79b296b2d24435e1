package celebrity

import (
	"context"
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

func model(t *testing.T, q sandboxQuestion, wrong string) string {
	t.Helper()
	ctx := context.Background()
	g, err := q.exercise(openScratch).GradeAnswer(ctx, wrong)
	if err != nil {
		t.Fatal(err)
	}
	if g2, err := q.exercise(openScratch).GradeAnswer(ctx, g.Model); err != nil || !g2.Correct {
		t.Errorf("%s: the model %q graded incorrect: %v", q.id, g.Model, err)
	}
	return g.Model
}

// The rows a post writes are those the sandbox's run left holding it: a follower more below
// the threshold, a row more; above it, the author's lines alone, however many follow.
func TestRowsExerciseIsGradedByTheSandbox(t *testing.T) {
	q := sandboxQuestions[0]
	pulled := model(t, q, "0")
	q.followers = q.threshold + 10
	if more := model(t, q, "0"); pulled != "3" || more != pulled {
		t.Errorf("pulled, %d and %d followers: %s and %s rows", sandboxQuestions[0].followers, q.followers, pulled, more)
	}
	q.threshold = 20
	if pushed := model(t, q, "0"); pushed != "15" {
		t.Errorf("pushed to 12 followers: %s rows", pushed)
	}
	q.followers = 2
	if pushed := model(t, q, "0"); pushed != "5" {
		t.Errorf("pushed to 2 followers: %s rows", pushed)
	}
	if _, err := q.exercise(openScratch).GradeAnswer(context.Background(), "many"); err == nil {
		t.Error("a count that is no number was graded")
	}
	if ex := exercises(nil, nil); len(ex) != 0 {
		t.Errorf("a server without a sandbox asks %d", len(ex))
	}
}

// Whether fan1's page merges is what the sandbox's page read: at the threshold, no; a follower
// more, yes.
func TestMergeExerciseIsGradedByTheSandbox(t *testing.T) {
	q := sandboxQuestions[1]
	if got := model(t, q, "yes"); got != "no" {
		t.Errorf("%d followers, threshold %d: merged %s", q.followers, q.threshold, got)
	}
	q.followers++
	if got := model(t, q, "no"); got != "yes" {
		t.Errorf("%d followers, threshold %d: merged %s", q.followers, q.threshold, got)
	}
	q.threshold = q.followers
	if got := model(t, q, "yes"); got != "no" {
		t.Errorf("%d followers, threshold %d: merged %s", q.followers, q.threshold, got)
	}
	if _, err := q.exercise(openScratch).GradeAnswer(context.Background(), "maybe"); err == nil {
		t.Error("an answer that is no choice was graded")
	}
}
