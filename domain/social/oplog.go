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

// noteMerge says which lines a merged home page read, how many slices it took, and how many
// pulled authors the server's heads answered (heads.go) or the page's window skipped.
func noteMerge(ctx context.Context, reader string, pulled []domain.Follow, st MergeStats) {
	if !oplog.Detailed(ctx) {
		oplog.Record(ctx, oplog.Op{Kind: oplog.Note, Call: "merge"})
		return
	}
	const named = 20
	names := make([]string, 0, min(len(pulled), named+1))
	for i, f := range pulled {
		if i == named {
			names = append(names, fmt.Sprintf("and %d more", len(pulled)-named))
			break
		}
		names = append(names, f.Username)
	}
	heads := ""
	if st.FromHeads+st.HeadsRead+st.Skipped > 0 {
		heads = fmt.Sprintf("; of the %d pulled authors, %d from the server's heads (not read), %d heads read (missing or older than the bound), %d skipped (nothing as new as the page's entries: never looked at)",
			len(pulled), st.FromHeads, st.HeadsRead, st.Skipped)
	}
	oplog.Record(ctx, oplog.Op{Kind: oplog.Note, Call: "merge", Touched: fmt.Sprintf("%d lines", len(pulled)+1),
		Text: fmt.Sprintf("merge: %s's timeline and the userlines of the %d pulled authors %s follows (%s), newest first: %d slices for %d entries%s",
			reader, len(pulled), reader, strings.Join(names, ", "), st.Slices, st.Entries, heads)})
}
