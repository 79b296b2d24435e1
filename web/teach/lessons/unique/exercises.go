package unique

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// raceQuestion asks how many of n sign-ups of one name, racing at once through the store's
// lightweight transaction, are told they won: its grader races them in the store's sandbox
// (teaching.Race, which also races them read-then-write) and counts.
type raceQuestion struct {
	id     string
	racers int
	window time.Duration // each racer's wait, standing for a sign-up's password hash
}

var raceQuestions = []raceQuestion{{id: "unique-1", racers: 5}}

// secondQuestion asks whose a name is after two claims one after the other, the first by
// the lightweight transaction, the second by a plain write or by the transaction too: its
// grader makes both claims of a fresh name in the store's sandbox, reads the owner back, and
// releases the name. The second claim's way decides the answer.
type secondQuestion struct {
	id        string
	secondLWT bool
}

var secondQuestions = []secondQuestion{{id: "unique-2", secondLWT: false}}

// The claimants of a secondQuestion.
const firstClaimant, secondClaimant = "ann", "bob"

func exercises(claims teaching.NameClaims, gate *frame.Gate) []frame.Exercise {
	if claims == nil {
		return nil
	}
	out := make([]frame.Exercise, 0, len(raceQuestions)+len(secondQuestions))
	for _, q := range raceQuestions {
		out = append(out, q.exercise(claims))
	}
	for _, q := range secondQuestions {
		out = append(out, q.exercise(claims))
	}
	for i := range out {
		out[i].Gate = gate
	}
	return out
}

func (q secondQuestion) exercise(claims teaching.NameClaims) frame.Exercise {
	_, write, lwt := claims.Statements()
	second := "a plain write (" + write + ")"
	if q.secondLWT {
		second = "the lightweight transaction as well"
	}
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Choices: []string{firstClaimant, secondClaimant},
		Prompt: firstClaimant + " claims a free name with the store's lightweight transaction (" + lwt + "); a moment later " + secondClaimant +
			" claims the same name with " + second + ". Whose is the name when it is read?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			name := "exercise#" + frame.ScratchSession()
			defer func() { _ = claims.Release(context.WithoutCancel(ctx), name) }()
			if _, err := claims.WriteIfAbsent(ctx, name, firstClaimant); err != nil {
				return frame.Grade{}, err
			}
			applied := true
			var err error
			if q.secondLWT {
				applied, err = claims.WriteIfAbsent(ctx, name, secondClaimant)
			} else {
				err = claims.Write(ctx, name, secondClaimant)
			}
			if err != nil {
				return frame.Grade{}, err
			}
			owner, found, err := claims.Lookup(ctx, name)
			if err != nil {
				return frame.Grade{}, err
			}
			if !found {
				return frame.Grade{}, fmt.Errorf("the claimed name read back unclaimed: %w", domain.ErrUnavailable)
			}
			var why string
			switch {
			case owner == secondClaimant && !q.secondLWT:
				why = secondClaimant + "'s plain write checks nothing: it overwrites the claim, the newer timestamp wins, and the transaction " + firstClaimant +
					" won protects nothing against a writer that does not use it too."
			case owner == firstClaimant && !applied:
				why = secondClaimant + "'s transaction found the name taken and was not applied: a name is unique only when every claim goes through the transaction."
			default:
				why = "Of the two claims, the one with the newer timestamp is the one a read returns."
			}
			return frame.Grade{Model: owner, Correct: answer == owner,
				Explanation: "The store made both claims of a fresh name in its sandbox (" + secondClaimant + "'s applied: " + strconv.FormatBool(applied) +
					") and read the owner back: " + owner + ". " + why}, nil
		}}
}

func (q raceQuestion) exercise(claims teaching.NameClaims) frame.Exercise {
	_, _, lwt := claims.Statements()
	return frame.Exercise{ID: q.id, Kind: frame.Predict, Format: "a whole number",
		Prompt: strconv.Itoa(q.racers) + " sign-ups of one name start at the same moment, each claiming the name with the store's lightweight transaction (" + lwt + "). How many are told the name is theirs?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			n, err := frame.AnswerInt(answer)
			if err != nil {
				return frame.Grade{}, err
			}
			res, err := teaching.Race(ctx, claims, q.window, "exercise", q.racers)
			if err != nil {
				return frame.Grade{}, err
			}
			won := res.LWT.Winners
			return frame.Grade{Model: strconv.Itoa(won), Correct: n == won,
				Explanation: "The store raced " + strconv.Itoa(q.racers) + " claims of one name in its sandbox: by the lightweight transaction " + strconv.Itoa(won) +
					" was told it won, and the store names " + res.LWT.Owner + "; the same racers by read-then-write (" + res.ReadThenWrite.Statement + ") told " +
					strconv.Itoa(res.ReadThenWrite.Winners) + " they won. The transaction checks and writes as one step, so one claim is applied and every other sees it there."}, nil
		}}
}
