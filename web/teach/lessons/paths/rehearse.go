package paths

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// The rehearsal: steps of the learner's choosing on a fresh node of the engine of its own
// (StorageEngine.Rehearse), whose figures only those steps move, each step's figures shown; the
// exercises grade by the same rehearsal, and each names the form that runs its steps (its
// check), so that a learner can watch what the grading watched.

// rehearsal is a browser's last rehearsal: its form as sent, and the steps' runs.
type rehearsal struct {
	Steps, Days string
	Runs        []teaching.PathRun
}

// maxReceivedDays bounds how long ago a rehearsal's deletes were received.
const maxReceivedDays = 365

// The rehearsal form's defaults: an exercise's steps.
const (
	defaultRehearsal = "write flush flush"
	defaultDays      = "0"
)

// rehearsalSteps reads the form: steps, the actions' names separated by spaces or commas, and
// days, how many days before the steps the node received their deletes.
func rehearsalSteps(steps, days string) ([]teaching.PathStep, error) {
	d, err := strconv.Atoi(strings.TrimSpace(days))
	if err != nil || d < 0 || d > maxReceivedDays {
		return nil, domain.Invalid("days", "the days since the deletes were received are a whole number from 0 to %d, not %q", maxReceivedDays, days)
	}
	names := frame.AnswerNames(steps)
	if len(names) == 0 || len(names) > teaching.MaxPathSteps {
		return nil, domain.Invalid("steps", "a rehearsal takes 1 to %d steps, each one of %s", teaching.MaxPathSteps, actionNames())
	}
	out := make([]teaching.PathStep, len(names))
	for i, n := range names {
		a := teaching.PathAction(strings.ToLower(n))
		if !slices.Contains(teaching.PathActions, a) {
			return nil, domain.Invalid("steps", "%q is no step: each is one of %s", n, actionNames())
		}
		out[i] = teaching.PathStep{Action: a}
		if a == teaching.PathDelete {
			out[i].Received = time.Duration(d) * 24 * time.Hour
		}
	}
	return out, nil
}

func actionNames() string {
	names := make([]string, len(teaching.PathActions))
	for i, a := range teaching.PathActions {
		names[i] = string(a)
	}
	return strings.Join(names, ", ")
}

// rehearsalCheck is the form that rehearses steps, an exercise's check.
func rehearsalCheck(steps []teaching.PathStep) *frame.Check {
	names, days := make([]string, len(steps)), 0
	for i, s := range steps {
		names[i] = string(s.Action)
		if s.Action == teaching.PathDelete {
			days = int(s.Received / (24 * time.Hour))
		}
	}
	return frame.PostCheck("/learn/paths/rehearse", map[string][]string{"steps": {strings.Join(names, " ")}, "days": {strconv.Itoa(days)}})
}

// rehearse runs the form's steps on a fresh node and goes back to the lesson, which shows each
// step's figures; the footer shows what the steps cost.
func (h *handler) rehearse(c *gin.Context) {
	const back = "/learn/paths#rehearsal"
	if h.Deps.Storage == nil {
		h.Site.ErrorPage(c, http.StatusNotFound, "No storage engine", "This server's backend has no storage engine of its own to rehearse on: the lesson's rehearsals run on widerow.")
		return
	}
	r := rehearsal{Steps: c.PostForm("steps"), Days: c.PostForm("days")}
	steps, err := rehearsalSteps(r.Steps, r.Days)
	if err == nil {
		r.Runs, err = h.Deps.Storage.Rehearse(c.Request.Context(), steps)
	}
	if err != nil {
		h.Site.RefuseBack(c, err, back)
		return
	}
	h.rehearsals.Put(labs.LabSession(c, true), r)
	h.Site.Redirect(c, back, "your rehearsal")
}
