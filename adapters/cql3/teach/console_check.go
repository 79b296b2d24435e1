package teach

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// The CQL console's sandbox: what a parsed statement may name, and the statement the node gets
// instead. The learner's tables are in the console's keyspace (ConsoleKeyspace), each named
// s<id>_<name> with <id> a hash of the learner's sandbox: the learner types sandbox.<name> or
// <name>, and no name they type can come out as anything else. The application's tables are
// read, by SELECT only, and a column holding a secret never.

// ConsoleSandboxKeyspace is the keyspace name every learner types for their own tables.
const ConsoleSandboxKeyspace = "sandbox"

// consoleNameMax is the longest table name a learner may give: Cassandra's 48 characters less
// the sandbox's prefix "s<10 hex>_".
const consoleNameMax = 48 - 12

// ConsoleKeyspace is the keyspace of the CQL console's sandboxes beside keyspace: its name and
// "_console", cut to CQL's 48 characters.
func ConsoleKeyspace(keyspace string) string {
	const suffix = "_console"
	return keyspace[:min(len(keyspace), 48-len(suffix))] + suffix
}

// sandboxID names a sandbox in storage: a hash of the learner's name, never the name itself.
func sandboxID(sandbox string) string {
	sum := sha256.Sum256([]byte("cql console sandbox\x00" + sandbox))
	return hex.EncodeToString(sum[:5])
}

// realName is the table (or index) of the console's keyspace that a sandbox's name stands for.
func realName(id, name string) string { return "s" + id + "_" + name }

// consoleHidden are the application's tables the console reads, each with the columns it never
// shows: a password hash (users.password), a commenter's e-mail address (comments.email), the
// browser id that owns a race's name (race_names.owner, the id of a learner's session). Tables
// not listed here are never read: the log-in attempts (login_attempts: usernames and client
// addresses), the sessions ended before their time (ended_sessions: session ids), the action
// ledger (action_records: keyed by a browser's session), the learners' progress
// (course_progress), the instructor's classes and each learner's last action (class_members,
// class_activity), the migrations' bookkeeping (gocqlx_migrate, schema_lease), and any table a
// later migration adds until it is listed here (TestConsoleReadsNoSecret asks for each).
var consoleHidden = map[string][]string{
	"users":          {"password"},
	"friends":        nil,
	"followers":      nil,
	"tweets":         nil,
	"userline":       nil,
	"timeline":       nil,
	"public_line":    nil,
	"public_days":    nil,
	"pulled_authors": nil,
	"authors":        nil,
	"blog_entries":   nil,
	"tagged_posts":   nil,
	"comments":       {"email"},
	"race_names":     {"owner"},
}

// consoleUnreadable are the application's tables the console never reads, with why.
var consoleUnreadable = map[string]string{
	"login_attempts":  "it holds the log-in attempts (usernames and client addresses)",
	"ended_sessions":  "it holds session ids",
	"action_records":  "it holds what each browser's session did",
	"course_progress": "it holds each learner's progress",
	"class_members":   "it holds the instructor's classes and their accounts",
	"class_activity":  "it holds each learner's last action, for the instructor's roster",
	"gocqlx_migrate":  "it is the migrations' own record, not the application's data",
	"schema_lease":    "it is the migrations' own lock, not the application's data",
}

// consoleEnv is what checking a statement needs to know: the sandbox, the keyspaces, and the
// readable columns of the application's tables.
type consoleEnv struct {
	id          string // sandboxID
	appKeyspace string
	keyspace    string // ConsoleKeyspace
	// columns are a readable application table's columns, in the schema's order (nil: the
	// table does not exist).
	columns func(table string) []string
}

// consolePlan is a checked statement: what to send the node, and what the console knows of it.
type consolePlan struct {
	st  *cqlStmt
	cql string // the statement for the node ("" for the console's own)
	// app is set when the statement reads an application table.
	app bool
	// table is the sandbox table a statement names, as the learner names it; real its name in
	// the console's keyspace.
	table, real string
	// index is an index's name (CREATE INDEX, DROP INDEX) in the sandbox; realIndex the node's.
	index, realIndex string
	// note says what the console changed ("*" without the hidden columns).
	note string
	// schema says the statement changes the schema (counted in the cluster's budget).
	schema bool
}

// allowedHint says what a statement may name.
func (e consoleEnv) allowedHint() string {
	return fmt.Sprintf("the console reaches your own tables (%s.<table>, or <table>) and reads the application's (%s.<table>)", ConsoleSandboxKeyspace, e.appKeyspace)
}

// plan checks a parsed statement and makes the node's statement of it.
func (e consoleEnv) plan(st *cqlStmt) (consolePlan, error) {
	pl := consolePlan{st: st}
	switch st.Verb {
	case "TRACING", "CONSISTENCY":
		return pl, nil
	case "USE":
		if st.Arg != ConsoleSandboxKeyspace {
			return pl, &notAllowedError{fmt.Sprintf("USE %s: the console is in your keyspace, %s, always; name the application's tables whole (%s.<table>)", st.Arg, ConsoleSandboxKeyspace, e.appKeyspace)}
		}
		return pl, nil
	case "DESCRIBE":
		switch st.Arg {
		case "TABLES":
			return pl, nil
		case "KEYSPACE":
			if ks := st.Table.Keyspace; ks != "" && ks != ConsoleSandboxKeyspace {
				return pl, &notAllowedError{fmt.Sprintf("DESCRIBE KEYSPACE describes your sandbox (%s), not %s", ConsoleSandboxKeyspace, ks)}
			}
			return pl, nil
		}
	case "BATCH":
		var parts []string
		for _, in := range st.Batch {
			ip, err := e.plan(in)
			if err != nil {
				return pl, err
			}
			parts = append(parts, ip.cql+";")
		}
		head := &cqlStmt{Pieces: st.Pieces[:len(st.Pieces)-2]}
		pl.cql = head.render("", "") + " " + strings.Join(parts, " ") + " APPLY BATCH"
		return pl, nil
	}
	ref := st.Table
	switch ref.Keyspace {
	case "", ConsoleSandboxKeyspace:
		return e.planSandbox(pl, st)
	case e.appKeyspace:
		return e.planApp(pl, st)
	}
	return pl, &notAllowedError{fmt.Sprintf("%s is not yours: %s", ref, e.allowedHint())}
}

// planSandbox maps a statement on the learner's own table.
func (e consoleEnv) planSandbox(pl consolePlan, st *cqlStmt) (consolePlan, error) {
	name := st.Table.Name
	if st.Verb != "DROP INDEX" {
		if err := sandboxName("table", name); err != nil {
			return pl, err
		}
		pl.table, pl.real = name, realName(e.id, name)
	}
	switch st.Verb {
	case "CREATE TABLE", "ALTER TABLE", "DROP TABLE", "TRUNCATE":
		pl.schema = true
	case "CREATE INDEX", "DROP INDEX":
		pl.schema = true
		if st.Index == "" && st.Verb == "CREATE INDEX" { // Cassandra names it <table>_<column>_idx
			pl.index = name + "_" + st.Cols[0] + "_idx"
		} else {
			pl.index = st.Index
		}
		if err := sandboxName("index", pl.index); err != nil {
			return pl, err
		}
		pl.realIndex = realName(e.id, pl.index)
		if st.Verb == "DROP INDEX" {
			pl.cql = st.render("", e.keyspace+"."+pl.realIndex)
			return pl, nil
		}
	case "DESCRIBE":
		pl.cql = "DESCRIBE TABLE " + e.keyspace + "." + pl.real
		return pl, nil
	}
	pl.cql = st.render(e.keyspace+"."+pl.real, pl.realIndex)
	return pl, nil
}

// sandboxName checks a name the learner gives a table or an index of theirs.
func sandboxName(what, name string) error {
	if name == "" || len(name) > consoleNameMax {
		return &notAllowedError{fmt.Sprintf("a %s of your sandbox has a name of 1 to %d characters (Cassandra's 48 less the sandbox's prefix): %q has %d", what, consoleNameMax, name, len(name))}
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || isDigit(c) || c == '_') {
			return &notAllowedError{fmt.Sprintf("a %s of your sandbox has a name of lower-case letters, digits and _: not %q", what, name)}
		}
	}
	return nil
}

// planApp checks a statement on an application table: a SELECT of its shown columns, or its
// DESCRIBE.
func (e consoleEnv) planApp(pl consolePlan, st *cqlStmt) (consolePlan, error) {
	name := st.Table.Name
	app := e.appKeyspace + "." + name
	if st.Verb != "SELECT" && st.Verb != "DESCRIBE" {
		return pl, &notAllowedError{fmt.Sprintf("the application's tables are read only: SELECT from %s, and write in your own tables (%s.<table>)", app, ConsoleSandboxKeyspace)}
	}
	if why, ok := consoleUnreadable[name]; ok {
		return pl, &notAllowedError{fmt.Sprintf("%s is never shown: %s", app, why)}
	}
	hidden, ok := consoleHidden[name]
	var cols []string
	if ok {
		cols = e.columns(name)
	}
	if len(cols) == 0 {
		return pl, &notAllowedError{fmt.Sprintf("%s is not a table the console reads: it reads %s", app, strings.Join(e.readableNames(), ", "))}
	}
	pl.app = true
	if st.Verb == "DESCRIBE" {
		pl.cql = "DESCRIBE TABLE " + app
		return pl, nil
	}
	for _, c := range st.Cols {
		if slices.Contains(hidden, c) {
			return pl, &notAllowedError{fmt.Sprintf("%s.%s is never shown: it holds a secret (the console hides %s)", app, c, hiddenList(name, hidden))}
		}
		if !slices.Contains(cols, c) {
			return pl, &notAllowedError{fmt.Sprintf("%s has no column %s: its columns are %s", app, c, strings.Join(shown(cols, hidden), ", "))}
		}
	}
	if st.Star >= 0 && len(hidden) > 0 {
		var ps []piece
		for i, c := range shown(cols, hidden) {
			if i > 0 {
				ps = append(ps, piece{kind: pWord, text: ",", glue: true})
			}
			ps = append(ps, piece{kind: pCol, text: c})
		}
		expanded := *st
		expanded.Pieces = slices.Concat(st.Pieces[:st.Star], ps, st.Pieces[st.Star+1:])
		pl.cql = expanded.render(app, "")
		pl.note = fmt.Sprintf("(* is every column the console shows: %s is hidden)", hiddenList(name, hidden))
		return pl, nil
	}
	pl.cql = st.render(app, "")
	return pl, nil
}

func hiddenList(table string, hidden []string) string {
	var out []string
	for _, h := range hidden {
		out = append(out, table+"."+h)
	}
	return strings.Join(out, ", ")
}

func shown(cols, hidden []string) []string {
	return slices.DeleteFunc(slices.Clone(cols), func(c string) bool { return slices.Contains(hidden, c) })
}

// readableNames are the application tables the console reads, by their full names.
func (e consoleEnv) readableNames() []string {
	var out []string
	for t := range consoleHidden {
		out = append(out, e.appKeyspace+"."+t)
	}
	slices.Sort(out)
	return out
}
