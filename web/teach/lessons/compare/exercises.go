package compare

import (
	"context"
	"strconv"
	"strings"

	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// followQuestion asks what a follow costs the 0.6 model when the followee has posted: its
// grader follows on the sandbox's scratch node (labs.RunFollow, the use case itself, measured
// as every footer measures) and counts the storage calls. Another number of posts (none to
// copy into the follower's timeline), another count.
type followQuestion struct {
	id    string
	posts int
}

var followQuestions = []followQuestion{{id: "compare-1", posts: 2}}

func exercises(sandbox func() (frame.Scratch, error), gate *frame.Gate) []frame.Exercise {
	if sandbox == nil {
		return nil
	}
	out := make([]frame.Exercise, len(followQuestions))
	for i, q := range followQuestions {
		out[i] = q.exercise(sandbox)
		out[i].Gate = gate
	}
	return out
}

func (q followQuestion) exercise(sandbox func() (frame.Scratch, error)) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Predict, Format: "a whole number", Check: frame.GetCheck(followURL(q.posts)),
		Prompt: "On a scratch node of the 0.6 model (the widerow side of compare mode), star has posted " + strconv.Itoa(q.posts) +
			" tweets, and fan1, who follows nobody yet, follows star. How many storage calls does the follow cost, as the footer counts them (its notes apart)?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			n, err := frame.AnswerInt(answer)
			if err != nil {
				return frame.Grade{}, err
			}
			step, err := labs.RunFollow(ctx, sandbox, q.posts)
			if err != nil {
				return frame.Grade{}, err
			}
			calls := step.CallNames()
			return frame.Grade{Model: strconv.Itoa(step.Calls), Correct: n == step.Calls,
				Explanation: "The follow ran on a scratch node and cost " + step.Headline + ". In order: " + strings.Join(calls, "; ") +
					". The 0.6 model keeps the edge twice, in Friends and in Followers, and copies the followee's latest tweets into the new follower's timeline, a read of the userline and, when there is something to copy, a batch more. Compare mode's footer puts the same follow's CQL statements beside them."}, nil
		}}
}
