package consistency

import (
	"context"
	"strconv"

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

func exercises(lab teaching.ConsistencyLab, gate *frame.Gate) []frame.Exercise {
	if lab == nil {
		return nil
	}
	out := make([]frame.Exercise, len(staleQuestions))
	for i, q := range staleQuestions {
		out[i] = q.exercise(lab)
		out[i].Gate = gate
	}
	return out
}

func ms(us int64) string { return strconv.FormatFloat(float64(us)/1000, 'f', -1, 64) + " ms" }

func (q staleQuestion) exercise(lab teaching.ConsistencyLab) frame.Exercise {
	d := q.ring.Delays
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Choices: []string{"yes", "no"},
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
