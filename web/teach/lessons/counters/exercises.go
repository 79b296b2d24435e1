package counters

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// The lesson's exercises. Each is graded by doing the thing: the two on counters on the node
// (offered where the server has one), the follow sent twice on the sandbox, a scratch store of
// the 0.6 model that every server opens.

// lostIncrements is how many increments the lost-answer question's client makes.
var lostIncrements = 3

// followers of the follow question: each follows the followed once, the first twice.
var retriedFollowers = []string{"ann", "cat"}

const followed = "bob"

func exercises(h *handler) []frame.Exercise {
	var out []frame.Exercise
	if lab := h.Deps.Counters; lab != nil {
		out = append(out, lostQuestion(lab), mixedQuestion(lab))
		for i := range out {
			out[i].Gate = h.gate
		}
	}
	if h.Deps.Sandbox != nil {
		e := followQuestion(h.Deps.Sandbox)
		e.Gate = h.SandboxGate
		out = append(out, e)
	}
	return out
}

// lostQuestion asks what a counter reads after increments of which one's answer was lost and
// the driver retried it: the grader makes the run on the node and reads the counter back.
func lostQuestion(lab teaching.CounterLab) frame.Exercise {
	return frame.Exercise{ID: "counters-1", Kind: frame.Predict, Format: "a whole number",
		Prompt: fmt.Sprintf("A client adds 1 to a new tweet's likes %d times, one statement after the other. The node applies the first increment and answers, but the answer is lost on the way back; the driver, told the statement is idempotent, times out and sends it again. What does the counter read afterwards?", lostIncrements),
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			n, err := frame.AnswerInt(answer)
			if err != nil {
				return frame.Grade{}, err
			}
			run, err := lab.LostAck(ctx, frame.ScratchSession(), lostIncrements)
			if err != nil {
				return frame.Grade{}, err
			}
			return frame.Grade{Correct: int64(n) == run.Count, Model: strconv.FormatInt(run.Count, 10),
				Explanation: fmt.Sprintf("The node read %d for %d increments meant: the driver sent the increment %d times in all (%s), and the node applied every one it received. An increment is not idempotent: sending it again adds again, whether or not the first arrived. The client cannot tell a lost answer from a lost request, so a retried increment may count twice; not retried, it may count zero times.",
					run.Count, run.Meant, run.Sent, strings.Join(run.Attempts, "; "))}, nil
		}}
}

// mixedQuestion asks whether the node accepts a table of a counter and a text column: the
// grader sends the CREATE TABLE and reports the node's answer.
func mixedQuestion(lab teaching.CounterLab) frame.Exercise {
	return frame.Exercise{ID: "counters-2", Kind: frame.Choose, Choices: []string{"accepted", "refused"},
		Prompt: "A table of a tweet's likes and its body: CREATE TABLE likes_and_body (tweet text PRIMARY KEY, likes counter, body text). Does the node accept it?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			sts, err := lab.Mixed(ctx, frame.ScratchSession())
			if err != nil {
				return frame.Grade{}, err
			}
			if len(sts) == 0 || !strings.HasPrefix(sts[0].CQL, "CREATE TABLE") {
				return frame.Grade{}, fmt.Errorf("counters: the node was sent no table")
			}
			model, why := "accepted", "The node accepted it."
			if sts[0].Error != "" {
				model, why = "refused", "The node refused it: "+strings.TrimPrefix(sts[0].Error, "InvalidRequest: ")+"."
			}
			return frame.Grade{Correct: answer == model, Model: model,
				Explanation: why + " A counter is not written as other columns are: each replica keeps its own share of the count, merged when it is read, instead of a value the latest write replaces; so a table with a counter holds nothing but counters beside its key, and the other columns go to a table of their own."}, nil
		}}
}

// retriedTimes is how many times the follow question's first follower's follow is sent.
const retriedTimes = 2

// maxRetried bounds the times the page's form sends the first follower's follow.
const maxRetried = 5

// retriedRun is a follow sent again on a scratch node: the follows sent, and the follower count
// the store keeps afterwards.
type retriedRun struct {
	Times, Sent int
	Count       int64
}

// retriedFollow creates the followed and the followers on a scratch node open opens (the
// sandbox), sends the first follower's follow times times and the others' once, and reads the
// follower count the store keeps. The follows and the read go into ctx's log; the users'
// creation does not. The caller holds the sandbox's gate.
func retriedFollow(ctx context.Context, open func() (frame.Scratch, error), times int) (retriedRun, error) {
	r := retriedRun{Times: times}
	sc, err := open()
	if err != nil {
		return r, fmt.Errorf("sandbox: %w", err)
	}
	defer func() { _ = sc.Close() }()
	quiet := oplog.With(ctx, nil)
	for _, name := range append([]string{followed}, retriedFollowers...) {
		u := domain.User{ID: uuid.New(), Username: name, PasswordHash: []byte("nobody logs in to a sandbox"), CreatedAt: time.Now().UTC().Truncate(1000)}
		if err := sc.Users.CreateUser(quiet, u); err != nil {
			return r, fmt.Errorf("sandbox user %s: %w", name, err)
		}
	}
	for i, name := range retriedFollowers {
		each := 1
		if i == 0 {
			each = times
		}
		for range each {
			if err := sc.Users.Follow(ctx, name, followed, time.Now().UTC().Truncate(1000)); err != nil {
				return r, fmt.Errorf("sandbox follow: %w", err)
			}
			r.Sent++
		}
	}
	r.Count, err = sc.Users.FollowerCount(ctx, followed)
	return r, err
}

// followQuestion asks the follower count after a follow sent twice: the grader creates the
// users on a sandbox, sends the follows, and reads the count the store keeps. Its check is the
// page's run of the same (the form's times, retriedTimes).
func followQuestion(open func() (frame.Scratch, error)) frame.Exercise {
	return frame.Exercise{ID: "counters-3", Kind: frame.Predict, Format: "a whole number", Check: frame.GetCheck(retriedURL(retriedTimes)),
		Prompt: fmt.Sprintf("On an empty store of this server's 0.6 model, %s follow %s; %s's follow is sent twice, as a client retries a request whose answer it lost. What follower count does the store keep for %s?",
			strings.Join(retriedFollowers, " and "), followed, retriedFollowers[0], followed),
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			n, err := frame.AnswerInt(answer)
			if err != nil {
				return frame.Grade{}, err
			}
			r, err := retriedFollow(ctx, open, retriedTimes)
			if err != nil {
				return frame.Grade{}, err
			}
			return frame.Grade{Correct: int64(n) == r.Count, Model: strconv.FormatInt(r.Count, 10),
				Explanation: fmt.Sprintf("The store keeps %d for %s after %d follows sent. Under the store's lock of the followed author, a follow looks for the follower's column (named by the follower's uuid) in %s's Followers row: a new follower writes it, and the count one more in the User row's followers column, in one batch_mutate; the follow sent again finds the column there and writes nothing. A follow is idempotent; an increment is not.",
					r.Count, followed, r.Sent, followed)}, nil
		}}
}

// retriedURL is the counters page with the follow sent again run, the first follower's follow
// sent times times.
func retriedURL(times int) string {
	return "/learn/counters?sent=" + strconv.Itoa(times) + "#retried-follow"
}
