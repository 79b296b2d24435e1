package course

import (
	"context"
	"fmt"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/web"
	"twissandra/web/teach/frame"
)

// api is the course as the JSON API serves it (web.Course): the same lessons and the same
// graders as the pages.
type api struct{ h *handler }

// Lessons implements web.Course.
func (a api) Lessons() []web.CourseLesson {
	out := make([]web.CourseLesson, len(a.h.lessons))
	for i, l := range a.h.lessons {
		cl := web.CourseLesson{Number: l.N, Slug: l.Slug, Title: l.Title, Topics: l.Topics, URL: string(frame.LessonURL(l.Slug)),
			Exercises: make([]web.CourseExercise, len(l.Exercises))}
		if cl.Topics == nil {
			cl.Topics = []string{}
		}
		for j, e := range l.Exercises {
			cl.Exercises[j] = web.CourseExercise{ID: e.ID, Kind: string(e.Kind), Prompt: e.Prompt, Choices: e.Choices, Format: e.Format, Reasoning: e.Reasoning, Check: courseCheck(e.Check)}
		}
		out[i] = cl
	}
	return out
}

// Session implements web.Course.
func (a api) Session(c *gin.Context) { a.h.Site.Session(c) }

// Answer implements web.Course.
func (a api) Answer(c *gin.Context, user, id, answer string) (web.CourseGrade, bool, error) {
	_, ex, ok := frame.LessonExercise(a.h.lessons, id)
	if !ok {
		return web.CourseGrade{}, false, nil
	}
	if user != "" {
		frame.SetLearner(c, user)
	}
	g, err := a.h.grade(c, ex, answer, func() error {
		if user == "" || a.h.Deps.Progress == nil {
			return nil
		}
		if err := a.h.Deps.Progress.RecordPass(c.Request.Context(), user, ex.ID); err != nil || a.h.Deps.Classes == nil {
			return err
		}
		return a.h.Deps.Classes.Touch(c.Request.Context(), "user:"+user, "exercise "+ex.ID)
	})
	if user == "" {
		// An anonymous caller's gates counted its browser (frame.BrowserID, made at its first
		// answer): the cookie goes back with the answer.
		if serr := a.h.Site.SaveSession(c); serr != nil && err == nil {
			err = serr
		}
	}
	if err != nil {
		return web.CourseGrade{}, true, err
	}
	return web.CourseGrade{Verdict: g.Verdict(), Explanation: g.Explanation, ModelAnswer: g.Model}, true, nil
}

// errNoProgress is the answer of a server that keeps no learner's progress in its store.
var errNoProgress = fmt.Errorf("this server keeps no learner's progress in its store: %w", domain.ErrNotFound)

// Progress implements web.Course.
func (a api) Progress(ctx context.Context, user string) (web.CourseProgress, error) {
	if a.h.Deps.Progress == nil {
		return web.CourseProgress{}, errNoProgress
	}
	p, err := a.h.Deps.Progress.Progress(ctx, user)
	if err != nil {
		return web.CourseProgress{}, err
	}
	out := web.CourseProgress{Visited: p.Visited, Passed: p.Passed}
	if out.Visited == nil {
		out.Visited = []string{}
	}
	if out.Passed == nil {
		out.Passed = []string{}
	}
	return out, nil
}

// courseCheck is an exercise's check as the API lists it.
func courseCheck(ch *frame.Check) *web.CourseCheck {
	if ch == nil {
		return nil
	}
	out := &web.CourseCheck{Method: ch.Method, URL: ch.Path}
	if len(ch.Form) > 0 {
		out.Form = make(map[string]string, len(ch.Form))
		for k := range ch.Form {
			out.Form[k] = ch.Form.Get(k)
		}
	}
	return out
}
