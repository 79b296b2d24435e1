package unique

import (
	"context"
	"strconv"
	"time"

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

func exercises(claims teaching.NameClaims, gate *frame.Gate) []frame.Exercise {
	if claims == nil {
		return nil
	}
	out := make([]frame.Exercise, len(raceQuestions))
	for i, q := range raceQuestions {
		out[i] = q.exercise(claims)
		out[i].Gate = gate
	}
	return out
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
