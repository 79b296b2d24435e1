package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"twissandra/domain"
)

const instructorSecret = "instructor-secret-of-the-walk"

// fakeClass is a class of two learners, whose accounts are made as asked.
type fakeClass struct{ resets int }

func (f *fakeClass) Roster(_ context.Context, class string) (ClassRoster, error) {
	if strings.Contains(class, "-") {
		return ClassRoster{}, domain.Invalid("class", "must be 1 to 16 ASCII letters, digits or underscores")
	}
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	return ClassRoster{Class: class, Lessons: 20, Exercises: 34, Learners: []ClassLearner{
		{Username: class + "_001", LessonsVisited: 1, Visited: []string{"primer"}, Passed: []string{}, LastAction: "lesson primer", LastAt: &at},
		{Username: class + "_002", Visited: []string{}, Passed: []string{}},
	}}, nil
}

func (f *fakeClass) MakeAccounts(_ context.Context, class string, n int) (ClassAccounts, error) {
	if n < 1 {
		return ClassAccounts{}, domain.Invalid("n", "must be 1 to 100 accounts a call")
	}
	out := ClassAccounts{Class: class}
	for range n {
		out.Accounts = append(out.Accounts, ClassAccount{Username: class + "_x", Password: "pw"})
	}
	return out, nil
}

func (f *fakeClass) Reset(_ context.Context, class string) (ClassReset, error) {
	f.resets++
	return ClassReset{Class: class, Learners: 2, Left: []string{"the accounts"}}, nil
}

// The class's routes answer only the instructor's token: none, a wrong one (a 401 that
// counts), past the limit a 429 for the right one too; a server without a token says how to
// set one; and nothing reaches the class without the token.
func TestClassRoutesWantTheInstructorsToken(t *testing.T) {
	e := newBlogEnv(t)
	get := func(path, bearer string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, path, nil)
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		rec := httptest.NewRecorder()
		e.srv.Engine.ServeHTTP(rec, req)
		return rec
	}
	fc := &fakeClass{}
	e.srv.ServeClass(fc, "")
	if rec := get("/api/v1/class/c/reset", instructorSecret); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "--instructor-token") {
		t.Fatalf("no token set: %d %s", rec.Code, rec.Body)
	}
	e.srv.ServeClass(fc, instructorSecret)
	if rec := get("/api/v1/class/c/reset", ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("no bearer: %d %s", rec.Code, rec.Body)
	}
	for i := range InstructorLimits.PerAddress {
		if rec := get("/api/v1/class/c/reset", "wrong"); rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), "wrong instructor token") {
			t.Fatalf("wrong try %d: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	if rec := get("/api/v1/class/c/reset", instructorSecret); rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("the right token past the limit: %d %s", rec.Code, rec.Body)
	}
	if fc.resets != 0 {
		t.Fatalf("%d resets reached the class without the token", fc.resets)
	}
}

// A right token does not count: any number of calls with it pass.
func TestRightInstructorTokenNeverCounts(t *testing.T) {
	e := newBlogEnv(t)
	fc := &fakeClass{}
	e.srv.ServeClass(fc, instructorSecret)
	for i := range 3 * InstructorLimits.PerAddress {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/class/c/reset", nil)
		req.Header.Set("Authorization", "Bearer "+instructorSecret)
		rec := httptest.NewRecorder()
		e.srv.Engine.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("call %d with the right token: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/api/v1/class/c/reset", nil)
	req.Header.Set("Authorization", "bearer "+instructorSecret) // the scheme is case-insensitive (RFC 9110)
	rec := httptest.NewRecorder()
	e.srv.Engine.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("a lower-case scheme: %d %s", rec.Code, rec.Body)
	}
	if fc.resets != 3*InstructorLimits.PerAddress+1 {
		t.Fatalf("%d resets", fc.resets)
	}
}
