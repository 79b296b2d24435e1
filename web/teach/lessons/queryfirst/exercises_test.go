package queryfirst

import (
	"context"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/models"
)

func labsOn(st webkit.Stores) *labs.Handler {
	return labs.New(&models.Handler{Base: &frame.Base{Deps: frame.Deps{Backend: st.Backend, QueryLab: st.QueryLab}}})
}

func gradeKey(t *testing.T, e frame.Exercise, answer string) (bool, string) {
	t.Helper()
	g, err := e.GradeAnswer(context.Background(), answer)
	if err != nil {
		t.Fatalf("%s %q: %v", e.ID, answer, err)
	}
	if g.Explanation == "" {
		t.Errorf("%s: no explanation", e.ID)
	}
	return g.Correct, g.Model
}

// Without a node the key is graded by the method's rules, and the count of partitions is not
// asked; other choices, another right answer.
func TestKeyExerciseByTheRules(t *testing.T) {
	for _, st := range []webkit.Stores{webkit.MemoryStores(), webkit.WiderowStores(t)} {
		h := labsOn(st)
		ex := exercises(h, h.RunGate("key trial"))
		if len(ex) != 1 || ex[0].ID != "queryfirst-1" || ex[0].Gate != nil {
			t.Fatalf("%s: %+v", st.Backend, ex)
		}
		want := pickKey.choices[1].String()
		if ok, model := gradeKey(t, ex[0], pickKey.choices[0].String()); ok || model != want {
			t.Errorf("%s: (time, username) graded %v, model %q", st.Backend, ok, model)
		}
		if ok, _ := gradeKey(t, ex[0], want); !ok {
			t.Errorf("%s: the model graded incorrect", st.Backend)
		}
		q := keyQuestion{id: "x", pattern: "followers", choices: []teaching.KeyChoice{
			{Pattern: "followers", Partition: []string{"follower"}},
			{Pattern: "followers", Partition: []string{"username"}, Clustering: []teaching.ClusteringChoice{{Column: "follower"}}}}}
		if ok, model := gradeKey(t, q.exercise(h, false), q.choices[0].String()); ok || model != q.choices[1].String() {
			t.Errorf("%s: followers by follower graded %v, model %q", st.Backend, ok, model)
		}
	}
}

// On the node, the query lab grades: the key that reads one partition is the model; the
// partitions the query reads are those the node read, a day each for a key of days, one for
// a key of the line alone.
func TestKeyExercisesAreGradedByTheNode(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	h := labsOn(st)
	ex := exercises(h, h.RunGate("key trial"))
	if len(ex) != 2 || ex[0].Gate == nil || ex[1].ID != "queryfirst-2" {
		t.Fatalf("%+v", ex)
	}
	want := pickKey.choices[1].String()
	if ok, model := gradeKey(t, ex[0], pickKey.choices[2].String()); ok || model != want {
		t.Errorf("((username, time)) graded %v, model %q", ok, model)
	}
	if ok, _ := gradeKey(t, ex[0], want); !ok {
		t.Error("the model graded incorrect")
	}
	if ok, model := gradeKey(t, ex[1], "1"); ok || model != "3" {
		t.Errorf("a partition a day: %v %q", ok, model)
	}
	line := partitionsQuestion{id: "x", key: teaching.KeyChoice{Pattern: "public", Partition: []string{"line"}, Clustering: []teaching.ClusteringChoice{{Column: "time", Desc: true}}}}
	if ok, model := gradeKey(t, line.exercise(h), "3"); ok || model != "1" {
		t.Errorf("a partition for the line: %v %q", ok, model)
	}
	if _, err := ex[1].GradeAnswer(context.Background(), "three"); err == nil {
		t.Error("a count that is no number was graded")
	}
}
