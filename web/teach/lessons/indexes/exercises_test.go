package indexes

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/models"
)

func handlerOn(d frame.Deps) *handler {
	return &handler{Handler: labs.New(&models.Handler{Base: &frame.Base{Deps: d}}), gate: frame.NewGate("index lookup", labs.DefaultGates().Runs)}
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

// g0 is e's model answer now.
func g0(t *testing.T, e frame.Exercise) string {
	t.Helper()
	return grade(t, e, "none").Model
}

func find(ex []frame.Exercise, id string) frame.Exercise {
	for _, e := range ex {
		if e.ID == id {
			return e
		}
	}
	return frame.Exercise{}
}

// fakeLab answers a run made of the traces a test sets: the graders read the right answer from
// them, so changing them changes it.
type fakeLab struct{ run teaching.IndexRun }

func (f *fakeLab) FindUser(context.Context, string, string) (teaching.IndexRun, error) {
	return f.run, nil
}

func traced(cql string, rows int, events ...string) teaching.TracedStatement {
	return teaching.TracedStatement{CQL: cql, Rows: rows, Events: events, Sources: []string{"127.0.0.1"}, Took: time.Millisecond}
}

func fakeRun() teaching.IndexRun {
	plain := traced("INSERT", -1, "127.0.0.1: Appending to commitlog")
	one := traced("SELECT id, username FROM t WHERE username = 'ann~x'", 1, "127.0.0.1: Executing single-partition query on t")
	ranges := traced("SELECT id, username FROM t WHERE username = 'ann~x'", 1, "127.0.0.1: Submitting range requests on 2 ranges with a concurrency of 1")
	return teaching.IndexRun{Nodes: 1, Ways: []teaching.WayRun{
		{Way: teaching.WayTable, Write: []teaching.TracedStatement{plain, plain}, Read: []teaching.TracedStatement{one, one}, Found: 1},
		{Way: teaching.Way2i, Write: []teaching.TracedStatement{traced("INSERT", -1, "127.0.0.1: Adding to t.t_username memtable")}, Read: []teaching.TracedStatement{ranges}, Found: 1},
		{Way: teaching.WayView, Write: []teaching.TracedStatement{traced("INSERT", -1, "127.0.0.1: Read 0 live rows and 0 tombstone cells")}, Read: []teaching.TracedStatement{one}, Found: 1},
		{Way: teaching.WaySAI, Write: []teaching.TracedStatement{plain}, Read: []teaching.TracedStatement{ranges}, Found: 1,
			Cannot: []teaching.TracedStatement{
				{CQL: "SELECT id FROM t WHERE username IN ('a', 'b')", Rows: -1, Error: "Cannot execute this query ... ALLOW FILTERING"},
				{CQL: "SELECT id FROM t WHERE username > 'a'", Rows: -1, Error: "Cannot execute this query ... ALLOW FILTERING"},
				{CQL: "SELECT id FROM t WHERE username LIKE 'a%'", Rows: -1, Error: "LIKE restriction is only supported on properly indexed columns"}}},
	}}
}

// The node's exercises take their right answer from the run's traces and refusals: change
// them, and the right answer changes with them.
func TestNodeExercisesFollowTheTraces(t *testing.T) {
	lab := &fakeLab{run: fakeRun()}
	h := handlerOn(frame.Deps{Backend: "cql3", IndexLab: lab})
	ex := exercises(h)
	if len(ex) != 3 || ex[0].Gate == nil {
		t.Fatalf("%+v", ex)
	}
	ranges, first, ops := find(ex, idRanges), find(ex, idReadFirst), find(ex, idOperators)
	if g := grade(t, ranges, "sai, 2i"); !g.Correct || g.Model != "2i, sai" {
		t.Errorf("ranges: %+v", g)
	}
	if g := grade(t, first, "mv"); !g.Correct {
		t.Errorf("read first: %+v", g)
	}
	if g := grade(t, ops, "="); !g.Correct {
		t.Errorf("operators: %+v", g)
	}
	// A view the node refused writes nothing; a SAI that answered a range is a range more; a
	// 2i read of one partition is no range read.
	lab.run.Ways[2] = teaching.WayRun{Way: teaching.WayView, Refused: "Materialized views are disabled. Enable in cassandra.yaml to use."}
	lab.run.Ways[3].Cannot[1].Error = ""
	lab.run.Ways[1].Read = lab.run.Ways[0].Read
	if g := grade(t, first, "mv"); g.Correct || g.Model != "none" {
		t.Errorf("read first without a view: %+v", g)
	}
	if g := grade(t, ops, "="); g.Correct || g.Model != "=, >" {
		t.Errorf("operators with a range: %+v", g)
	}
	if g := grade(t, ranges, "2i, sai"); g.Correct || g.Model != "sai" {
		t.Errorf("ranges with a 2i of one partition: %+v", g)
	}
	// An answer that names no way (or no operator) is graded, wrong, and says so; an empty one
	// is refused before anything runs.
	for _, e := range ex {
		junk := "btree"
		if m := g0(t, e); m != "none" {
			junk += ", " + m
		}
		if g := grade(t, e, junk); g.Correct || !strings.Contains(strings.ToLower(g.Explanation), "btree: not one of") {
			t.Errorf("%s: junk: %+v", e.ID, g)
		}
		if _, err := e.GradeAnswer(context.Background(), " "); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%s: an empty answer: %v", e.ID, err)
		}
	}
}

// On widerow the lookup by name reads Username alone while nobody has the name, then Username
// and User once someone signed up: the engine's reads say which.
func TestWiderowLookupExercise(t *testing.T) {
	st := webkit.WiderowStores(t)
	h := handlerOn(frame.Deps{Backend: "widerow", Wide: st.Wide})
	ex := exercises(h)
	if len(ex) != 1 || ex[0].ID != idWide {
		t.Fatalf("%+v", ex)
	}
	if g := grade(t, ex[0], "Username, User"); g.Correct || g.Model != "Username" {
		t.Errorf("empty store: %+v", g)
	}
	if err := st.Users.CreateUser(context.Background(), domain.User{ID: uuid.New(), Username: "ann", PasswordHash: []byte("h"), CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if g := grade(t, ex[0], "User"); g.Correct || g.Model != "Username, User" {
		t.Errorf("after a sign-up: %+v", g)
	}
	if g := grade(t, ex[0], "username, user"); !g.Correct {
		t.Errorf("the model, in lower case: %+v", g)
	}
}

// An index table the trace writes twice (the node notes it per mutation) is named once.
func TestIndexWritesOnce(t *testing.T) {
	w := traced("INSERT", -1, "127.0.0.1: Adding to t memtable", "127.0.0.1: Adding to t.t_name memtable", "127.0.0.1: Adding to t.t_name memtable")
	if got := indexWrites(w); len(got) != 1 || got[0] != "t.t_name" {
		t.Errorf("index writes: %v", got)
	}
}
