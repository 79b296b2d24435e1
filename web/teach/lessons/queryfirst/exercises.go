package queryfirst

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// The lesson's questions are the key picker's, asked before it is tried: the query lab's node
// (teaching.QueryLab) makes a scratch table so keyed, fills it with the lab's rows, runs the
// pattern's query, and what it made of it is the right answer. Without a node (memory,
// widerow), the choice of a key is graded by the method's rules, and the exercise says the node
// grades it; the count of partitions, which only a node can measure, is not asked.

// keyQuestion asks for the primary key of pattern's table among choices.
type keyQuestion struct {
	id      string
	pattern string
	choices []teaching.KeyChoice
}

// partitionsQuestion asks how many partitions the pattern's query reads on a table keyed key.
type partitionsQuestion struct {
	id  string
	key teaching.KeyChoice
}

var (
	pickKey = keyQuestion{id: "queryfirst-1", pattern: "userline", choices: []teaching.KeyChoice{
		{Pattern: "userline", Partition: []string{"time"}, Clustering: []teaching.ClusteringChoice{{Column: "username"}}},
		{Pattern: "userline", Partition: []string{"username"}, Clustering: []teaching.ClusteringChoice{{Column: "time", Desc: true}}},
		{Pattern: "userline", Partition: []string{"username", "time"}},
	}}
	readParts = partitionsQuestion{id: "queryfirst-2",
		key: teaching.KeyChoice{Pattern: "public", Partition: []string{"day"}, Clustering: []teaching.ClusteringChoice{{Column: "time", Desc: true}}}}
)

// exercises are the lesson's; gate bounds their gradings that try keys on the node, with the
// key picker's form.
func exercises(h *labs.Handler, gate *frame.Gate) []frame.Exercise {
	if h.Deps.QueryLab == nil {
		return nil
	}
	onNode := h.QueryLabOnNode()
	if !onNode {
		gate = nil
	}
	pick := pickKey.exercise(h, onNode)
	pick.Gate = gate
	out := []frame.Exercise{pick}
	if onNode {
		e := readParts.exercise(h)
		e.Gate = gate
		out = append(out, e)
	}
	return out
}

func (q keyQuestion) exercise(h *labs.Handler, onNode bool) frame.Exercise {
	p, _ := teaching.LookupPattern(q.pattern)
	choices := make([]string, len(q.choices))
	for i, k := range q.choices {
		choices[i] = k.String()
	}
	prompt := "The access pattern " + p.Query + ", " + p.What + ", reads a table of the columns " + columnsOf(p) +
		". Which primary key lets its query read one partition, its rows in the order asked?"
	if !onNode {
		prompt += " Here no node grades it: the method's rules do (the query names the partition key whole, by equality; the order asked is the first clustering column's). On cql3, or in compare mode with cql3, the query lab's node grades it by running the query, and the key picker below takes any key."
	}
	return frame.Exercise{ID: q.id, Kind: frame.Choose, Prompt: prompt, Choices: choices,
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			i := slices.Index(choices, answer)
			if i < 0 {
				return frame.Grade{}, domain.Invalid("answer", "%q is not one of the choices", answer)
			}
			if !onNode {
				return q.byRules(ctx, h, p, i), nil
			}
			return q.onNode(ctx, h, i)
		}}
}

// onNode tries the learner's key on the node, then, when it is not right, the other choices in
// order until one is: the first the node reads in one partition is the model answer.
func (q keyQuestion) onNode(ctx context.Context, h *labs.Handler, i int) (frame.Grade, error) {
	ctx = h.QueryLabContext(ctx)
	tried := map[int]teaching.KeyTrial{}
	try := func(j int) (bool, error) {
		t, err := tryKey(ctx, h, q.choices[j])
		tried[j] = t
		return err == nil && t.Outcome == teaching.OnePartition, err
	}
	ok, err := try(i)
	if err != nil {
		return frame.Grade{}, err
	}
	model := i
	for j := 0; !ok && j < len(q.choices); j++ {
		if j == i {
			continue
		}
		if ok, err = try(j); err != nil {
			return frame.Grade{}, err
		}
		model = j
	}
	if !ok {
		return frame.Grade{}, errors.New("query lab: no choice reads one partition")
	}
	why := "The query lab made a table of each key tried, filled it with its rows and ran the query:"
	for j := range q.choices {
		if t, ok := tried[j]; ok {
			why += " " + q.choices[j].String() + " → " + trialSays(t) + ";"
		}
	}
	why = strings.TrimSuffix(why, ";") + ". The query names the user by equality: that column alone is the partition key, and the order it asks for is its first clustering column's."
	return frame.Grade{Model: q.choices[model].String(), Correct: model == i, Explanation: why}, nil
}

// byRules grades choice i by the method's rules, where no node can run the query: a note in
// the log says so (it cost the store nothing).
func (q keyQuestion) byRules(ctx context.Context, h *labs.Handler, p teaching.KeyPattern, i int) frame.Grade {
	if r := oplog.From(ctx); r != nil {
		r.Record(oplog.Op{Model: h.Deps.Backend, Kind: oplog.Note, Call: "querylab", Text: "querylab: " + h.Deps.Backend +
			" has no CQL: the key is graded by the method's rules, not run on a node"})
	}
	model, why := -1, "By the method's rules:"
	for j, k := range q.choices {
		ok, says := ruleOf(p, k)
		if ok && model < 0 {
			model = j
		}
		why += " " + k.String() + " → " + says + ";"
	}
	why = strings.TrimSuffix(why, ";") + ". On cql3 the query lab's node runs the query on each key tried."
	return frame.Grade{Model: q.choices[model].String(), Correct: model == i, Explanation: why}
}

// ruleOf is the method's verdict on k for p's query: the equality searches make the partition
// key (a column the query does not name there means a scan), the order asked the first
// clustering column.
func ruleOf(p teaching.KeyPattern, k teaching.KeyChoice) (bool, string) {
	for _, name := range k.Partition {
		if c, _ := p.Column(name); c.Role != teaching.Given && c.Role != teaching.Constant {
			return false, "the query names no " + name + ": Cassandra would refuse it without ALLOW FILTERING, then read every partition"
		}
	}
	for _, c := range p.Columns {
		if c.Role == teaching.Ordered && (len(k.Clustering) == 0 || k.Clustering[0].Column != c.Name) {
			return false, "one partition, but Cassandra orders a partition's rows by its first clustering column only, and the query asks for " + c.Name + "'s order"
		}
	}
	return true, "one partition, its rows in the order asked"
}

func (q partitionsQuestion) exercise(h *labs.Handler) frame.Exercise {
	p, _ := teaching.LookupPattern(q.key.Pattern)
	return frame.Exercise{ID: q.id, Kind: frame.Predict, Format: "a whole number",
		Prompt: "The query lab fills a table of " + p.What + " (" + p.Query + ") with a few days of tweets and keys it " + q.key.String() +
			". The query of the days it holds, newest first, names each day it reads. How many partitions does it read?",
		Grade: func(ctx context.Context, answer string) (frame.Grade, error) {
			n, err := frame.AnswerInt(answer)
			if err != nil {
				return frame.Grade{}, err
			}
			t, err := tryKey(h.QueryLabContext(ctx), h, q.key)
			if err != nil {
				return frame.Grade{}, err
			}
			return frame.Grade{Model: strconv.Itoa(t.Partitions), Correct: n == t.Partitions,
				Explanation: "The node ran it on the lab's table (" + lastQuery(t) + "): " + trialSays(t) +
					". A partition key of buckets splits a line that would grow for ever; the price is a partition read per bucket the query names."}, nil
		}}
}

// tryKey tries k on the query lab for one grading. The exercise's gate counts the learner's
// gradings, as the lab's limit counts the key picker's trials; a busy lab is a 429.
func tryKey(ctx context.Context, h *labs.Handler, k teaching.KeyChoice) (teaching.KeyTrial, error) {
	t, err := h.Deps.QueryLab.TryKey(ctx, frame.ScratchSession(), k)
	return t, labs.QueryLabError(err)
}

// trialSays is what the node made of a trial: its outcome, the partitions read and the rows.
func trialSays(t teaching.KeyTrial) string {
	s := string(t.Outcome) + ", " + strconv.Itoa(t.Partitions) + " of the table's " + strconv.Itoa(t.Held) + " partitions read, " + strconv.Itoa(t.Rows) + " rows"
	if t.Message != "" {
		s += " (Cassandra: " + t.Message + ")"
	}
	return s
}

// lastQuery is the trial's last statement that read (the query, with ALLOW FILTERING when the
// lab had to add it).
func lastQuery(t teaching.KeyTrial) string {
	for i := len(t.Statements) - 1; i >= 0; i-- {
		if t.Statements[i].Rows >= 0 {
			return t.Statements[i].CQL
		}
	}
	return "no query ran"
}

// columnsOf is the pattern's columns and what its query knows of each.
func columnsOf(p teaching.KeyPattern) string {
	var out []string
	for _, c := range p.Columns {
		out = append(out, c.Name+" ("+string(c.Role)+")")
	}
	return strings.Join(out, ", ")
}
