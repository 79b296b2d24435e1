package labs

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// The simulated replicas' clock: day 0 is the day seed 001 was published, at 08:00 UTC.
const (
	replicaDay0 = int64(1273651200000000)
	dayMicros   = int64(86_400_000_000)
	maxDays     = 3650
	// defaultGCGrace is 0.6's GCGraceSeconds: ten days.
	DefaultGCGrace = 864000
)

// ReplicasForm is the scenario as the learner types it: days from the write, gc_grace seconds.
type ReplicasForm struct {
	Value, Deleted, Repaired, Compacted, Read, Grace string
	Repair                                           bool
}

// ReplicaRun is the browser's last run of the replicas.
type ReplicaRun struct {
	Form    ReplicasForm
	Run     teaching.ReplicaRun
	GCGrace int64
	Steps   []replicaStepView
	Verdict string
}

type replicaStepView struct {
	Day, Date, What string
	Calls           []string
	A, B            []frame.NotationLine
}

func ReplicasFormOf(m map[string]string) ReplicasForm {
	return ReplicasForm{Value: m["value"], Deleted: m["deleted"], Repaired: m["repaired"], Compacted: m["compacted"], Read: m["read"], Grace: m["grace"], Repair: m["repair"] != ""}
}

// scenario reads the form's days into the lab's times.
func (f ReplicasForm) scenario() (teaching.ReplicaScenario, int64, error) {
	day := func(field, s string) (int64, error) {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || n < 0 || n > maxDays {
			return 0, domain.Invalid(field, "must be a day from 0 to %d, not %q", maxDays, s)
		}
		return replicaDay0 + n*dayMicros, nil
	}
	s := teaching.ReplicaScenario{Value: f.Value, Written: replicaDay0}
	var err error
	if s.Deleted, err = day("the delete", f.Deleted); err != nil {
		return s, 0, err
	}
	if s.Compacted, err = day("the compaction", f.Compacted); err != nil {
		return s, 0, err
	}
	if s.Read, err = day("the read", f.Read); err != nil {
		return s, 0, err
	}
	if f.Repair {
		if s.Repaired, err = day("the repair", f.Repaired); err != nil {
			return s, 0, err
		}
	}
	grace, err := strconv.ParseInt(strings.TrimSpace(f.Grace), 10, 64)
	if err != nil {
		return s, 0, domain.Invalid("gc_grace", "must be a whole number of seconds, not %q", f.Grace)
	}
	s.GCGrace = grace
	return s, grace, nil
}

// labReplicas plays the scenario of the form on two simulated replicas (lesson 3).
func (h *Handler) labReplicas(c *gin.Context) {
	if h.labUnavailable(c) {
		return
	}
	form := PostForm(c, "value", "deleted", "repaired", "compacted", "read", "grace", "repair")
	f := ReplicasFormOf(form)
	s, grace, err := f.scenario()
	if err == nil {
		var run teaching.ReplicaRun
		run, err = h.Deps.Lab.Replicas(c.Request.Context(), LabSession(c, true), s)
		if err == nil {
			r := &ReplicaRun{Form: f, Run: run, GCGrace: grace, Verdict: replicaVerdict(s, run)}
			for _, st := range run.Steps {
				r.Steps = append(r.Steps, replicaStepView{Day: dayOf(st.At), Date: domain.MicrosDate(st.At), What: st.What, Calls: st.Calls,
					A: frame.Notation("Bytes", run.Keys[0], st.A), B: frame.Notation("Bytes", run.Keys[1], st.B)})
			}
			h.remember(c, func(s *labState) { s.Replicas = r })
		}
	}
	h.labDone(c, "replicas", "replicas", "your replicas' days", err, form)
}

// dayOf is a time of the replicas' clock as "day N".
func dayOf(micros int64) string {
	return "day " + strconv.FormatInt((micros-replicaDay0)/dayMicros, 10)
}

// GraceDays says gc_grace in days, when it is a whole number of them.
func GraceDays(seconds int64) string {
	if seconds%86400 == 0 {
		return strconv.FormatInt(seconds/86400, 10) + " days"
	}
	return (time.Duration(seconds) * time.Second).String()
}

// replicaVerdict is the sentence that says how the run ended, and why.
func replicaVerdict(s teaching.ReplicaScenario, run teaching.ReplicaRun) string {
	grace := GraceDays(s.GCGrace)
	var dropped [2]int
	for _, st := range run.Steps {
		if st.What == "compaction" {
			dropped = st.Dropped
		}
	}
	repaired := s.Repaired != 0 && s.Repaired < s.Compacted
	switch {
	case run.Found:
		how := "B, which missed the delete, was never repaired and still held the value"
		if s.Repaired != 0 {
			how = fmt.Sprintf("B, which missed the delete, was repaired only on %s, after A's tombstone had gone", dayOf(s.Repaired))
		}
		return fmt.Sprintf("The deleted column is back: %q, with its timestamp of %s. On %s replica A compacted and dropped its tombstone: it had received the delete on %s, at least gc_grace (%s) before. %s; the read on %s found nothing on A and the value on B, kept the value, and the read repair copied it back to A. A tombstone must reach every replica before gc_grace runs out: run a repair (nodetool repair) on every node within every gc_grace.",
			run.Value, dayOf(run.TS), dayOf(s.Compacted), dayOf(s.Deleted), grace, how, dayOf(s.Read))
	case repaired && dropped[0]+dropped[1] > 0:
		return fmt.Sprintf("The column stays deleted: the repair on %s gave B the tombstone, so when the compaction of %s dropped it (at least gc_grace, %s, after the delete), neither replica held anything older to bring back.",
			dayOf(s.Repaired), dayOf(s.Compacted), grace)
	case repaired:
		return fmt.Sprintf("The column stays deleted: the repair on %s gave B the tombstone, and both keep it until gc_grace (%s after the delete) has passed.", dayOf(s.Repaired), grace)
	case dropped[0] == 0:
		return fmt.Sprintf("The column stays deleted: on %s, less than gc_grace (%s) after the delete, A's compaction had to keep the tombstone. The read on %s found it on A, newer than B's value, and the read repair sent it to B: now both hold it.",
			dayOf(s.Compacted), grace, dayOf(s.Read))
	}
	return "The column stays deleted: neither replica holds anything of it."
}
