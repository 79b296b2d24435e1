package cql3

import (
	"context"
	"fmt"
	"strings"

	"github.com/gocql/gocql"

	"twissandra/ports/oplog"
)

// opsObserver records every statement the driver sends into the request's operations log (the
// pages' footer, the Storage-Ops header) when the query's context carries one, then passes the
// observation on. Bound values are never shown: they include password hashes.
type opsObserver struct {
	queries gocql.QueryObserver
	batches gocql.BatchObserver
}

func (o opsObserver) ObserveQuery(ctx context.Context, q gocql.ObservedQuery) {
	if oplog.Enabled(ctx) {
		oplog.Record(ctx, fmt.Sprintf("%s -> %s", oneLine(q.Statement), queryOutcome(q.Err, q.Rows, q.Attempt)))
	}
	if o.queries != nil {
		o.queries.ObserveQuery(ctx, q)
	}
}

func (o opsObserver) ObserveBatch(ctx context.Context, b gocql.ObservedBatch) {
	if oplog.Enabled(ctx) {
		first := ""
		if len(b.Statements) > 0 {
			first = oneLine(b.Statements[0])
		}
		oplog.Record(ctx, fmt.Sprintf("BATCH of %d: %s ... -> %s", len(b.Statements), first, queryOutcome(b.Err, -1, b.Attempt)))
	}
	if o.batches != nil {
		o.batches.ObserveBatch(ctx, b)
	}
}

// oneLine folds a statement's white space so it reads as one line.
func oneLine(stmt string) string {
	return strings.Join(strings.Fields(stmt), " ")
}

func queryOutcome(err error, rows, attempt int) string {
	s := "ok"
	switch {
	case err != nil:
		s = "error"
	case rows >= 0:
		s = fmt.Sprintf("%d rows", rows)
	}
	if attempt > 0 {
		s += fmt.Sprintf(" (retry %d)", attempt)
	}
	return s
}
