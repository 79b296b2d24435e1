// Package time is lesson 3 of the course: timestamps and last write wins (the lab's run of two
// writes and a delete in both orders), then what a tombstone is for, when it may go (gc_grace), and
// the deleted column that comes back when a replica missed the delete for longer: two rows of the
// lab's scratch node standing for two replicas, on days the learner chooses.
package time

//go:generate go tool templ generate -path .

import (
	"strconv"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Consoles: []frame.ConsoleOffer{console},
		Slug: "time", Title: "Timestamps, last write wins, tombstones",
		Summary:   "Write one column twice and delete it with timestamps you choose, in both orders; then watch a replica that missed a delete bring the column back after gc_grace.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showTime(h, c) },
		Topics:    []string{"timestamps", "last write wins", "tombstones", "0.6"},
		Exercises: exercises(h.Deps.Lab, h.LabGate)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

type timeData struct {
	Lab      labs.LabData
	Replicas replicasData
}

type replicasData struct {
	Available bool
	Back      string
	Form      labs.ReplicasForm
	Presets   []replicasPreset
	Run       *labs.ReplicaRun
	Error     string
}

type replicasPreset struct {
	ID, Label string
	Form      labs.ReplicasForm
}

var defaultReplicas = labs.ReplicasForm{Value: "(900) 976-6666", Deleted: "1", Repaired: "5", Compacted: "12", Read: "13", Grace: strconv.Itoa(labs.DefaultGCGrace)}

func replicaPresets() []replicasPreset {
	within := defaultReplicas
	within.Compacted = "9"
	repaired := defaultReplicas
	repaired.Repair = true
	return []replicasPreset{
		{"replicas-late", "A compacts on day 12, after gc_grace; B was never repaired", defaultReplicas},
		{"replicas-within", "A compacts on day 9, within gc_grace", within},
		{"replicas-repaired", "nodetool repair on day 5, then A compacts on day 12", repaired},
	}
}

func showTime(h *handler, c *gin.Context) (templ.Component, error) {
	d := timeData{Lab: h.LabData(c, "/learn/time"),
		Replicas: replicasData{Available: h.Deps.Lab != nil, Back: "/learn/time", Form: defaultReplicas, Presets: replicaPresets()}}
	st := h.Recalled(c)
	if r := st.Replicas; r != nil {
		d.Replicas.Form, d.Replicas.Run = r.Form, r
	}
	if r := st.Refusal("replicas"); r != nil {
		d.Replicas.Form, d.Replicas.Run, d.Replicas.Error = labs.ReplicasFormOf(r.Form), nil, r.Msg
	}
	return timeView(d), nil
}

// console is the lesson's cassandra-cli console, ready to run: a column written twice, then deleted: the last write wins, and the tombstone hides it.
var console = frame.ConsoleOffer{Language: "cli", Statements: []string{
	"set Sandbox.UTF8s['clock']['status'] = 'first'",
	"set Sandbox.UTF8s['clock']['status'] = 'second'",
	"get Sandbox.UTF8s['clock']['status']",
	"del Sandbox.UTF8s['clock']['status']",
	"get Sandbox.UTF8s['clock']",
	"count Sandbox.UTF8s['clock']",
}}
