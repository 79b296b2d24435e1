package teaching

import (
	"context"
	"errors"
	"time"
)

// Console runs the statements a learner types, in one language, in a sandbox of the learner's
// own: on widerow the 0.6 cassandra-cli language ("cli") on a keyspace of the learner's,
// on cql3 CQL ("cql") on a table set of the learner's. The application's data may be read
// (never a column that holds a secret: password hashes, sessions, log-in attempts) and is
// never written. A statement is parsed and checked before anything reaches the store, and an
// identifier cannot name anything outside the sandbox and the readable application data.
//
// A backend offers one Console per language it speaks; compare mode offers both backends'.
//
// The sandbox is whom the console serves: the web layer names it after the learner (a signed-in
// user, else the browser's session), and a console never lets one sandbox see another's data.
// Everything a console may be made to do is bounded for the whole cluster (statements a minute,
// tables or rows held), and a sandbox idle past Bounds().Idle is dropped by Sweep, whichever
// server made it.
type Console interface {
	// Language is "cli" or "cql".
	Language() string
	// Info says what the sandbox has: its keyspace, its column families or tables, what it may
	// read besides them, the statements allowed, and the bounds. It makes nothing.
	Info(ctx context.Context, sandbox string) (ConsoleInfo, error)
	// Run parses, checks and runs one statement (or, where the language allows, a line of
	// several separated by ';') in the sandbox and returns what a console shows. A statement
	// the console does not allow, or one the store refused, is a *ConsoleRefusal; a learner
	// past a bound gets a *domain.RetryError.
	Run(ctx context.Context, sandbox, statement string) (ConsoleResult, error)
	// Sweep drops every sandbox idle since before now minus Bounds().Idle, and says how many.
	Sweep(ctx context.Context, now time.Time) (int, error)
}

// ConsoleInfo is what a console tells a learner before they type.
type ConsoleInfo struct {
	Language string `json:"language"`
	// Keyspace is the learner's own keyspace (cli), or the keyspace that holds the learner's
	// tables (cql).
	Keyspace string `json:"keyspace"`
	// ColumnFamilies are the column families of the learner's keyspace (cli), each with its
	// comparators.
	ColumnFamilies []ConsoleCF `json:"column_families,omitempty"`
	// Tables are the learner's tables (cql), as the learner names them.
	Tables []string `json:"tables,omitempty"`
	// Readable names what may be read besides the sandbox: the application's keyspace or
	// tables, with the columns that are never shown.
	Readable []ConsoleReadable `json:"readable,omitempty"`
	// Allowed are the statements the console takes, as their first words ("get", "SELECT").
	Allowed []string `json:"allowed"`
	// Settings are the console's settings for this sandbox (cql: "tracing": "on",
	// "consistency": "ONE").
	Settings map[string]string `json:"settings,omitempty"`
	Bounds   ConsoleBounds     `json:"bounds"`
}

// ConsoleCF is a column family of a cli sandbox.
type ConsoleCF struct {
	Name          string `json:"name"`
	Type          string `json:"type"` // "Standard" or "Super"
	Comparator    string `json:"comparator"`
	SubComparator string `json:"subcomparator,omitempty"`
}

// ConsoleReadable is something of the application's a console may read, and the columns of it
// that it never shows.
type ConsoleReadable struct {
	Name   string   `json:"name"`             // "Twissandra.User", "twissandra.users"
	Hidden []string `json:"hidden,omitempty"` // "password"
}

// ConsoleBounds are a console's bounds, as its page and its API state them.
type ConsoleBounds struct {
	// StatementsPerMinute a learner may run.
	StatementsPerMinute int `json:"statements_per_minute"`
	// ClusterStatementsPerMinute every learner together may run (cql: over every server).
	ClusterStatementsPerMinute int `json:"cluster_statements_per_minute"`
	// Tables (cql) or column families' rows (cli) a sandbox may hold, and Cells or rows in all.
	Tables int `json:"tables,omitempty"`
	Rows   int `json:"rows"`
	// RowsShown is the most rows (or columns) one read shows.
	RowsShown int `json:"rows_shown"`
	// StatementBytes is the longest statement taken.
	StatementBytes int `json:"statement_bytes"`
	// Idle is how long a sandbox may sit unused before it is dropped.
	Idle time.Duration `json:"idle_ns"`
}

// ConsoleResult is what a console shows for a statement.
type ConsoleResult struct {
	// Output is the text the console prints: the seeds' notation on cli, as cqlsh prints it on
	// cql (with the trace after it when tracing is on).
	Output string `json:"output"`
	// Sent are the statements as they reached the store, the sandbox's names in place of the
	// learner's (cql); empty where the language has no statement text (cli's Thrift calls are
	// in the operations).
	Sent []string `json:"sent,omitempty"`
}

// ConsoleRefusal is a statement a console would not run, or that its store refused: Message
// is what the console shows.
type ConsoleRefusal struct {
	Message string
	// Store says the store refused it (a node's InvalidRequest); otherwise the console refused
	// it before anything reached the store.
	Store bool
}

func (e *ConsoleRefusal) Error() string { return e.Message }

// ErrNoConsole is what a backend without a console language answers.
var ErrNoConsole = errors.New("no console for this language on this backend")
