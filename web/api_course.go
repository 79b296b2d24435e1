package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
)

// The course as an API, for instructors' tools (a class's dashboard, a learning platform) and
// for tests: the lessons in order with their exercises, an answer graded by the same grader as
// the lesson's form, and a signed-in learner's progress. The teaching room serves the course
// (ServeCourse); a server without it answers these routes with 404.

// Course is the course the teaching room serves.
type Course interface {
	// Lessons are the lessons in order, each with its exercises.
	Lessons() []CourseLesson
	// Answer grades answer to the exercise id, for user ("" for nobody signed in), and records a
	// pass in user's progress. found is false when no exercise has that id. A malformed answer is
	// a domain.ErrInvalid; a gate's refusal a *domain.RetryError.
	Answer(c *gin.Context, user, id, answer string) (g CourseGrade, found bool, err error)
	// Progress is what user has visited and passed.
	Progress(ctx context.Context, user string) (CourseProgress, error)
	// Session is middleware that opens the request's session cookie (the pages'), so that an
	// anonymous caller's answers are counted as its browser's, learner by learner, as the pages
	// count them (a class behind one address is not one learner), then calls c.Next().
	Session(c *gin.Context)
}

// CourseLesson is a lesson as GET /api/v1/course lists it.
type CourseLesson struct {
	Number    int              `json:"number"`
	Slug      string           `json:"slug"`
	Title     string           `json:"title"`
	Topics    []string         `json:"topics"`
	URL       string           `json:"url"`
	Exercises []CourseExercise `json:"exercises"`
}

// CourseExercise is an exercise as GET /api/v1/course lists it.
type CourseExercise struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"`
	Prompt    string   `json:"prompt"`
	Choices   []string `json:"choices,omitempty"`
	Format    string   `json:"format,omitempty"`
	Reasoning bool     `json:"reasoning_only"`
	// Check is the request of the lesson's page that runs what the grading runs, for a grading
	// that does more than reading the page does; absent otherwise.
	Check *CourseCheck `json:"check,omitempty"`
}

// CourseCheck is a request of a lesson's page that runs its live part: a GET of URL (its query
// included), or a POST of Form to URL (with the session's CSRF token, as the page's form sends
// it), answered by the page showing the run.
type CourseCheck struct {
	Method string            `json:"method"`
	URL    string            `json:"url"`
	Form   map[string]string `json:"form,omitempty"`
}

// CourseGrade is the grade of one answer.
type CourseGrade struct {
	Verdict     string `json:"verdict"`
	Explanation string `json:"explanation"`
	ModelAnswer string `json:"model_answer"`
}

// CourseProgress is what a learner has visited (lesson slugs) and passed (exercise ids).
type CourseProgress struct {
	Username string   `json:"username"`
	Visited  []string `json:"visited"`
	Passed   []string `json:"passed"`
}

// courseHolder is the course the teaching room installed, nil before.
type courseHolder struct{ atomic.Pointer[Course] }

// ServeCourse installs the course the /api/v1/course routes answer with.
func (s *Server) ServeCourse(c Course) { s.course.Store(&c) }

func (s *Server) courseOf(c *gin.Context) (Course, bool) {
	if p := s.course.Load(); p != nil {
		return *p, true
	}
	s.WriteError(c, clientError(domain.ErrNotFound, "this server serves no course"))
	return nil, false
}

func (s *Server) courseRoutes() {
	s.API.GET("/course", s.getCourse)
	s.API.GET("/course/progress", s.RequireAuth, s.getCourseProgress)
	s.API.POST("/exercises/:id/answers", s.courseSession, s.postAnswer)
}

// courseSession opens the pages' session cookie for an answer (Course.Session).
func (s *Server) courseSession(c *gin.Context) {
	course, ok := s.courseOf(c)
	if !ok {
		c.Abort()
		return
	}
	course.Session(c)
}

func (s *Server) getCourse(c *gin.Context) {
	course, ok := s.courseOf(c)
	if !ok {
		return
	}
	SetOpsHeader(c)
	c.JSON(http.StatusOK, gin.H{"lessons": course.Lessons()})
}

// answerRequest is an answer: a string, a number, or a list of strings (names in order).
type answerRequest struct {
	Answer json.RawMessage `json:"answer"`
}

// answerText reads the answer's JSON as the graders' text.
func answerText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", domain.Invalid("answer", "is required: a string, a number or a list of strings")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil && list != nil {
		if len(list) == 0 {
			return "none", nil
		}
		return strings.Join(list, ", "), nil
	}
	return "", domain.Invalid("answer", "is required: a string, a number or a list of strings")
}

func (s *Server) postAnswer(c *gin.Context) {
	course, ok := s.courseOf(c)
	if !ok {
		return
	}
	var req answerRequest
	if err := bindJSON(c, &req); err != nil {
		s.WriteError(c, err)
		return
	}
	answer, err := answerText(req.Answer)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	// A bearer token is optional: with one, a pass is recorded in its learner's progress.
	user := ""
	if c.GetHeader("Authorization") != "" {
		claims, err := s.authenticate(c)
		if err != nil {
			s.WriteError(c, err)
			return
		}
		user = claims.Username
	}
	g, found, err := course.Answer(c, user, c.Param("id"), answer)
	switch {
	case !found:
		err = clientError(domain.ErrNotFound, "no exercise %s", strconv.Quote(c.Param("id")))
	case err != nil:
	default:
		SetOpsHeader(c)
		c.JSON(http.StatusOK, g)
		return
	}
	s.WriteError(c, err)
}

func (s *Server) getCourseProgress(c *gin.Context) {
	course, ok := s.courseOf(c)
	if !ok {
		return
	}
	claims, _ := ClaimsFrom(c)
	p, err := course.Progress(c.Request.Context(), claims.Username)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	p.Username = claims.Username
	SetOpsHeader(c)
	c.JSON(http.StatusOK, p)
}
