package celebrity

import (
	"context"
	"strconv"

	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// The sandbox's questions: with a pull threshold and a number of followers, what does a post
// write, and does a follower's page merge? Their grader runs the sandbox with the question's
// threshold and followers (the product's use cases on a scratch node, labs.RunSandbox) and
// reads what the run measured and read back: another threshold, or another follower, and the
// answer changes.
type sandboxQuestion struct {
	id                   string
	threshold, followers int
	ask                  sandboxAsk
}

type sandboxAsk int

const (
	askRows  sandboxAsk = iota // how many line rows the post writes
	askMerge                   // whether fan1's page merges the author's userline
)

var sandboxQuestions = []sandboxQuestion{
	{id: "celebrity-1", threshold: 2, followers: 3, ask: askRows},
	{id: "celebrity-2", threshold: 2, followers: 2, ask: askMerge},
}

// exercises are the lesson's, on a server with a sandbox; each grading is a sandbox run, under
// the sandbox's gate.
func exercises(open func() (frame.Scratch, error), gate *frame.Gate) []frame.Exercise {
	if open == nil {
		return nil
	}
	out := make([]frame.Exercise, len(sandboxQuestions))
	for i, q := range sandboxQuestions {
		out[i] = q.exercise(open)
		out[i].Gate = gate
	}
	return out
}

func (q sandboxQuestion) setting() string {
	return "On a scratch node of the 0.6 model with a pull threshold of " + strconv.Itoa(q.threshold) + ", the author star has " +
		strconv.Itoa(q.followers) + " followers, fan1 to fan" + strconv.Itoa(q.followers) + ", and posts once."
}

func (q sandboxQuestion) exercise(open func() (frame.Scratch, error)) frame.Exercise {
	// The page's sandbox runs the same scenario, and more (the post's rows and the page both),
	// when asked with the question's threshold and followers: the learner's check.
	e := frame.Exercise{ID: q.id, Check: frame.GetCheck("/learn/celebrity?threshold=" + strconv.Itoa(q.threshold) + "&followers=" + strconv.Itoa(q.followers) + "#sandbox")}
	switch q.ask {
	case askRows:
		e.Kind, e.Format = frame.Predict, "a whole number"
		e.Prompt = q.setting() + " How many rows of Userline and Timeline does the post write into (the tweet's own row apart)?"
	case askMerge:
		e.Kind, e.Choices = frame.Choose, []string{"yes", "no"}
		e.Prompt = q.setting() + " Then fan1 reads their home page: does it merge star's userline into fan1's timeline?"
	}
	e.Grade = func(ctx context.Context, answer string) (frame.Grade, error) {
		n := 0
		if q.ask == askRows {
			var err error
			if n, err = frame.AnswerInt(answer); err != nil {
				return frame.Grade{}, err
			}
		}
		// The run does what the question asks about: the rows the post wrote, or the page.
		parts := labs.SandboxRows
		if q.ask == askMerge {
			parts = labs.SandboxRead
		}
		run, err := labs.RunSandboxParts(ctx, open, q.threshold, q.followers, parts)
		if err != nil {
			return frame.Grade{}, err
		}
		mode := "pushed: each post is copied into every follower's timeline"
		if run.Fanout.Pull {
			mode = "pulled: a post goes to the author's lines alone, and each follower's page reads the author's userline"
		}
		why := "The sandbox ran it: with " + strconv.Itoa(q.followers) + " followers and a threshold of " + strconv.Itoa(q.threshold) + ", star is " + mode +
			" (pulled only above the threshold). The post cost " + run.Post.Headline + "; "
		if q.ask == askRows {
			why += "read back from the scratch node, " + strconv.Itoa(run.LineRows) + " Userline and Timeline rows hold it: star's userline and the public line, star's own timeline, and " +
				strconv.Itoa(len(run.Timelines)) + " followers' timelines."
			return frame.Grade{Model: strconv.Itoa(run.LineRows), Correct: n == run.LineRows, Explanation: why}, nil
		}
		model := "no"
		if run.Merged {
			model = "yes"
		}
		if run.Merged {
			why += "fan1's page cost " + run.Read.Headline + ": it read fan1's timeline row and merged " + strconv.Itoa(run.Stats.Lines-1) + " pulled author's userline into it."
		} else {
			why += "fan1's page cost " + run.Read.Headline + ": it read fan1's timeline row alone, which the post had written, merging nothing."
		}
		return frame.Grade{Model: model, Correct: answer == model, Explanation: why}, nil
	}
	return e
}
