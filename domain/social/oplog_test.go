package social

import (
	"context"
	"strings"
	"testing"

	"twissandra/domain"
	"twissandra/ports/oplog"
)

// The notes' verbs are plain words: a summary counts them as "fan-out=1" and "merge=1", in a
// page's detailed log and in an API response's brief one alike.
func TestNotesCountByPlainVerb(t *testing.T) {
	t.Parallel()
	for _, brief := range []bool{false, true} {
		log := oplog.NewLog(brief)
		ctx := oplog.With(context.Background(), log)
		noteFanout(ctx, "ann", 5, Fanout{Followers: 2, Threshold: 10}, nil)
		noteMerge(ctx, "bob", []domain.Follow{{Username: "star"}}, MergeStats{Slices: 2, Entries: 40})
		if got, want := log.Summary(), "2 ops: fan-out=1 merge=1"; got != want {
			t.Errorf("brief=%v: summary %q, want %q", brief, got, want)
		}
		if ops, _ := log.Ops(); !brief && (len(ops) != 2 || !strings.HasPrefix(ops[0].Text, "fan-out: the tweet went to 5 lines") ||
			!strings.HasPrefix(ops[1].Text, "merge: bob's timeline")) {
			t.Errorf("the notes' texts: %+v", ops)
		}
	}
}
