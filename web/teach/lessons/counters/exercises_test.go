package counters

import (
	"context"
	"testing"

	wideteach "twissandra/adapters/widerow/teach"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/models"
)

func handlerOn(st webkit.Stores) *handler {
	lh := labs.New(&models.Handler{Base: &frame.Base{Deps: frame.Deps{Backend: st.Backend, Counters: st.Counters, Sandbox: sandbox},
		SandboxGate: frame.NewGate("sandbox", frame.GateLimits{Total: 1, PerLearner: 1, PerMinute: 100, PerAddress: 100})}})
	return &handler{Handler: lh, gate: frame.NewGate("counter run", frame.GateLimits{Total: 1, PerLearner: 1, PerMinute: 100, PerAddress: 100})}
}

// sandbox opens a scratch store of the 0.6 model as the server does.
func sandbox() (frame.Scratch, error) {
	s, err := wideteach.OpenScratch()
	if err != nil {
		return frame.Scratch{}, err
	}
	return frame.Scratch{Users: s.Store, Tweets: s.Store, Lines: s.Store, Rows: s.Inspector, Close: s.Close}, nil
}

func grade(t *testing.T, e frame.Exercise, answer string) frame.Grade {
	t.Helper()
	g, err := e.GradeAnswer(context.Background(), answer)
	if err != nil {
		t.Fatalf("%s %q: %v", e.ID, answer, err)
	}
	if g.Explanation == "" {
		t.Errorf("%s: no explanation", e.ID)
	}
	return g
}

// Without a node only the follow question is asked, graded on the sandbox: a follow sent twice
// counts once; with another follower the count is one more; junk is refused.
func TestFollowQuestionOnTheSandbox(t *testing.T) {
	ex := exercises(handlerOn(webkit.WiderowStores(t)))
	if len(ex) != 1 || ex[0].ID != "counters-3" {
		t.Fatalf("exercises without a node: %+v", ex)
	}
	if g := grade(t, ex[0], "3"); g.Correct || g.Model != "2" {
		t.Fatalf("two followers, one follow sent twice: %+v", g)
	}
	saved := retriedFollowers
	t.Cleanup(func() { retriedFollowers = saved })
	retriedFollowers = []string{"ann", "cat", "dan"}
	ex = exercises(handlerOn(webkit.WiderowStores(t)))
	if g := grade(t, ex[0], "3"); !g.Correct || g.Model != "3" {
		t.Fatalf("three followers: %+v", g)
	}
	if _, err := ex[0].GradeAnswer(context.Background(), "many"); err == nil {
		t.Fatal("a non-number was graded")
	}
}

// On the node the lost answer is graded by the run: one more than the increments meant, and
// another count of increments another answer; the mixed table is refused by the node.
func TestCounterQuestionsOnNode(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	ex := exercises(handlerOn(st))
	if len(ex) != 3 || ex[0].ID != "counters-1" || ex[1].ID != "counters-2" {
		t.Fatalf("exercises on the node: %+v", ex)
	}
	if g := grade(t, ex[0], "3"); g.Correct || g.Model != "4" {
		t.Fatalf("3 increments, one answer lost: %+v", g)
	}
	saved := lostIncrements
	t.Cleanup(func() { lostIncrements = saved })
	lostIncrements = 1
	if g := grade(t, exercises(handlerOn(st))[0], "2"); !g.Correct {
		t.Fatalf("1 increment, its answer lost: %+v", g)
	}
	if g := grade(t, ex[1], "accepted"); g.Correct || g.Model != "refused" {
		t.Fatalf("a counter beside a text: %+v", g)
	}
}
