package consistency

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// staleQuestion asks whether a read at one level after a write at another can be stale on the
// lab's ring of three replicas: its grader runs the lab's trials on that ring, and a stale read
// among them answers yes.
type staleQuestion struct {
	id          string
	write, read string
	ring        teaching.LabRing
	gap         int64 // µs between the write's answer and the read
	trials      int
}

// The ring of the questions: replica C far away (40 ms), A and B near.
var farC = teaching.LabRing{Delays: [teaching.RingReplicas]int64{1_000, 2_000, 40_000}}

var staleQuestions = []staleQuestion{
	{id: "consistency-1", write: "ONE", read: "ONE", ring: farC, gap: 0, trials: 12},
	{id: "consistency-2", write: "QUORUM", read: "QUORUM", ring: farC, gap: 0, trials: 12},
}

// readLevelQuestion asks the smallest read level that makes every read after a write at one
// level fresh on the lab's three replicas: its grader runs the lab's trials, and the answer
// is the first level (ONE, QUORUM, ALL) whose pair with the write the lab counts as
// overlapping (R + W > N) and in whose trials no read was stale. Another write level, another
// answer.
type readLevelQuestion struct {
	id     string
	write  string
	ring   teaching.LabRing
	trials int
}

var readLevelQuestions = []readLevelQuestion{
	{id: "consistency-3", write: "ONE", ring: farC, trials: 12},
}

func exercises(lab teaching.ConsistencyLab, gate *frame.Gate) []frame.Exercise {
	if lab == nil {
		return nil
	}
	out := make([]frame.Exercise, 0, len(staleQuestions)+len(readLevelQuestions))
	for _, q := range staleQuestions {
		out = append(out, q.exercise(lab))
	}
	for _, q := range readLevelQuestions {
		out = append(out, q.exercise(lab))
	}
	for i := range out {
		out[i].Gate = gate
	}
	return out
}

func (q readLevelQuestion) exercise(lab teaching.ConsistencyLab) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Choices: slices.Clone(teaching.Levels), Check: trialsCheck(q.ring, 0, q.trials),
		Prompt: "Three replicas of a row (a replication factor of 3). A client writes at " + q.write +
			", then reads right after the write answered. What is the smallest read level that makes every such read return the value just written, whatever the delays?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			run, err := lab.Trials(ctx, q.ring, 0, 1, q.trials)
			if err != nil {
				return frame.Grade{}, err
			}
			w, err := teaching.BlockFor(q.write, teaching.RingReplicas)
			if err != nil {
				return frame.Grade{}, err
			}
			model, seen := "", ""
			for _, level := range teaching.Levels {
				for _, p := range run.Pairs {
					if p.Write != q.write || p.Read != level {
						continue
					}
					r, _ := teaching.BlockFor(level, teaching.RingReplicas)
					if seen != "" {
						seen += "; "
					}
					seen += "at " + level + " (R = " + strconv.Itoa(r) + ", R + W = " + strconv.Itoa(r+w) + "): " + strconv.Itoa(p.Stale) + " of " + strconv.Itoa(p.Trials) + " stale"
					if model == "" && p.Overlap && p.Stale == 0 {
						model = level
					}
				}
			}
			if model == "" {
				return frame.Grade{}, fmt.Errorf("the lab's trials ran no read that overlaps a write at %s: %w", q.write, domain.ErrUnavailable)
			}
			return frame.Grade{Model: model, Correct: answer == model,
				Explanation: "The lab ran " + strconv.Itoa(q.trials) + " trials of a write at " + q.write + " (W = " + strconv.Itoa(w) + " of N = " + strconv.Itoa(teaching.RingReplicas) +
					") and a read at each level: " + seen + ". A level below " + model + " may read stale whether or not these trials caught it: only R + W > N makes every read ask a replica that acknowledged the write. " +
					model + " is the first level at which it does."}, nil
		}}
}

// trialsCheck is the lab's form of trials on ring with gap, seeded as the graders seed their
// trials: posted, it runs the same trials and shows them on the page.
func trialsCheck(ring teaching.LabRing, gap int64, trials int) *frame.Check {
	form := url.Values{"gap": {millis(gap)}, "seed": {"1"}, "trials": {strconv.Itoa(trials)}}
	for i, name := range []string{"delay_a", "delay_b", "delay_c"} {
		form.Set(name, millis(ring.Delays[i]))
	}
	return frame.PostCheck("/models/lab/consistency/trials", form)
}

// millis writes µs as the lab's form takes them, in milliseconds.
func millis(us int64) string { return strconv.FormatFloat(float64(us)/1000, 'f', -1, 64) }

func ms(us int64) string { return millis(us) + " ms" }

func (q staleQuestion) exercise(lab teaching.ConsistencyLab) frame.Exercise {
	d := q.ring.Delays
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Choices: []string{"yes", "no"}, Check: trialsCheck(q.ring, q.gap, q.trials),
		Prompt: "Three replicas, A, B and C, " + ms(d[0]) + ", " + ms(d[1]) + " and " + ms(d[2]) + " from the coordinator (each message's delay drawn around it). A client writes at " +
			q.write + ", then, " + ms(q.gap) + " after the write answered, reads at " + q.read + ". Can the read be stale (answer with an older value than the write it just made)?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			run, err := lab.Trials(ctx, q.ring, q.gap, 1, q.trials)
			if err != nil {
				return frame.Grade{}, err
			}
			var p teaching.TrialPair
			for _, tp := range run.Pairs {
				if tp.Write == q.write && tp.Read == q.read {
					p = tp
				}
			}
			model, why := "no", "R + W > N: every read asks at least one replica that acknowledged the write, and the newest timestamp among the replies wins."
			if p.Stale > 0 {
				model, why = "yes", "R + W ≤ N: the replicas the read asks need not include one that has the write yet; the write goes on reaching the others after it answered."
			}
			if !p.Overlap && p.Stale == 0 {
				why = "R + W ≤ N, so a stale read can happen, but in these trials the read always reached a replica that had the write: the delays decide how often."
			}
			return frame.Grade{Model: model, Correct: answer == model,
				Explanation: "The lab ran " + strconv.Itoa(p.Trials) + " trials of a write at " + q.write + " and a read at " + q.read + " on that ring: " +
					strconv.Itoa(p.Stale) + " read a stale value. " + why}, nil
		}}
}
