package social

import (
	"context"
	"fmt"
	"strings"

	"twissandra/domain"
	"twissandra/ports/oplog"
)

// The use cases say in the request's operation log (package oplog) what only they know of the
// calls below them, in the same words on every backend: a post's fan-out and a merged page's
// lines. The stores' own records above and below say how each model did it; the teaching views
// show both. A log that only counts (an API response) gets the verb alone.

// noteFanout says how many lines a post went to, and why (the fan-out plan).
func noteFanout(ctx context.Context, author string, lines int, plan Fanout, err error) {
	if !oplog.Detailed(ctx) {
		oplog.Record(ctx, oplog.Op{Kind: oplog.Note, Call: "fan-out"})
		return
	}
	failed := ""
	if err != nil {
		failed = " -> error"
	}
	oplog.Record(ctx, oplog.Op{Kind: oplog.Note, Call: "fan-out", Touched: fmt.Sprintf("%d lines", lines),
		Text: fmt.Sprintf("fan-out: the tweet went to %d lines in one Append: %s's userline, the public line, %s's timeline and %d followers' timelines; %s%s",
			lines, author, author, lines-3, plan, failed)})
}

// noteMerge says which lines a merged home page read, and how many slices it took.
func noteMerge(ctx context.Context, reader string, pulled []domain.Follow, slices, entries int) {
	if !oplog.Detailed(ctx) {
		oplog.Record(ctx, oplog.Op{Kind: oplog.Note, Call: "merge"})
		return
	}
	names := make([]string, len(pulled))
	for i, f := range pulled {
		names[i] = f.Username
	}
	oplog.Record(ctx, oplog.Op{Kind: oplog.Note, Call: "merge", Touched: fmt.Sprintf("%d lines", len(pulled)+1),
		Text: fmt.Sprintf("merge: %s's timeline and the userlines of the %d pulled authors %s follows (%s), newest first: %d slices for %d entries",
			reader, len(pulled), reader, strings.Join(names, ", "), slices, entries)})
}
