// Package consistency is lesson 15 of the course: consistency levels. The consistency lab
// (teaching.ConsistencyLab): a ring of three replicas of one row, each an engine node of the lab's,
// written at one level and read at another on a virtual clock, one step at a time with every
// message shown, then many trials of every pair of levels, counted and plotted. Its forms answer
// with a redirect back here, as the lab's do, through the lab's gate.
package consistency

//go:generate go tool templ generate -path .

import (
	"strconv"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Slug: "consistency", Title: "Consistency levels",
		Summary:   "Write at ONE, QUORUM or ALL to three replicas with delays you set, read at another level, stop a replica: see which replicas answered, whether the read was stale, and the stale-read rate of every pair of levels over many trials.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showConsistency(h, c) },
		Topics:    []string{"consistency levels", "replicas", "stale reads"},
		Exercises: exercises(h.Deps.Consistency, h.TrialsGate)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

var defaultRingForm = labs.RingForm{Delay: [3]string{"1", "2", "5"}, Value: "(900) 976-6666", Write: "ONE", Read: "ONE", Gap: "0", Trials: strconv.Itoa(teaching.MaxTrials)}

type consistencyData struct {
	Available bool
	Back      string
	Bounds    string
	Levels    []string
	Quorum    int
	N         int
	MaxTrials int
	Form      labs.RingForm
	Run       *labs.ConsistencyRun
	Error     string
	Trials    *labs.TrialsRun
	TrialsErr string
	// Cluster says whether the levels can be tried on the cql3 backend's cluster, and
	// Levels is the browser's last try.
	Cluster    bool
	Backend    string
	Compare    string // compare mode's second backend, whose cluster the levels are tried on; "" outside it
	Tried      *teaching.LevelTrial
	ClusterErr string
}

func showConsistency(h *handler, c *gin.Context) (templ.Component, error) {
	q, _ := teaching.BlockFor("QUORUM", teaching.RingReplicas)
	d := consistencyData{Available: h.Deps.Consistency != nil, Back: labs.ConsistencyBack, Bounds: "Steps: " + h.LabGate.Bounds() + " Runs of trials: " + h.TrialsGate.Bounds(), Levels: teaching.Levels,
		Quorum: q, N: teaching.RingReplicas, MaxTrials: teaching.MaxTrials, Form: defaultRingForm,
		Cluster: h.Deps.ClusterLevels != nil, Backend: h.Deps.Backend, Compare: h.Deps.CompareBackend}
	st := h.Recalled(c)
	// The two forms share the ring: the last one sent gives it, and each keeps its own fields
	// (the step's levels and value, the trials' count) from its own last run.
	step, trials := defaultRingForm, defaultRingForm
	if r := st.Consistency; r != nil {
		d.Run, step = r, r.Form
	}
	if r := st.Trials; r != nil {
		d.Trials, trials = r, r.Form
	}
	d.Form = step
	if st.Trials != nil && (st.Consistency == nil || st.TrialsLast) {
		d.Form = trials
	}
	d.Form.Value, d.Form.Write, d.Form.Read, d.Form.Trials = step.Value, step.Write, step.Read, trials.Trials
	d.Tried = st.Levels
	if r := st.Refusal("cluster"); r != nil {
		d.Tried, d.ClusterErr = nil, r.Msg
	}
	if r := st.Refusal("consistency"); r != nil {
		d.Form, d.Run, d.Error = labs.RingFormOf(r.Form), nil, r.Msg
		d.Form.Trials = trials.Trials
	}
	if r := st.Refusal("trials"); r != nil {
		d.Form, d.Trials, d.TrialsErr = labs.RingFormOf(r.Form), nil, r.Msg
		d.Form.Value, d.Form.Write, d.Form.Read = step.Value, step.Write, step.Read
	}
	return consistencyView(d), nil
}

// The trials' chart: one bar per pair of levels, grouped by the write's level, as tall as the
// pair's stale-read rate; a pair whose levels overlap (R + W > N) is marked, an unavailable
// one drawn as such. Its title is its accessible name; a table beside it gives the counts.

// The step's diagram: a lane for the coordinator and one per replica, time running right; each
// message a line from its lane at the time it left to its lane at the time it arrived, and the
// moments the write and the read answered the client as dashed lines. Its title is its
// accessible name; the list of messages beside it says the same in words.
