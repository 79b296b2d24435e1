package cql3

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// The lesson's questions: in which order the rows of a followers partition come back (on every
// backend: its grader reads the partition as the lesson's "As CQL3 rows" does, on the running
// node or built from the running store's follows, and a new follower changes the answer), and how many partitions a query reads on a table
// keyed the other way round (its grader runs it on the query lab's node).

// orderShown is how many rows of the followers partition the order question reads.
const orderShown = 3

// scanKey is the followers table keyed by the follower, which the query of a user's followers
// does not name.
var scanKey = teaching.KeyChoice{Pattern: "followers", Partition: []string{"follower"}, Clustering: []teaching.ClusteringChoice{{Column: "username"}}}

func exercises(h *handler) []frame.Exercise {
	var out []frame.Exercise
	out = append(out, frame.Exercise{ID: "cql3-1", Kind: frame.Predict,
		Format: "the followers' usernames in the order returned, separated by commas (\"none\" for none)",
		Prompt: "The followers table is keyed PRIMARY KEY (username, follower). Take the author of the newest tweet on this server's public line: SELECT follower FROM followers WHERE username = <author> LIMIT " +
			strconv.Itoa(orderShown) + ". Which followers come back, in order?",
		Grade: h.gradeOrder})
	if h.QueryLabOnNode() {
		out = append(out, frame.Exercise{ID: "cql3-2", Kind: frame.Predict, Format: "a whole number", Gate: h.RunGate("key trial"),
			Prompt: "The query lab fills a table of follows (a few users, each with followers) and keys it " + scanKey.String() +
				". The query of who follows one user names the user, not the follower. How many partitions does it read?",
			Grade: h.gradeScan})
	}
	return out
}

func (h *handler) gradeOrder(ctx context.Context, answer string) (frame.Grade, error) {
	page, err := h.Deps.Social.PublicLine(ctx, "", 1)
	if err != nil {
		return frame.Grade{}, err
	}
	if len(page.Tweets) == 0 {
		return frame.Grade{}, fmt.Errorf("no tweet on this server yet: post one, then answer: %w", domain.ErrNotFound)
	}
	author := page.Tweets[0].Username
	var count int64 // the static column, which only the rows built without a node need
	if h.Deps.CQL == nil {
		f, err := h.Deps.Social.FanoutOf(ctx, author)
		if err != nil {
			return frame.Grade{}, err
		}
		count = f.Followers
	}
	rows, live, err := h.followerRows(ctx, author, count, orderShown)
	if err != nil {
		return frame.Grade{}, err
	}
	var names []string
	for _, row := range rows {
		for _, c := range row {
			if c.Name == "follower" && !c.Null {
				names = append(names, unquote(c.Value))
			}
		}
	}
	return frame.Grade{Model: frame.NamesAnswer(names), Correct: frame.SameNames(answer, names, true),
		Explanation: fmt.Sprintf(from[live], author, frame.NamesAnswer(names)) + ". A partition's rows are stored and returned in the order of its clustering column, follower: text, compared as its UTF-8 bytes (uppercase before lowercase, \"bob10\" before \"bob9\"), whatever order the follows came in; the partition key, username, only says which partition."}, nil
}

// from says where the rows of the order question came from, by followerRows' source.
var from = map[string]string{
	"cql3":  "The node read @%s's partition of followers (as the lesson's \"As CQL3 rows\" does): it returned %s",
	"built": "No node runs here: the running store listed every follower of @%s, sorted as the followers table holds them (as the lesson's \"As CQL3 rows\" does); its first rows are %s",
}

func (h *handler) gradeScan(ctx context.Context, answer string) (frame.Grade, error) {
	n, err := frame.AnswerInt(answer)
	if err != nil {
		return frame.Grade{}, err
	}
	t, err := h.Deps.QueryLab.TryKey(h.QueryLabContext(ctx), frame.ScratchSession(), scanKey)
	if err != nil {
		return frame.Grade{}, labs.QueryLabError(err)
	}
	q := "no query ran"
	for _, s := range t.Statements {
		if s.Rows >= 0 {
			q = s.CQL
		}
	}
	why := "The node ran it on the lab's table (" + q + "): " + string(t.Outcome) + ", " + strconv.Itoa(t.Partitions) + " of the table's " + strconv.Itoa(t.Held) + " partitions read"
	if t.Message != "" {
		why += " (Cassandra refused it first: " + t.Message + ")"
	}
	return frame.Grade{Model: strconv.Itoa(t.Partitions), Correct: n == t.Partitions,
		Explanation: why + ". A query that does not name the partition key cannot know where the rows are: it reads every partition, and Cassandra asks for ALLOW FILTERING to say so."}, nil
}

// unquote is a text value as CQL writes it ('ann'), unquoted.
func unquote(v string) string {
	if len(v) >= 2 && strings.HasPrefix(v, "'") && strings.HasSuffix(v, "'") {
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	return v
}
