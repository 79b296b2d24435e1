package cql3

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

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
	switch {
	case oplog.Enabled(ctx) && !oplog.Detailed(ctx): // counted only: the verb is all it needs
		p := describe(q.Statement)
		oplog.Record(ctx, oplog.Op{Model: "cql3", Kind: p.kind, Call: p.verb})
	case oplog.Enabled(ctx):
		p, touched := describe(q.Statement), queryOutcome(q.Err, q.Rows, q.Attempt)
		oplog.Record(ctx, oplog.Op{Model: "cql3", Kind: p.kind, Call: p.verb, Family: p.table, Predicate: p.where, Touched: touched,
			Took: q.End.Sub(q.Start), Text: p.line + " -> " + touched})
	}
	if o.queries != nil {
		o.queries.ObserveQuery(ctx, q)
	}
}

func (o opsObserver) ObserveBatch(ctx context.Context, b gocql.ObservedBatch) {
	if oplog.Enabled(ctx) && !oplog.Detailed(ctx) {
		oplog.Record(ctx, oplog.Op{Model: "cql3", Kind: oplog.Write, Call: "BATCH"})
	} else if oplog.Enabled(ctx) {
		first := ""
		if len(b.Statements) > 0 {
			first = oneLine(b.Statements[0])
		}
		_, table, _ := statementParts(first)
		touched := queryOutcome(b.Err, -1, b.Attempt)
		oplog.Record(ctx, oplog.Op{Model: "cql3", Kind: oplog.Write, Call: "BATCH", Family: table, KeyCount: len(b.Statements), Touched: touched,
			Took: b.End.Sub(b.Start), Text: fmt.Sprintf("BATCH of %d: %s ... -> %s", len(b.Statements), first, touched)})
	}
	if o.batches != nil {
		o.batches.ObserveBatch(ctx, b)
	}
}

// parsedStatement is what a record says of a statement, worked out once per statement text:
// an application sends a few dozen prepared statements, over and over.
type parsedStatement struct {
	line, verb, table, where string
	kind                     oplog.Kind
}

var (
	parsedStatements sync.Map // statement text -> parsedStatement
	parsedCount      atomic.Int64
)

// maxParsedStatements bounds the cache: statements built on the fly (the inspector's, with a
// table's name in them) beyond it are parsed each time.
const maxParsedStatements = 1024

func describe(statement string) parsedStatement {
	if p, ok := parsedStatements.Load(statement); ok {
		return p.(parsedStatement)
	}
	p := parsedStatement{line: oneLine(statement), kind: oplog.Read}
	p.verb, p.table, p.where = statementParts(p.line)
	switch {
	case (p.verb == "INSERT" || p.verb == "UPDATE" || p.verb == "DELETE") && (strings.Contains(p.line, " IF NOT EXISTS") || strings.Contains(p.line, " IF ")):
		p.kind = oplog.LWT
	case p.verb != "SELECT": // a write, or a schema change (CREATE TABLE IF NOT EXISTS is no transaction)
		p.kind = oplog.Write
	}
	if parsedCount.Add(1) <= maxParsedStatements {
		parsedStatements.Store(statement, p)
	}
	return p
}

// statementParts reads a statement's verb, table and WHERE clause (for the structured record;
// the text stays whole beside them).
func statementParts(stmt string) (verb, table, where string) {
	f := strings.Fields(stmt)
	if len(f) == 0 {
		return "", "", ""
	}
	verb = strings.ToUpper(f[0])
	for i, w := range f {
		u := strings.ToUpper(w)
		if (u == "FROM" || u == "INTO" || (u == "UPDATE" && i == 0)) && i+1 < len(f) {
			table = strings.TrimSuffix(f[i+1], "(")
			break
		}
	}
	if _, after, ok := strings.Cut(stmt, " WHERE "); ok {
		where = after
	}
	return verb, table, where
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
