package twissandra

import (
	"context"
	"fmt"
	"strconv"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// The fan-out question: in how many places does the store hold the newest tweet? Its grader
// reads the running store: the newest tweet of the public line, every place its post wrote it
// (its record, the lines, each follower's timeline, page by page) and which of them the store
// holds now (teaching.Locator). Another follower, or a pulled author, and the answer changes.

// The grader reads the followers fanoutPage at a time, at most maxFanoutPages pages: an author
// followed by more is the celebrity lesson's.
const (
	fanoutPage     = 100
	maxFanoutPages = 10
)

// The seeds' fan-out on a scratch node: an author every follower of whom is pushed posts once,
// and the rows that hold the post are counted. Its grader runs the celebrity lesson's sandbox
// (labs.RunSandbox) at the highest threshold it takes, so that no author is pulled: another
// follower, another row.
const pushFollowers = 2

func exercises(svc *social.Service, loc teaching.Locator, sandbox func() (frame.Scratch, error), gate *frame.Gate) []frame.Exercise {
	var out []frame.Exercise
	if loc != nil {
		out = append(out, fanoutExercise(svc, loc))
	}
	if sandbox != nil {
		e := pushExercise(sandbox, pushFollowers)
		e.Gate = gate
		out = append(out, e)
	}
	return out
}

func pushExercise(sandbox func() (frame.Scratch, error), followers int) frame.Exercise {
	return frame.Exercise{ID: "twissandra-2", Kind: frame.Predict, Format: "a whole number",
		Prompt: "On a scratch node of the 0.6 model (the seeds' column families), an author with " + strconv.Itoa(followers) +
			" followers posts once, and the post is copied to every follower, as the seeds do. How many rows of Userline and Timeline does the post write into (the tweet's own row apart)?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			n, err := frame.AnswerInt(answer)
			if err != nil {
				return frame.Grade{}, err
			}
			run, err := labs.RunSandboxParts(ctx, sandbox, labs.SandboxMaxThreshold, followers, labs.SandboxRows)
			if err != nil {
				return frame.Grade{}, err
			}
			return frame.Grade{Model: strconv.Itoa(run.LineRows), Correct: n == run.LineRows,
				Explanation: "The post ran on a scratch node and cost " + run.Post.Headline + ". Read back, " + strconv.Itoa(run.LineRows) +
					" rows hold it: " + strconv.Itoa(run.LineRows-1-len(run.Timelines)) + " of Userline (the author's userline and the public line), the author's own timeline, and " +
					strconv.Itoa(len(run.Timelines)) + " followers' timelines. Fan-out on write: each follower more is a row more to write, so that each follower's page is one slice of one row."}, nil
		}}
}

func fanoutExercise(svc *social.Service, loc teaching.Locator) frame.Exercise {
	return frame.Exercise{ID: "twissandra-1", Kind: frame.Predict, Format: "a whole number",
		Prompt: "Take the newest tweet on this server's public line, and its author's followers. In how many rows (partitions on cql3, entries of the maps on memory) does the store hold that tweet: its record, the lines it was added to, and the followers' timelines it was copied into?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			n, err := frame.AnswerInt(answer)
			if err != nil {
				return frame.Grade{}, err
			}
			return gradeFanout(ctx, svc, loc, n)
		}}
}

func gradeFanout(ctx context.Context, svc *social.Service, loc teaching.Locator, n int) (frame.Grade, error) {
	page, err := svc.PublicLine(ctx, "", 1)
	if err != nil {
		return frame.Grade{}, err
	}
	if len(page.Tweets) == 0 {
		return frame.Grade{}, fmt.Errorf("no tweet on this server yet: post one from lesson 4, then answer: %w", domain.ErrNotFound)
	}
	id := page.Tweets[0].ID
	var all []teaching.Locus
	var t domain.Tweet
	after := ""
	for i := 0; ; i++ {
		if i == maxFanoutPages {
			return frame.Grade{}, domain.Invalid("", "the newest tweet's author has more than %d followers: the celebrity lesson is where such an author is", fanoutPage*maxFanoutPages)
		}
		var loci []teaching.Locus
		t, loci, after, err = svc.TweetLoci(ctx, id, after, fanoutPage)
		if err != nil {
			return frame.Grade{}, err
		}
		all = append(all, loci...)
		if after == "" {
			break
		}
	}
	places, err := loc.Locate(ctx, all)
	if err != nil {
		return frame.Grade{}, err
	}
	held, timelines := 0, 0
	for _, p := range places {
		if p.Present {
			held++
			if p.Locus.Kind == teaching.LocusLineEntry && p.Locus.Line.Kind == domain.Timeline && p.Locus.Line.Owner != t.Username {
				timelines++
			}
		}
	}
	f, err := svc.FanoutOf(ctx, t.Username)
	if err != nil {
		return frame.Grade{}, err
	}
	return frame.Grade{Model: strconv.Itoa(held), Correct: n == held,
		Explanation: "The newest tweet is @" + t.Username + "'s, who has " + strconv.FormatInt(f.Followers, 10) + " followers (" + f.String() + "). The store holds it in " +
			strconv.Itoa(held) + " places: " + strconv.Itoa(held-timelines) + " for the tweet itself (its record, its author's userline and timeline, the public line, as this model keeps them), and " +
			strconv.Itoa(timelines) + " followers' timelines it was copied into when it was posted (a follower who came later has it only if the follow backfilled it). Fan-out on write: each follower more is a row more to write, so that each follower's page is one read."}, nil
}
