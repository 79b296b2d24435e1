package memory

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"twissandra/domain"
	"twissandra/ports/oplog"
)

// The memory store has nothing below its ports, so each of its port calls is what it records in
// the request's operation log (package oplog), as the widerow engine records its Thrift calls and
// the cql3 adapter the CQL statements: "slice line timeline:bob before=0 limit=41 -> 40 entries",
// the same words on every request, so a page shows what an action costs in calls.

// modelName names this store's records.
const modelName = "memory"

// describe counts a call of verb in the request's operation log, and reports whether the log
// wants it described as well: false without a log, and false when the log only counts (an API
// response that did not ask for its record), so that nothing is formatted for nobody.
func describe(ctx context.Context, kind oplog.Kind, verb string) bool {
	r := oplog.From(ctx)
	if r == nil {
		return false
	}
	if !oplog.Detailed(ctx) {
		r.Record(oplog.Op{Model: modelName, Kind: kind, Call: verb})
		return false
	}
	return true
}

// note records a call describe said to describe: its text (whose first word is the verb, the
// second the family of records it touched), marked when the call failed.
func note(ctx context.Context, kind oplog.Kind, err error, format string, args ...any) {
	noteText(ctx, kind, err, fmt.Sprintf(format, args...))
}

// noteText is note of a text built by the caller: the calls every page makes build theirs by
// hand, without fmt.
func noteText(ctx context.Context, kind oplog.Kind, err error, text string) {
	if err != nil {
		text += " -> error"
	}
	verb, rest, _ := strings.Cut(text, " ")
	family, _, _ := strings.Cut(rest, " ")
	oplog.Record(ctx, oplog.Op{Model: modelName, Kind: kind, Call: verb, Family: family, Text: text})
}

// itoa is strconv.Itoa of any integer.
func itoa[T ~int | ~int64](n T) string { return strconv.FormatInt(int64(n), 10) }

// lookup is the outcome of a get as its record shows it: found (1) or not (0), a not-found
// being an answer, not a failure.
func lookup(err error) (n int, failed error) {
	switch {
	case err == nil:
		return 1, nil
	case errors.Is(err, domain.ErrNotFound):
		return 0, nil
	}
	return 0, err
}
