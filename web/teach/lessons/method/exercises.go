package method

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// The design exercises: a table for an access pattern, four of the seeds' and two new
// features'. They sit in this lesson, not in query-first, because the method is what grades
// them: the mapping rules give the key, and the partition's values (Nv) say whether it grows
// without bound. On a node (cql3, or compare mode's) the learner writes the CREATE TABLE and the
// SELECT and the node runs them (teaching.QueryLab.TryDesign); elsewhere the learner chooses
// the key, and the rules grade it.

// designFormat is how a design is written on a node.
const designFormat = "CQL: CREATE TABLE t (…every column of the pattern with its type…, PRIMARY KEY (…)) [WITH CLUSTERING ORDER BY (…)]; SELECT * FROM t WHERE … [ORDER BY …] [LIMIT n] (values as ?; the lab names the table and binds the pattern's sample)"

// keyFormat is how a key is chosen without a node.
const keyFormat = "partition: col, col; clustering: col desc, col asc (the clustering part optional)"

// onCompareNode is the context of a grading in compare mode, when the node is the second
// model's (nodeModel, beside primary without CQL): its statements go to that model's side of
// the footer, as the query-first lesson's keys do; any other context as it is.
func onCompareNode(primary, nodeModel string) func(context.Context) context.Context {
	return func(ctx context.Context) context.Context {
		if primary == "cql3" || nodeModel != "cql3" {
			return ctx
		}
		if l := oplog.LogFrom(ctx); l != nil {
			l.Record(oplog.Op{Model: primary, Kind: oplog.Note, Call: "querylab", Text: "querylab: the design is graded on " +
				nodeModel + ", compare mode's second model: " + primary + " has no CQL"})
			return oplog.With(ctx, l.Shadow(nodeModel))
		}
		return ctx
	}
}

func exercises(lab teaching.QueryLab, onNode bool, gate *frame.Gate, node func(context.Context) context.Context) []frame.Exercise {
	if lab == nil {
		return nil
	}
	var out []frame.Exercise
	for i, p := range teaching.DesignPatterns() {
		e := frame.Exercise{ID: fmt.Sprintf("design-%d", i+1), Kind: frame.Design, Gate: gate}
		cols := make([]string, len(p.Columns))
		for j, c := range p.Columns {
			cols[j] = c.Name + " " + c.Type + " (" + roleWords(c.Role) + ")"
		}
		e.Prompt = "Design a table for " + p.What + ". Its columns: " + strings.Join(cols, ", ") + "."
		if onNode {
			e.Format = designFormat
			e.Prompt += " Write its CREATE TABLE and the query: the node makes the table in the query lab's keyspace, fills it with the pattern's rows, and runs the query."
			e.Grade = func(ctx context.Context, answer string) (frame.Grade, error) {
				return gradeDesign(node(ctx), lab, p, answer)
			}
		} else {
			e.Format = keyFormat
			e.Prompt += " Choose its partition key and clustering columns, with their order. (On a cql3 node this exercise takes the CREATE TABLE and the query, and the node grades them.)"
			e.Grade = func(_ context.Context, answer string) (frame.Grade, error) { return gradeKey(p, answer) }
		}
		out = append(out, e)
	}
	return out
}

func roleWords(r teaching.ColumnRole) string {
	switch r {
	case teaching.Given:
		return "the query gives its value"
	case teaching.Bucket:
		return "a day bucket"
	case teaching.Constant:
		return "one value for every row"
	case teaching.Ordered:
		return "the order asked"
	}
	return "the query knows nothing of it"
}

// rulesWhy says how the mapping rules give p's key.
func rulesWhy(p teaching.KeyPattern) string {
	k := teaching.RulesKey(p)
	return "The mapping rules: the columns the query names by equality make the partition key (" + strings.Join(k.Partition, ", ") +
		"), the order it asks makes the clustering columns, then the columns that make a row unique: " + k.String() + "."
}

// gradeKey grades a chosen key by the method's rules.
func gradeKey(p teaching.KeyPattern, answer string) (frame.Grade, error) {
	k, err := teaching.ParseKeyChoice(p.ID, answer)
	if err != nil {
		return frame.Grade{}, err
	}
	rules := teaching.RulesKey(p)
	g := frame.Grade{Correct: k.String() == rules.String(), Model: rules.ChoiceText()}
	g.Explanation = rulesWhy(p) + " Yours: " + k.String() + ". On a cql3 node the same exercise takes the CREATE TABLE and the query, and the node grades them."
	return g, nil
}

// gradeDesign runs a design on the node and grades what it did: the query must read the
// partitions it names (no ALLOW FILTERING, no scan), bring the rows the pattern wants in its
// order, and no partition may hold every row of the table (Nv growing with every row).
func gradeDesign(ctx context.Context, lab teaching.QueryLab, p teaching.KeyPattern, answer string) (frame.Grade, error) {
	d, err := teaching.ParseDesign(p.ID, answer)
	if err != nil {
		return frame.Grade{}, err
	}
	t, err := lab.TryDesign(ctx, frame.ScratchSession(), d)
	if errors.Is(err, teaching.ErrTooManyTrials) {
		// The lab's bounds over the cluster: the learner may try again in a while.
		return frame.Grade{}, &domain.RetryError{After: time.Minute, Message: err.Error()}
	}
	if err != nil {
		return frame.Grade{}, err
	}
	var wrong []string
	switch t.Outcome {
	case teaching.NeedsFiltering:
		wrong = append(wrong, fmt.Sprintf("it needed ALLOW FILTERING: the node refused it (%s), then read all %d partitions to filter them", t.Message, t.Partitions))
	case teaching.EveryPartition:
		wrong = append(wrong, fmt.Sprintf("it names no partition: it read every partition, all %d", t.Partitions))
	case teaching.Refused:
		wrong = append(wrong, "the node refused it: "+t.Message)
	}
	if t.Outcome != teaching.Refused && t.Rows != t.Want {
		wrong = append(wrong, fmt.Sprintf("it returned %d rows, the pattern wants %d", t.Rows, t.Want))
	}
	if !t.InOrder {
		wrong = append(wrong, "the rows did not come in the order asked ("+map[bool]string{true: "newest first", false: "oldest first"}[p.Desc]+")")
	}
	nc, npk := int64(len(p.Columns)), int64(len(d.Key.Partition)+len(d.Key.Clustering))
	if hot(p, d.Key) {
		wrong = append(wrong, fmt.Sprintf("its partition key holds one value for every row: one partition holds the whole table, Nv = Nr × (Nc − Npk − Ns) + Ns = %d × %d = %d values for these %d rows, growing with every row without bound",
			t.Rows, nc-npk, cellsOf(int64(t.Rows), nc, npk, 0), t.Rows))
	}
	g := frame.Grade{Correct: len(wrong) == 0, Model: teaching.DesignText(p, teaching.RulesKey(p))}
	g.Explanation = fmt.Sprintf("The node made %s.%s with %s, and ran your query: %s on %d of %d partitions, %d rows.", t.Keyspace, t.Table, d.Key, t.Outcome, t.Partitions, t.Held, t.Rows)
	if len(wrong) > 0 {
		g.Explanation += " Not right: " + strings.Join(wrong, "; ") + "."
	}
	g.Explanation += " " + rulesWhy(p)
	return g, nil
}

// hot says whether every column of k's partition key holds one value for every row.
func hot(p teaching.KeyPattern, k teaching.KeyChoice) bool {
	for _, name := range k.Partition {
		if c, _ := p.Column(name); c.Role != teaching.Constant {
			return false
		}
	}
	return true
}
