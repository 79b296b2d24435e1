package course

import (
	"encoding/json"
	"net/http"
	"slices"
	"unicode/utf8"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// The exercises' form: an answer is posted here, graded by the exercise's grader (the same the
// API calls, api.go), and the answer is a redirect back to the lesson (post, redirect, get),
// which shows the verdict and, in the footer, what the grading cost the store.

// keyAnswer is the session's key of the last answer's grade, shown once by its lesson.
const keyAnswer = "learn.answer"

// The session is a cookie: what it keeps of an answer is bounded, so that the cookie stays
// under the browsers' 4 KB.
const (
	maxShownAnswer      = 200
	maxShownExplanation = 1200
)

// clip is s cut to at most n bytes, on a rune boundary, marked with an ellipsis when cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// answered is the last answer's grade, as the session keeps it.
type answered struct {
	ID string
	frame.ExerciseResult
}

func (h *handler) registerExercises(g *gin.RouterGroup) {
	g.POST("learn/exercises/:id", h.answerForm)
}

// grade grades answer to ex for the learner of c, under the exercise's gate when it has one
// (a malformed answer is refused before it counts a run), and records a pass in the learner's
// progress (pass).
func (h *handler) grade(c *gin.Context, ex frame.Exercise, answer string, pass func() error) (frame.Grade, error) {
	answer, err := ex.CheckAnswer(answer)
	if err != nil {
		return frame.Grade{}, err
	}
	if ex.Gate != nil {
		leave, err := h.EnterFor(c, ex.Gate)
		if err != nil {
			return frame.Grade{}, err
		}
		defer leave()
	}
	g, err := ex.Grade(c.Request.Context(), answer)
	if err == nil && g.Correct {
		err = pass()
	}
	return g, err
}

// answerForm grades the form's answer and goes back to the exercise.
func (h *handler) answerForm(c *gin.Context) {
	l, ex, ok := frame.LessonExercise(h.lessons, c.Param("id"))
	if !ok {
		h.Site.ErrorPage(c, http.StatusNotFound, "No such exercise", "The course has no exercise “"+c.Param("id")+"”. The lessons are listed on /learn.")
		return
	}
	answer := c.PostForm("answer")
	r := answered{ID: ex.ID, ExerciseResult: frame.ExerciseResult{Answer: clip(answer, maxShownAnswer)}}
	g, err := h.grade(c, ex, answer, func() error { return h.note(c, keyPassed, ex.ID) })
	if err != nil {
		status, msg := site.ProblemMessage(err)
		if status >= http.StatusInternalServerError {
			h.Site.Fail(c, err)
			return
		}
		r.Error = "Your answer could not be graded: " + msg
	} else {
		r.Verdict, r.Explanation, r.Model = g.Verdict(), clip(g.Explanation, maxShownExplanation), clip(g.Model, maxShownAnswer)
	}
	if b, err := json.Marshal(r); err == nil {
		sessions.Default(c).Set(keyAnswer, string(b))
	}
	h.Site.Redirect(c, "/learn/"+l.Slug+"#ex-"+ex.ID, "your answer")
}

// exerciseViews are l's exercises as its page shows them: each passed or not, and the one just
// answered with its grade (taken from the session: shown once).
func exerciseViews(c *gin.Context, l frame.Lesson, passed []string) []frame.ExerciseView {
	if len(l.Exercises) == 0 {
		return nil
	}
	var last answered
	s := sessions.Default(c)
	if v, ok := s.Get(keyAnswer).(string); ok {
		s.Delete(keyAnswer)
		if json.Unmarshal([]byte(v), &last) != nil {
			last = answered{}
		}
	}
	vs := make([]frame.ExerciseView, len(l.Exercises))
	for i, ex := range l.Exercises {
		vs[i] = frame.ExerciseView{Ex: ex, Passed: slices.Contains(passed, ex.ID)}
		if last.ID == ex.ID {
			vs[i].Result = &last.ExerciseResult
		}
	}
	return vs
}
