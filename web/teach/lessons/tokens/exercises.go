package tokens

import (
	"context"
	"strconv"
	"strings"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// replicasQuestion asks which nodes of a simulated ring hold a key: its grader places the key
// on the store's simulated ring (widerow's: RandomPartitioner's MD5 tokens, 0.6's
// RackUnawareStrategy), and the replicas it names are the right answer.
type replicasQuestion struct {
	id  string
	key string
	sim teaching.RingSim
}

var replicasQuestions = []replicasQuestion{
	{id: "tokens-1", key: "jericevans", sim: teaching.RingSim{Nodes: defaultSimNodes, RF: 2}},
}

// exercises are the lesson's, on a store whose ring is simulated (a cluster's real ring has the
// replication its keyspace has, not the question's; a store without one has none to ask of).
func exercises(ring teaching.Ring, gate *frame.Gate) []frame.Exercise {
	if ring == nil {
		return nil
	}
	var out []frame.Exercise
	for _, q := range replicasQuestions {
		if kr, err := ring.PlaceKey(context.Background(), q.key, q.sim); err != nil || !kr.Simulated {
			continue
		}
		e := q.exercise(ring)
		e.Gate = gate
		out = append(out, e)
	}
	return out
}

// nodeName reads a learner's node: "node 3", "Node 3" or "3".
func nodeName(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "node"))
	return "node " + s
}

func (q replicasQuestion) exercise(ring teaching.Ring) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Predict,
		Prompt: "On a simulated ring of " + strconv.Itoa(q.sim.Nodes) + " nodes at evenly spaced tokens (node 1 first), with a replication factor of " +
			strconv.Itoa(q.sim.RF) + ", which nodes hold the row key " + strconv.Quote(q.key) + "?",
		Format: "the nodes, separated by commas: node 2, node 3",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			kr, err := ring.PlaceKey(ctx, q.key, q.sim)
			if err != nil {
				return frame.Grade{}, err
			}
			var held []string
			for _, i := range kr.Replicas {
				held = append(held, kr.Nodes[i].Name)
			}
			given := frame.AnswerNames(answer)
			for i, n := range given {
				given[i] = nodeName(n)
			}
			return frame.Grade{Model: frame.NamesAnswer(held), Correct: frame.SameNames(frame.NamesAnswer(given), held, false),
				Explanation: kr.Partitioner + " gives " + strconv.Quote(q.key) + " the token " + kr.Token + " (" + strconv.FormatFloat(kr.Position*100, 'f', 1, 64) +
					"% of the way round the ring). The first replica is the node whose range holds it: the first node whose token is at or past the key's, " + held[0] +
					"; " + kr.Strategy + " puts the other replicas on the nodes that follow it round the ring: " + frame.NamesAnswer(held) + "."}, nil
		}}
}
