package labs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

func (h *Handler) registerConsistency(g *gin.RouterGroup) {
	g.POST("models/lab/consistency", h.Admit(h.LabGate), h.consistencyStep)
	g.POST("models/lab/consistency/trials", h.Admit(h.TrialsGate), h.consistencyTrials)
	g.POST("models/lab/consistency/cluster", h.Admit(h.LabGate), h.clusterLevels)
}

// RingForm is the lab's form as the learner typed it: delays in milliseconds.
type RingForm struct {
	Delay   [teaching.RingReplicas]string
	Stopped [teaching.RingReplicas]bool
	Value   string
	Write   string // "" for no write
	Read    string // "" for no read
	Gap     string
	Seed    string // "" draws one
	Trials  string
}

// millis reads a time in milliseconds (up to three decimals) as microseconds.
func millis(field, s string) (int64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || f < 0 || f*1000 > teaching.MaxRingDelay {
		return 0, domain.Invalid(field, "must be a number of milliseconds from 0 to %d, not %q", teaching.MaxRingDelay/1000, s)
	}
	return int64(math.Round(f * 1000)), nil
}

// level reads a level of the form: "" is none.
func level(field, s string) (string, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "" {
		return "", nil
	}
	if _, err := teaching.BlockFor(s, teaching.RingReplicas); err != nil {
		return "", domain.Invalid(field, "must be ONE, QUORUM or ALL, not %q", s)
	}
	return s, nil
}

// Step reads the form into a step of the lab; a blank seed is drawn.
func (f RingForm) Step() (teaching.ConsistencyStep, error) {
	s := teaching.ConsistencyStep{Value: f.Value}
	var err error
	for i, d := range f.Delay {
		if s.Ring.Delays[i], err = millis("replica "+teaching.ReplicaName(i)+"'s delay", d); err != nil {
			return s, err
		}
	}
	s.Ring.Stopped = f.Stopped
	if s.Write, err = level("the write", f.Write); err != nil {
		return s, err
	}
	if s.Read, err = level("the read", f.Read); err != nil {
		return s, err
	}
	if s.Gap, err = millis("the gap", f.Gap); err != nil {
		return s, err
	}
	if strings.TrimSpace(f.Seed) == "" {
		s.Seed = rand.Uint64() % 1_000_000
	} else if s.Seed, err = strconv.ParseUint(strings.TrimSpace(f.Seed), 10, 64); err != nil {
		return s, domain.Invalid("seed", "must be a whole number from 0, not %q", f.Seed)
	}
	return s, nil
}

// ConsistencyRun is the browser's last step.
type ConsistencyRun struct {
	Form    RingForm
	Run     teaching.ConsistencyRun
	Verdict string
	Rows    []replicaRow
	Chart   *StepChart
}

// replicaRow is one replica's line of a step's table.
type replicaRow struct {
	Name, Delay, Reply, Held string
	Stopped, Answered        bool
}

// TrialsRun is the browser's last run of trials.
type TrialsRun struct {
	Form  RingForm
	Run   teaching.TrialRun
	Chart TrialChart
}

type TrialChart struct {
	Title         string
	Width, Height int
	Base, Top     int // the y of the axis and of the highest rate
	Scale         string
	Bars          []trialBar
	Groups        []trialGroup
}

type trialBar struct {
	X, Y, W, H  int
	Label, Rate string
	Overlap     bool
	Unavailable bool
	LabelY      int
}

type trialGroup struct {
	X     int
	Label string
}

type StepChart struct {
	Title         string
	Width, Height int
	Lanes         []chartLane
	Arrows        []chartArrow
	Marks         []chartMark
}

type chartLane struct {
	Y     int
	Label string
}

type chartArrow struct {
	X1, Y1, X2, Y2 int
	Kind           string
}

type chartMark struct {
	X     int
	Label string
	Y     int
}

const ConsistencyBack = "/learn/consistency"

// ringFormFields are the form's field names.
var ringFormFields = []string{"delay_a", "delay_b", "delay_c", "stop_a", "stop_b", "stop_c", "value", "write", "read", "gap", "seed", "trials"}

func RingFormOf(m map[string]string) RingForm {
	return RingForm{Delay: [3]string{m["delay_a"], m["delay_b"], m["delay_c"]}, Stopped: [3]bool{m["stop_a"] != "", m["stop_b"] != "", m["stop_c"] != ""},
		Value: m["value"], Write: m["write"], Read: m["read"], Gap: m["gap"], Seed: m["seed"], Trials: m["trials"]}
}

// consistencyUnavailable answers a form of the lab when the server has none.
func (h *Handler) consistencyUnavailable(c *gin.Context) bool {
	if h.Deps.Consistency != nil {
		return false
	}
	h.Refuse(c, "consistency", "The consistency lab is not wired into this server.", PostForm(c, ringFormFields...))
	h.Site.Redirect(c, ConsistencyBack+"#consistency", "your step")
	return true
}

// consistencyStep plays one step of the form on the browser's ring.
func (h *Handler) consistencyStep(c *gin.Context) {
	if h.consistencyUnavailable(c) {
		return
	}
	form := PostForm(c, ringFormFields...)
	f := RingFormOf(form)
	s, err := f.Step()
	if err == nil {
		var run teaching.ConsistencyRun
		run, err = h.Deps.Consistency.Step(c.Request.Context(), LabSession(c, true), s)
		if err == nil {
			f.Seed = strconv.FormatUint(s.Seed, 10)
			r := &ConsistencyRun{Form: f, Run: run, Verdict: stepVerdict(run), Rows: replicaRows(run), Chart: newStepChart(run)}
			h.remember(c, func(st *labState) { st.Consistency, st.TrialsLast = r, false })
		}
	}
	h.labDone(c, "consistency", "consistency-run", "your step", err, form)
}

// consistencyTrials runs the trials of the form's ring.
func (h *Handler) consistencyTrials(c *gin.Context) {
	if h.consistencyUnavailable(c) {
		return
	}
	form := PostForm(c, ringFormFields...)
	f := RingFormOf(form)
	s, err := f.Step()
	var n int
	if err == nil {
		if n, err = strconv.Atoi(strings.TrimSpace(f.Trials)); err != nil {
			err = domain.Invalid("trials", "must be a whole number from 1 to %d, not %q", teaching.MaxTrials, f.Trials)
		}
	}
	if err == nil {
		var run teaching.TrialRun
		run, err = h.Deps.Consistency.Trials(c.Request.Context(), s.Ring, s.Gap, s.Seed, n)
		if err == nil {
			f.Seed = strconv.FormatUint(s.Seed, 10)
			r := &TrialsRun{Form: f, Run: run, Chart: newTrialChart(run)}
			h.remember(c, func(st *labState) { st.Trials, st.TrialsLast = r, true })
		}
	}
	h.labDone(c, "trials", "consistency-trials", "your trials", err, form)
}

// clusterLevels tries each level on the cql3 backend's cluster.
func (h *Handler) clusterLevels(c *gin.Context) {
	var err error
	if h.Deps.ClusterLevels == nil {
		err = domain.Invalid("", "this server does not run on a Cassandra cluster: start it with --backend cql3")
	} else {
		var got teaching.LevelTrial
		if got, err = h.Deps.ClusterLevels.TryLevels(c.Request.Context()); err == nil {
			h.remember(c, func(st *labState) { st.Levels = &got })
		}
	}
	h.labDone(c, "cluster", "consistency-cluster", "your try of the levels", err, nil)
}

// Ms writes virtual microseconds as milliseconds.
func Ms(us int64) string {
	return strconv.FormatFloat(float64(us)/1000, 'f', 3, 64) + " ms"
}

func replicaRows(run teaching.ConsistencyRun) []replicaRow {
	var rows []replicaRow
	for i := range teaching.RingReplicas {
		name := teaching.ReplicaName(i)
		r := replicaRow{Name: name, Delay: Ms(run.Step.Ring.Delays[i]), Stopped: run.Step.Ring.Stopped[i], Reply: "not asked"}
		if r.Stopped {
			r.Reply = "stopped"
		}
		for _, rep := range run.Replies {
			if rep.Replica != name {
				continue
			}
			r.Answered = rep.Answered
			r.Reply = "nothing"
			if rep.Found {
				r.Reply = strconv.Quote(rep.Value) + " @" + strconv.FormatInt(rep.TS, 10)
			}
			r.Reply += ", at " + Ms(rep.At)
			if !rep.Answered {
				r.Reply += " (after the answer)"
			}
		}
		if i < len(run.Held) {
			h := run.Held[i]
			r.Held = "nothing"
			if h.Found {
				r.Held = strconv.Quote(h.Value) + " @" + strconv.FormatInt(h.TS, 10)
			}
			if len(h.Hints) > 0 {
				r.Held += "; hints for " + strings.Join(h.Hints, ", ")
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// stepVerdict is the sentence that says what a step came to.
func stepVerdict(run teaching.ConsistencyRun) string {
	s := run.Step
	var parts []string
	switch {
	case s.Write == "":
	case run.WriteUnavailable != "":
		parts = append(parts, fmt.Sprintf("The write at %s failed: %s. Nothing was sent.", s.Write, run.WriteUnavailable))
	default:
		parts = append(parts, fmt.Sprintf("The write at %s answered at %s, acknowledged by %s.", s.Write, Ms(run.WriteAnswered), strings.Join(run.WriteAcks[:min(len(run.WriteAcks), blockFor(s.Write))], " and ")))
	}
	switch {
	case s.Read == "":
	case run.ReadUnavailable != "":
		parts = append(parts, fmt.Sprintf("The read at %s failed: %s.", s.Read, run.ReadUnavailable))
	default:
		got := "nothing"
		if run.ReadFound {
			got = fmt.Sprintf("%q (timestamp %d)", run.ReadValue, run.ReadTS)
		}
		verdict := "fresh"
		if run.Stale {
			verdict = fmt.Sprintf("STALE: the last acknowledged write had stored %q (timestamp %d)", run.Expected, run.ExpectedTS)
		} else if run.ExpectedTS != 0 {
			verdict = "fresh: the newest acknowledged write"
		}
		parts = append(parts, fmt.Sprintf("The read at %s, sent at %s, answered at %s with %s: %s.", s.Read, Ms(run.ReadAsked), Ms(run.ReadAnswered), got, verdict))
		if w, r := blockFor(s.Write), blockFor(s.Read); s.Write != "" && run.WriteUnavailable == "" {
			if w+r > teaching.RingReplicas {
				parts = append(parts, fmt.Sprintf("R + W = %d + %d > N = %d: the replicas the read waited for include one the write had reached, so it could not be stale.", r, w, teaching.RingReplicas))
			} else {
				parts = append(parts, fmt.Sprintf("R + W = %d + %d ≤ N = %d: the read may be answered only by replicas the write has not reached yet.", r, w, teaching.RingReplicas))
			}
		}
	}
	if len(run.Repaired) > 0 {
		parts = append(parts, "The read repair sent the newest version to "+strings.Join(run.Repaired, " and ")+".")
	}
	if len(run.Delivered) > 0 {
		parts = append(parts, "Hinted handoff replayed the row to "+strings.Join(run.Delivered, " and ")+", up again.")
	}
	if len(parts) == 0 {
		return "Nothing to do: choose a write, a read, or start a stopped replica."
	}
	return strings.Join(parts, " ")
}

func blockFor(level string) int {
	n, _ := teaching.BlockFor(level, teaching.RingReplicas)
	return n
}

func newTrialChart(run teaching.TrialRun) TrialChart {
	const (
		width, height = 480, 240
		left, base    = 40, 190
		top           = 40
		barW, gap     = 36, 6
		groupGap      = 24
	)
	highest := 0.0
	for _, p := range run.Pairs {
		highest = max(highest, p.StaleRate())
	}
	scale := highest
	if scale == 0 {
		scale = 0.01
	}
	ch := TrialChart{Title: fmt.Sprintf("Stale reads in %d trials of each pair of levels", run.Trials), Width: width, Height: height, Base: base, Top: top,
		Scale: fmt.Sprintf("%.2f%%", 100*scale)}
	x := left
	for i, p := range run.Pairs {
		if i%len(teaching.Levels) == 0 {
			if i > 0 {
				x += groupGap
			}
			ch.Groups = append(ch.Groups, trialGroup{X: x + (barW*3+gap*2)/2, Label: "W=" + p.Write})
		}
		h := int(math.Round(p.StaleRate() / scale * float64(base-top)))
		b := trialBar{X: x, W: barW, H: h, Y: base - h, Label: "R=" + p.Read, Overlap: p.Overlap, Unavailable: p.Unavailable == p.Trials}
		switch {
		case b.Unavailable:
			b.Rate = "n/a"
		default:
			b.Rate = fmt.Sprintf("%.2f%%", 100*p.StaleRate())
		}
		b.LabelY = b.Y - 4
		ch.Bars = append(ch.Bars, b)
		x += barW + gap
	}
	return ch
}

func newStepChart(run teaching.ConsistencyRun) *StepChart {
	if len(run.Messages) == 0 {
		return nil
	}
	const (
		width, left, right = 480, 84, 12
		top, laneGap       = 46, 40
	)
	lanes := map[string]int{"": top}
	ch := &StepChart{Title: "The step's messages on the virtual clock", Width: width, Lanes: []chartLane{{Y: top, Label: "coordinator"}}}
	for i := range teaching.RingReplicas {
		name := teaching.ReplicaName(i)
		y := top + laneGap*(i+1)
		lanes[name] = y
		label := "replica " + name
		if run.Step.Ring.Stopped[i] {
			label += " (stopped)"
		}
		ch.Lanes = append(ch.Lanes, chartLane{Y: y, Label: label})
	}
	ch.Height = top + laneGap*teaching.RingReplicas + 24
	end := int64(1)
	for _, m := range run.Messages {
		end = max(end, m.At)
	}
	x := func(t int64) int { return left + int(float64(t)/float64(end)*float64(width-left-right)) }
	for _, m := range run.Messages {
		ch.Arrows = append(ch.Arrows, chartArrow{X1: x(m.Sent), Y1: lanes[m.From], X2: x(m.At), Y2: lanes[m.To], Kind: m.Kind})
	}
	if run.Step.Write != "" && run.WriteUnavailable == "" {
		ch.Marks = append(ch.Marks, chartMark{X: x(run.WriteAnswered), Label: "write answers " + Ms(run.WriteAnswered), Y: 14})
	}
	if run.Step.Read != "" && run.ReadUnavailable == "" && len(run.Replies) > 0 {
		ch.Marks = append(ch.Marks, chartMark{X: x(run.ReadAnswered), Label: "read answers " + Ms(run.ReadAnswered), Y: 28})
	}
	return ch
}
