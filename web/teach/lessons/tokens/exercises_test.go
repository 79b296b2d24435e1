package tokens

import (
	"context"
	"crypto/md5"
	"math/big"
	"strconv"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// The replicas' right answer is where the store's simulated ring places the key: another key
// or another replication factor, another answer. A store without a ring asks nothing.
func TestReplicasExerciseIsGradedByTheRing(t *testing.T) {
	ring := webkit.WiderowStores(t).Ring
	ctx := context.Background()
	q := replicasQuestions[0]
	g, err := q.exercise(ring).GradeAnswer(ctx, "node 1")
	if err != nil {
		t.Fatal(err)
	}
	kr, err := ring.PlaceKey(ctx, q.key, q.sim)
	if err != nil || len(kr.Replicas) != 2 {
		t.Fatalf("%+v %v", kr, err)
	}
	if g.Correct && g.Model != "node 1" {
		t.Errorf("a wrong node graded correct: %+v", g)
	}
	if g2, _ := q.exercise(ring).GradeAnswer(ctx, g.Model); !g2.Correct {
		t.Errorf("the model answer %q graded incorrect", g.Model)
	}
	models := map[string]bool{g.Model: true}
	for _, key := range []string{"ericflo", "a", "b", "c", "d"} {
		q.key = key
		g, err := q.exercise(ring).GradeAnswer(ctx, "node 1, node 2")
		if err != nil {
			t.Fatal(err)
		}
		models[g.Model] = true
	}
	if len(models) < 2 {
		t.Errorf("six keys, one placement: %v", models)
	}
	q.sim.RF = 3
	if g, _ := q.exercise(ring).GradeAnswer(ctx, "1"); len(frame.AnswerNames(g.Model)) != 3 {
		t.Errorf("RF 3: %q", g.Model)
	}
	if ex := exercises(webkit.MemoryStores().Ring, nil); len(ex) != 0 {
		t.Errorf("a store without a ring asks %d", len(ex))
	}
}

// Which key lies first is the smallest token the backend's partitioner gives: other keys,
// another answer; Murmur3 on the node orders the keys its own way. Memory has no ring to ask.
func TestFirstKeyExerciseIsGradedByTheRing(t *testing.T) {
	ctx := context.Background()
	first := func(ring teaching.Ring, q firstQuestion) string {
		t.Helper()
		g, err := q.exercise(ring).GradeAnswer(ctx, q.keys[0])
		if err != nil {
			t.Fatal(err)
		}
		if g2, _ := q.exercise(ring).GradeAnswer(ctx, g.Model); !g2.Correct {
			t.Errorf("the model answer %q graded incorrect", g.Model)
		}
		return g.Model
	}
	ring := webkit.WiderowStores(t).Ring
	q := firstQuestions[0]
	got := first(ring, q)
	lowest := func(keys []string) string {
		t.Helper()
		var best *big.Int
		var key string
		for _, k := range keys {
			sum := md5.Sum([]byte(k)) // RandomPartitioner: the MD5 of the key, as a signed integer, made positive
			tok := new(big.Int).SetBytes(sum[:])
			if sum[0]&0x80 != 0 { // negative in two's complement: its absolute value is 2^128 - tok
				tok.Sub(new(big.Int).Lsh(big.NewInt(1), 128), tok)
			}
			if best == nil || tok.Cmp(best) < 0 {
				best, key = tok, k
			}
		}
		return key
	}
	if want := lowest(q.keys); got != want {
		t.Errorf("widerow: %s first, MD5 says %s", got, want)
	}
	answers := map[string]bool{got: true}
	for _, keys := range [][]string{{"a", "b", "c"}, {"x", "y", "z"}, {"ericflo", "carol", "dave"}} {
		q.keys = keys
		got := first(ring, q)
		if want := lowest(keys); got != want {
			t.Errorf("widerow %v: %s first, MD5 says %s", keys, got, want)
		}
		answers[got] = true
	}
	if len(answers) < 2 {
		t.Errorf("four sets of keys, one answer: %v", answers)
	}
	if _, err := firstQuestions[0].exercise(ring).GradeAnswer(ctx, "zed"); err == nil {
		t.Error("an answer that is no choice was graded")
	}
	if ex := exercises(ring, nil); len(ex) != 2 {
		t.Errorf("widerow asks %d", len(ex))
	}
}

// On the node, Murmur3's tokens order the keys, and the replicas' question is left out.
func TestFirstKeyExerciseOnTheNode(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	ex := exercises(st.Ring, nil)
	if len(ex) != 1 || ex[0].ID != "tokens-2" {
		t.Fatalf("cql3 asks %v", ex)
	}
	q := firstQuestions[0]
	g, err := q.exercise(st.Ring).GradeAnswer(context.Background(), q.keys[0])
	if err != nil {
		t.Fatal(err)
	}
	// The node's tokens of the keys, as the users table's partition key (text) hashes them.
	keys := make([][]string, len(q.keys))
	for i, k := range q.keys {
		keys[i] = []string{k}
	}
	toks, err := st.Ring.Tokens(context.Background(), "users", keys)
	if err != nil {
		t.Fatal(err)
	}
	best, min := "", int64(0)
	for i, tok := range toks {
		n, err := strconv.ParseInt(tok, 10, 64)
		if err != nil {
			t.Fatalf("token %q of %s: %v", tok, q.keys[i], err)
		}
		if best == "" || n < min {
			best, min = q.keys[i], n
		}
	}
	if g.Model != best {
		t.Errorf("cql3: %s first, the users table's tokens say %s (%v)", g.Model, best, toks)
	}
}
