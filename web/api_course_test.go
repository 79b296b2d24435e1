package web

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/web/openapi"
)

// fakeCourse is a course of one exercise, "ex-1", whose right answer is "42"; it keeps who
// answered it right.
type fakeCourse struct{ passed map[string][]string }

func (f *fakeCourse) Lessons() []CourseLesson {
	return []CourseLesson{{Number: 1, Slug: "one", Title: "One", Topics: []string{"t"}, URL: "/learn/one",
		Exercises: []CourseExercise{{ID: "ex-1", Kind: "predict", Prompt: "Six times seven?"}}}}
}

func (f *fakeCourse) Answer(_ *gin.Context, user, id, answer string) (CourseGrade, bool, error) {
	if id != "ex-1" {
		return CourseGrade{}, false, nil
	}
	if answer == "junk" {
		return CourseGrade{}, true, domain.Invalid("answer", "is junk")
	}
	g := CourseGrade{Verdict: "incorrect", Explanation: "6 × 7", ModelAnswer: "42"}
	if answer == "42" {
		g.Verdict = "correct"
		if user != "" {
			f.passed[user] = append(f.passed[user], id)
		}
	}
	return g, true, nil
}

func (f *fakeCourse) Session(c *gin.Context) { c.Next() }

func (f *fakeCourse) Progress(_ context.Context, user string) (CourseProgress, error) {
	return CourseProgress{Visited: []string{}, Passed: append([]string{}, f.passed[user]...)}, nil
}

// The course's routes read the answer's JSON (a string, a number, a list), refuse what is none
// with a 400, record a pass for the token's learner only, and answer 404 on a server that
// serves no course.
func TestCourseRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rec := e.do(http.MethodGet, "/api/v1/course", "", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("no course: %d %s", rec.Code, rec.Body)
	}
	f := &fakeCourse{passed: map[string][]string{}}
	e.srv.ServeCourse(f)
	tok := e.user("jericevans")
	for body, want := range map[string]string{`{"answer":"42"}`: "correct", `{"answer":42}`: "correct", `{"answer":["4","2"]}`: "incorrect", `{"answer":" 41"}`: "incorrect"} {
		rec := e.do(http.MethodPost, "/api/v1/exercises/ex-1/answers", body, "")
		var g CourseGrade
		if err := json.Unmarshal(rec.Body.Bytes(), &g); rec.Code != http.StatusOK || err != nil || g.Verdict != want || g.ModelAnswer != "42" {
			t.Errorf("%s: %d %s", body, rec.Code, rec.Body)
		}
	}
	for body, want := range map[string]int{`{"answer":"junk"}`: 400, `{"answer":{"a":1}}`: 400, `{"answer":null}`: 400, `{}`: 400, `{"answer":true}`: 400} {
		if rec := e.do(http.MethodPost, "/api/v1/exercises/ex-1/answers", body, ""); rec.Code != want {
			t.Errorf("%s: %d %s", body, rec.Code, rec.Body)
		}
	}
	if rec := e.do(http.MethodPost, "/api/v1/exercises/ex-2/answers", `{"answer":"42"}`, ""); rec.Code != http.StatusNotFound {
		t.Errorf("unknown exercise: %d", rec.Code)
	}
	if rec := e.do(http.MethodPost, "/api/v1/exercises/ex-1/answers", `{"answer":"42"}`, "not-a-token"); rec.Code != http.StatusUnauthorized {
		t.Errorf("a bad token: %d", rec.Code)
	}
	if len(f.passed) != 0 {
		t.Fatalf("anonymous passes recorded: %v", f.passed)
	}
	e.do(http.MethodPost, "/api/v1/exercises/ex-1/answers", `{"answer":"42"}`, tok)
	rec := e.do(http.MethodGet, "/api/v1/course/progress", "", tok)
	var p CourseProgress
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil || p.Username != "jericevans" || len(p.Passed) != 1 || p.Passed[0] != "ex-1" {
		t.Errorf("progress: %d %s", rec.Code, rec.Body)
	}
}

// The OpenAPI document says of answerExercise what the route does: the bearer token is
// optional (an answer without one is graded, one with a token that is not valid is a 401), and
// the grade comes with the grading's operations in Storage-Ops.
func TestAnswerExerciseAsDocumented(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]struct {
			Security  []map[string][]string
			Responses map[string]struct{ Headers map[string]any }
		}
	}
	if err := json.Unmarshal(openapi.Document, &doc); err != nil {
		t.Fatal(err)
	}
	op := doc.Paths["/api/v1/exercises/{id}/answers"]["post"]
	anonymous, bearer := false, false
	for _, s := range op.Security {
		_, b := s["bearer"]
		anonymous, bearer = anonymous || len(s) == 0, bearer || b
	}
	if !anonymous || !bearer {
		t.Errorf("answerExercise's security %v: want the bearer optional", op.Security)
	}
	if _, ok := op.Responses["200"].Headers[StorageOpsHeader]; !ok {
		t.Errorf("answerExercise's 200 documents no %s header", StorageOpsHeader)
	}

	e := newEnv(t)
	e.srv.ServeCourse(&fakeCourse{passed: map[string][]string{}})
	rec := e.do(http.MethodPost, "/api/v1/exercises/ex-1/answers", `{"answer":"42"}`, "")
	if rec.Code != http.StatusOK || rec.Header().Get(StorageOpsHeader) == "" {
		t.Errorf("without a token: %d, %s %q", rec.Code, StorageOpsHeader, rec.Header().Get(StorageOpsHeader))
	}
	if rec := e.do(http.MethodPost, "/api/v1/exercises/ex-1/answers", `{"answer":"42"}`, "not-a-token"); rec.Code != http.StatusUnauthorized {
		t.Errorf("with a token that is not valid: %d %s", rec.Code, rec.Body)
	}
}
