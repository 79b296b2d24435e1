package course

import (
	"slices"
	"strings"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// A learner's progress through the course: the lessons visited and the exercises passed. A
// signed-in learner's is kept in the store (Deps.Progress, teaching.ProgressStore), so that it
// survives a restart and follows the learner from server to server; an anonymous learner's, or
// everyone's on a server that keeps none, in the session. The session also remembers what it
// recorded for whom, so that a lesson visited again costs the store nothing.

// The session's keys of the progress, each followed by ":" and the signed-in user ("" for none):
// the items, separated by spaces (slugs and ids have none).
const (
	keyVisited = "learn.visited"
	keyPassed  = "learn.passed"
)

func sessionList(c *gin.Context, key string) []string {
	v, _ := sessions.Default(c).Get(key + ":" + site.User(c)).(string)
	return strings.Fields(v)
}

// progressOf is what the learner of c has done.
func (h *handler) progressOf(c *gin.Context) (teaching.Progress, error) {
	if me := site.User(c); me != "" && h.Deps.Progress != nil {
		return h.Deps.Progress.Progress(c.Request.Context(), me)
	}
	return teaching.Progress{Visited: sessionList(c, keyVisited), Passed: sessionList(c, keyPassed)}, nil
}

// note records item (a lesson's slug under keyVisited, an exercise's id under keyPassed) in the
// progress of the learner of c: in the store for a signed-in learner, the first time this
// session sees it, and in the session; and, for a signed-in learner, as their last action in
// the instructor's roster (Deps.Classes).
func (h *handler) note(c *gin.Context, key, item string) error {
	l := sessionList(c, key)
	if slices.Contains(l, item) {
		return nil
	}
	me := site.User(c)
	if me != "" && h.Deps.Progress != nil {
		record := h.Deps.Progress.RecordVisit
		if key == keyPassed {
			record = h.Deps.Progress.RecordPass
		}
		if err := record(c.Request.Context(), me, item); err != nil {
			return err
		}
	}
	sessions.Default(c).Set(key+":"+me, strings.Join(append(l, item), " "))
	if me != "" && h.Deps.Classes != nil {
		kind := "lesson "
		if key == keyPassed {
			kind = "exercise "
		}
		return h.Deps.Classes.Touch(c.Request.Context(), "user:"+me, kind+item)
	}
	return nil
}

// passedIn is how many of l's exercises p passed.
func passedIn(l frame.Lesson, p teaching.Progress) int {
	n := 0
	for _, e := range l.Exercises {
		if slices.Contains(p.Passed, e.ID) {
			n++
		}
	}
	return n
}

// passedOf is how many of the course's exercises p passed; exerciseCount how many it has.
func passedOf(ls []frame.Lesson, p teaching.Progress) int {
	n := 0
	for _, l := range ls {
		n += passedIn(l, p)
	}
	return n
}

func exerciseCount(ls []frame.Lesson) int {
	n := 0
	for _, l := range ls {
		n += len(l.Exercises)
	}
	return n
}

// visitedOf is how many of the course's lessons p visited.
func visitedOf(ls []frame.Lesson, p teaching.Progress) int {
	n := 0
	for _, l := range ls {
		if slices.Contains(p.Visited, l.Slug) {
			n++
		}
	}
	return n
}

// unfinished are the lessons of ls that p has not visited or whose exercises it has not all
// passed, in the course's order.
func unfinished(ls []frame.Lesson, p teaching.Progress) []frame.Lesson {
	var out []frame.Lesson
	for _, l := range ls {
		if !slices.Contains(p.Visited, l.Slug) || passedIn(l, p) < len(l.Exercises) {
			out = append(out, l)
		}
	}
	return out
}
