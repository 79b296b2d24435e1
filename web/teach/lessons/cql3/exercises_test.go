package cql3

import (
	"context"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/models"
)

func lessonOn(st webkit.Stores, svc *social.Service) *handler {
	return &handler{labs.New(&models.Handler{Base: &frame.Base{Deps: frame.Deps{Backend: st.Backend, Social: svc, CQL: st.CQL, QueryLab: st.QueryLab}}})}
}

// The order question is on every backend, graded by the rows the lesson shows: a follower
// more, whose name sorts first, and the right answer changes. Without a node the lesson asks
// nothing of the query lab's node.
func TestCQL3OrderIsGradedOnEveryBackend(t *testing.T) {
	for _, st := range []webkit.Stores{webkit.MemoryStores(), webkit.WiderowStores(t)} {
		t.Run(st.Backend, func(t *testing.T) {
			svc := social.New(st.Users, st.Tweets, st.Lines, nil, domain.NewPasswordHasher(bcrypt.MinCost))
			ex := exercises(lessonOn(st, svc))
			if len(ex) != 1 || ex[0].ID != "cql3-1" {
				t.Fatalf("%+v", ex)
			}
			checkOrder(t, svc, ex[0])
		})
	}
}

// checkOrder has three users follow star, then a fourth whose name sorts first, and grades the
// order question's answers against the rows the lesson reads.
func checkOrder(t *testing.T, svc *social.Service, order frame.Exercise) {
	t.Helper()
	ctx := context.Background()
	grade := func(answer string) (bool, string) {
		t.Helper()
		g, err := order.GradeAnswer(ctx, answer)
		if err != nil {
			t.Fatal(err)
		}
		return g.Correct, g.Model
	}
	for _, u := range []string{"star", "zed", "Bob", "amy", "aaa"} {
		if _, err := svc.SignUp(ctx, u, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []string{"zed", "amy", "Bob"} {
		if err := svc.Follow(ctx, u, "star"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Post(ctx, "star", "hello"); err != nil {
		t.Fatal(err)
	}
	if ok, model := grade("zed, amy, Bob"); ok || model != "Bob, amy, zed" {
		t.Errorf("the order the follows came in graded %v, model %q", ok, model)
	}
	if err := svc.Follow(ctx, "aaa", "star"); err != nil {
		t.Fatal(err)
	}
	if ok, model := grade("Bob, amy, zed"); ok || model != "Bob, aaa, amy" {
		t.Errorf("after aaa follows: %v %q", ok, model)
	}
	if ok, _ := grade("Bob aaa amy"); !ok {
		t.Error("the store's order, space-separated, graded incorrect")
	}
}

// The order of a followers partition is the node's: a follower more, whose name sorts first,
// and the rows returned change; the partitions a scan reads are the node's count.
func TestCQL3ExercisesAreGradedByTheNode(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	svc := social.New(st.Users, st.Tweets, st.Lines, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	ex := exercises(lessonOn(st, svc))
	if len(ex) != 2 || ex[0].ID != "cql3-1" || ex[1].ID != "cql3-2" || ex[1].Gate == nil {
		t.Fatalf("%+v", ex)
	}
	checkOrder(t, svc, ex[0])
	grade := func(e frame.Exercise, answer string) (bool, string) {
		t.Helper()
		g, err := e.GradeAnswer(context.Background(), answer)
		if err != nil {
			t.Fatal(err)
		}
		return g.Correct, g.Model
	}
	ok, model := grade(ex[1], "1")
	if ok || model != "6" { // the lab's followers: 3, 2 and 1 of three users, each row its own partition
		t.Errorf("the scan: %v %q", ok, model)
	}
	was := scanKey
	defer func() { scanKey = was }()
	scanKey.Partition, scanKey.Clustering = []string{"username"}, nil
	if ok, model := grade(exercises(lessonOn(st, svc))[1], "6"); ok || model != "1" {
		t.Errorf("keyed by the user: %v %q", ok, model)
	}
}
