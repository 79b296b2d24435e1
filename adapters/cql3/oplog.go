package cql3

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2"

	"twissandra/ports/oplog"
)

// opsObserver records every statement the driver sends into the request's operations log (the
// pages' footer, the Storage-Ops header) when the query's context carries one, then passes the
// observation on. Bound values are never shown: they include password hashes.
//
// Each record names the consistency level the statement carried and the coordinator that
// answered it (the host the driver sent it to). The driver's observation carries the host but
// not the level: a statement runs at the session's level (consistency; a lightweight
// transaction's Paxos round at serial), and the few the adapter sends at another level carry
// an observer of their own that says so (Store.AtLevel).
type opsObserver struct {
	queries gocql.QueryObserver
	batches gocql.BatchObserver
	// consistency and serial are the session's levels; fixed, when set, is the level of the
	// statements this observer is attached to.
	consistency gocql.Consistency
	serial      gocql.SerialConsistency
	fixed       string
}

// levelOf is the consistency level a statement of kind ran at: a lightweight transaction's is
// its commit's level and its Paxos round's ("LOCAL_QUORUM/LOCAL_SERIAL").
func (o opsObserver) levelOf(kind oplog.Kind) string {
	switch {
	case o.fixed != "":
		return o.fixed
	case o.consistency == 0 && o.serial == 0: // an observer made without the session's levels
		return ""
	case kind == oplog.LWT:
		return o.consistency.String() + "/" + o.serial.String()
	}
	return o.consistency.String()
}

// coordinator is the address of the host that answered, or "".
func coordinator(h *gocql.HostInfo) string {
	if h == nil {
		return ""
	}
	return h.ConnectAddressAndPort()
}

func (o opsObserver) ObserveQuery(ctx context.Context, q gocql.ObservedQuery) {
	switch {
	case oplog.Enabled(ctx) && !oplog.Detailed(ctx): // counted only: the verb is all it needs
		p := describe(q.Statement)
		oplog.Record(ctx, oplog.Op{Model: "cql3", Kind: p.kind, Call: p.verb})
	case oplog.Enabled(ctx):
		p := describe(q.Statement)
		rows := q.Rows
		if p.verb != "SELECT" { // a write returns no rows to count (an LWT one, whether it applied)
			rows = -1
		}
		touched := queryOutcome(q.Err, rows, q.Attempt)
		oplog.Record(ctx, oplog.Op{Model: "cql3", Kind: p.kind, Call: p.verb, Family: p.table, Predicate: p.where, Touched: touched,
			Took: q.End.Sub(q.Start), Consistency: o.levelOf(p.kind), Coordinator: coordinator(q.Host), Text: p.line + " -> " + touched})
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
		level := oplog.Write
		for _, st := range b.Statements {
			if describe(st).kind == oplog.LWT {
				level = oplog.LWT // a conditional batch: a Paxos round, then the commit
				break
			}
		}
		oplog.Record(ctx, oplog.Op{Model: "cql3", Kind: oplog.Write, Call: "BATCH", Family: table, KeyCount: len(b.Statements), Touched: touched,
			Took: b.End.Sub(b.Start), Consistency: o.levelOf(level), Coordinator: coordinator(b.Host), Text: fmt.Sprintf("BATCH of %d: %s ... -> %s", len(b.Statements), first, touched)})
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

// queryOutcome is how a statement ended: "error", the rows a SELECT returned, or "ok" (rows < 0:
// a write, acknowledged); and its retry, if it was one.
func queryOutcome(err error, rows, attempt int) string {
	s := "ok"
	switch {
	case err != nil:
		s = "error"
	case rows == 1:
		s = "1 row"
	case rows >= 0:
		s = fmt.Sprintf("%d rows", rows)
	}
	if attempt > 0 {
		s += fmt.Sprintf(" (retry %d)", attempt)
	}
	return s
}

// atSerial makes q read at the session's serial level (which completes any Paxos round in
// flight), and has its record say so.
func (s *Store) atSerial(q *gocqlx.Queryx) *gocqlx.Queryx {
	q.Consistency(gocql.Consistency(s.cfg.serial))
	q.Observer(opsObserver{queries: s.cfg.QueryObserver, fixed: s.cfg.serial.String()}) // a Consistency's name for it is UNKNOWN_CONS_0x8
	return q
}

// AtLevel sends q at consistency level cl instead of the session's, and has its record name
// cl: the driver's observation does not carry the level a query set for itself, so the query
// carries an observer that knows it.
func (s *Store) AtLevel(q *gocqlx.Queryx, cl gocql.Consistency) *gocqlx.Queryx {
	q.Consistency(cl)
	q.Observer(opsObserver{queries: s.cfg.QueryObserver, fixed: cl.String()})
	return q
}
