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

// firstQuestion asks which of a few keys lies first on the ring, from the partitioner's
// start: its grader places each key on the running backend's ring (MD5 on widerow, Murmur3 on
// cql3) and the smallest token is the right answer. Another partitioner, or other keys, and
// the answer changes.
type firstQuestion struct {
	id   string
	keys []string
}

var firstQuestions = []firstQuestion{
	{id: "tokens-2", keys: []string{"jericevans", "ericflo", "ann", "bob"}},
}

// exercises are the lesson's, on a store with a ring (memory has none to ask of): the
// replicas' questions where the ring is simulated (a cluster's real ring has the replication
// its keyspace has, not the question's), the order of keys on any ring.
func exercises(ring teaching.Ring, gate *frame.Gate) []frame.Exercise {
	if ring == nil {
		return nil
	}
	kr, err := ring.PlaceKey(context.Background(), replicasQuestions[0].key, replicasQuestions[0].sim)
	if err != nil {
		return nil
	}
	var out []frame.Exercise
	if kr.Simulated {
		for _, q := range replicasQuestions {
			out = append(out, q.exercise(ring))
		}
	}
	for _, q := range firstQuestions {
		out = append(out, q.exercise(ring))
	}
	for i := range out {
		out[i].Gate = gate
	}
	return out
}

func (q firstQuestion) exercise(ring teaching.Ring) frame.Exercise {
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Choices: q.keys,
		Prompt: "On this server's ring (the one this lesson draws, with this backend's partitioner), which of the row keys " + strings.Join(q.keys, ", ") +
			" has the smallest token, the first from the ring's start?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			var first teaching.KeyRing
			var tokens []string
			for i, k := range q.keys {
				kr, err := ring.PlaceKey(ctx, k, teaching.RingSim{Nodes: defaultSimNodes})
				if err != nil {
					return frame.Grade{}, err
				}
				if i == 0 || kr.Position < first.Position {
					first = kr
				}
				tokens = append(tokens, strconv.Quote(k)+" "+kr.Token+" ("+strconv.FormatFloat(kr.Position*100, 'f', 1, 64)+"%)")
			}
			return frame.Grade{Model: first.Key, Correct: answer == first.Key,
				Explanation: first.Partitioner + " gives the keys the tokens " + strings.Join(tokens, ", ") + ": " + strconv.Quote(first.Key) +
					" lies first round the ring. A token is a hash of the key, not the key: the order of the names says nothing of where they lie, and another partitioner (MD5 on 0.6, Murmur3 on CQL3) puts them in another order."}, nil
		}}
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
