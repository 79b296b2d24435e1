package method

import (
	"context"
	"strings"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
)

func designExercise(t *testing.T, st webkit.Stores, onNode bool, pattern string) func(string) (bool, string, string) {
	t.Helper()
	for i, p := range teaching.DesignPatterns() {
		if p.ID == pattern {
			e := exercises(st.QueryLab, onNode, nil, onCompareNode(st.Backend, ""))[i]
			return func(answer string) (bool, string, string) {
				g, err := e.GradeAnswer(context.Background(), answer)
				if err != nil {
					t.Fatalf("%q: %v", answer, err)
				}
				return g.Correct, g.Explanation, g.Model
			}
		}
	}
	t.Fatalf("no pattern %s", pattern)
	return nil
}

// Without a node the key is chosen, and the mapping rules grade it.
func TestDesignWithoutANodeIsGradedByTheRules(t *testing.T) {
	grade := designExercise(t, webkit.MemoryStores(), false, "followers")
	if ok, why, model := grade("partition: follower; clustering: username"); ok || model != "partition: username; clustering: follower asc" || !strings.Contains(why, "cql3 node") {
		t.Errorf("a key on the follower: %v, %q, %q", ok, why, model)
	}
	if ok, _, _ := grade("partition: username; clustering: follower"); !ok {
		t.Error("the rules' key graded incorrect")
	}
}

// On the node the design runs: the right one is correct; one that needs ALLOW FILTERING, one
// that reads every partition, one in the wrong order, one hot partition are not, and say why.
func TestDesignOnTheNodeIsGradedByWhatItDid(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	grade := designExercise(t, st, true, "mentions")
	const table = "CREATE TABLE t (mentioned text, time timeuuid, tweet_id timeuuid, author text, body text, "
	_, _, model := grade("CREATE TABLE x (mentioned text, time timeuuid, tweet_id timeuuid, author text, body text, PRIMARY KEY (author, time)); SELECT * FROM x")
	for _, tc := range []struct {
		answer string
		ok     bool
		says   string
	}{
		{model, true, "one-partition on 1 of 3"},
		{table + "PRIMARY KEY (author, time)); SELECT * FROM t WHERE mentioned = ?", false, "needed ALLOW FILTERING"},
		{table + "PRIMARY KEY (mentioned, time)) WITH CLUSTERING ORDER BY (time DESC); SELECT * FROM t", false, "read every partition"},
		{table + "PRIMARY KEY (mentioned, time)); SELECT * FROM t WHERE mentioned = ?", false, "order asked (newest first)"},
	} {
		if ok, why, _ := grade(tc.answer); ok != tc.ok || !strings.Contains(why, tc.says) {
			t.Errorf("%q: %v, %q; want %v saying %q", tc.answer, ok, why, tc.ok, tc.says)
		}
	}
	pub := designExercise(t, st, true, "public")
	if ok, why, _ := pub("CREATE TABLE t (line text, day date, time timeuuid, author text, body text, PRIMARY KEY (line, time)) WITH CLUSTERING ORDER BY (time DESC); SELECT * FROM t WHERE line = ? ORDER BY time DESC"); ok || !strings.Contains(why, "without bound") {
		t.Errorf("one public partition: %v, %q", ok, why)
	}
}
