package twissandra

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"golang.org/x/crypto/bcrypt"

	wideteach "twissandra/adapters/widerow/teach"
	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// The fan-out's right answer is where the running store holds the newest tweet: a follower
// more when it was posted, a row more; on memory and on widerow.
func TestFanoutExerciseIsGradedByTheStore(t *testing.T) {
	for name, st := range map[string]webkit.Stores{"memory": webkit.MemoryStores(), "widerow": webkit.WiderowStores(t)} {
		t.Run(name, func(t *testing.T) { testFanoutExercise(t, name, st) })
	}
}

// On cql3, a partition of each table the post wrote, on the real node.
func TestFanoutExerciseIsGradedByTheNode(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	testFanoutExercise(t, "cql3", st)
}

func testFanoutExercise(t *testing.T, name string, st webkit.Stores) {
	ctx := context.Background()
	svc := social.New(st.Users, st.Tweets, st.Lines, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	ex := exercises(svc, st.Locator, nil, nil)[0]
	if _, err := ex.GradeAnswer(ctx, "4"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("%s: no tweet yet: %v", name, err)
	}
	for _, u := range []string{"ann", "bob", "carol"} {
		if _, err := svc.SignUp(ctx, u, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	model := func() int {
		t.Helper()
		if _, err := svc.Post(ctx, "ann", "hello"); err != nil {
			t.Fatal(err)
		}
		g, err := ex.GradeAnswer(ctx, "0")
		if err != nil {
			t.Fatal(err)
		}
		n, _ := strconv.Atoi(g.Model)
		if g2, _ := ex.GradeAnswer(ctx, g.Model); !g2.Correct {
			t.Errorf("%s: the model %q graded incorrect", name, g.Model)
		}
		return n
	}
	none := model()
	if err := svc.Follow(ctx, "bob", "ann"); err != nil {
		t.Fatal(err)
	}
	one := model()
	if err := svc.Follow(ctx, "carol", "ann"); err != nil {
		t.Fatal(err)
	}
	two := model()
	t.Logf("%s: rows for 0, 1 and 2 followers: %d, %d, %d", name, none, one, two)
	if none < 3 || one != none+1 || two != one+1 {
		t.Errorf("%s: rows for 0, 1 and 2 followers: %d, %d, %d", name, none, one, two)
	}
	if _, err := ex.GradeAnswer(ctx, "many"); err == nil {
		t.Errorf("%s: a count that is no number was graded", name)
	}
}

// openScratch opens the sandbox's scratch node as the server does.
func openScratch() (frame.Scratch, error) {
	s, err := wideteach.OpenScratch()
	if err != nil {
		return frame.Scratch{}, err
	}
	return frame.Scratch{Users: s.Store, Tweets: s.Store, Lines: s.Store, Rows: s.Inspector, Close: s.Close}, nil
}

// The rows a pushed post writes are those the scratch node holds it in after the measured
// post: a follower more, a row more.
func TestPushExerciseIsGradedByTheScratchNode(t *testing.T) {
	ctx := context.Background()
	rows := map[int]int{}
	for _, followers := range []int{1, pushFollowers, 7} {
		ex := pushExercise(openScratch, followers)
		g, err := ex.GradeAnswer(ctx, "0")
		if err != nil {
			t.Fatal(err)
		}
		if g2, _ := ex.GradeAnswer(ctx, g.Model); !g2.Correct || g.Correct {
			t.Errorf("%d followers: the model %q graded %v, 0 graded %v", followers, g.Model, g2.Correct, g.Correct)
		}
		rows[followers], _ = strconv.Atoi(g.Model)
	}
	if rows[1] != 4 || rows[pushFollowers] != rows[1]+pushFollowers-1 || rows[7] != rows[1]+6 {
		t.Errorf("rows for 1, %d and 7 followers: %v", pushFollowers, rows)
	}
	if _, err := pushExercise(openScratch, 2).GradeAnswer(ctx, "six"); err == nil {
		t.Error("a count that is no number was graded")
	}
	if ex := exercises(nil, nil, openScratch, nil); len(ex) != 1 || ex[0].ID != "twissandra-2" {
		t.Errorf("a store without a locator, with a sandbox: %v", ex)
	}
}
