package teach

import (
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"go.uber.org/fx"

	"twissandra/adapters/cql3"
	"twissandra/ports/teaching"
)

// fuzzEnv is a sandbox's checks without a node: the application's tables with the columns
// migrations 001-008 give them.
func fuzzEnv() consoleEnv {
	cols := map[string][]string{
		"users":      {"username", "created_at", "created_at_us", "id", "password"},
		"tweets":     {"tweet_id", "body", "created_at", "created_at_us", "username"},
		"comments":   {"slug", "time", "body", "created_at", "created_at_us", "email", "name"},
		"race_names": {"name", "owner"},
		"userline":   {"username", "time", "author", "body", "created_at", "created_at_us", "tweet_id"},
	}
	return consoleEnv{id: sandboxID("user:ann"), appKeyspace: "twissandra", keyspace: ConsoleKeyspace("twissandra"),
		columns: func(t string) []string { return cols[t] }}
}

func TestConsolePlanMapsNamesIntoTheSandbox(t *testing.T) {
	env := fuzzEnv()
	real := env.keyspace + ".s" + env.id + "_"
	for _, tc := range []struct{ line, want string }{
		{"select * from t where k = 1", "SELECT * FROM " + real + "t WHERE k = 1"},
		{"SELECT v FROM sandbox.t WHERE k = 'it''s'", "SELECT v FROM " + real + "t WHERE k = 'it''s'"},
		{"INSERT INTO t (k, \"Odd\") VALUES (1, {'a': [1, 2]}) USING TTL 5", "INSERT INTO " + real + "t (k, \"Odd\") VALUES (1, {'a': [1, 2]}) USING TTL 5"},
		{"CREATE TABLE t (k int PRIMARY KEY, m map<text, int>)", "CREATE TABLE " + real + "t (k int PRIMARY KEY, m map<text, int>)"},
		{"CREATE INDEX ON t (v)", "CREATE INDEX ON " + real + "t (v)"},
		{"DROP INDEX t_v_idx", "DROP INDEX " + real + "t_v_idx"},
		{"BEGIN BATCH INSERT INTO t (k) VALUES (1); DELETE FROM sandbox.u WHERE k = 2 APPLY BATCH",
			"BEGIN BATCH INSERT INTO " + real + "t (k) VALUES (1); DELETE FROM " + real + "u WHERE k = 2; APPLY BATCH"},
		{"SELECT * FROM twissandra.users", "SELECT username, created_at, created_at_us, id FROM twissandra.users"},
		{"SELECT count(*) FROM twissandra.tweets WHERE tweet_id = 5f3c2a10-0000-1000-8000-000000000001",
			"SELECT count(*) FROM twissandra.tweets WHERE tweet_id = 5f3c2a10-0000-1000-8000-000000000001"},
	} {
		stmts, err := parseCQL(tc.line)
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		pl, err := env.plan(stmts[0])
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		if pl.cql != tc.want {
			t.Errorf("%s:\n sent %s\n want %s", tc.line, pl.cql, tc.want)
		}
	}
}

// FuzzConsoleStatement holds the parser and the sandbox's checks to their promise on any line:
// no panic, and a statement they pass names only the sandbox's tables (s<id>_ in the console's
// keyspace) and the application's readable tables for reading, never a hidden column, as the
// parser reads the statement back.
func FuzzConsoleStatement(f *testing.F) {
	for _, line := range consoleCorpus {
		f.Add(strings.ReplaceAll(line, "nowhere.", ""))
		f.Add(strings.ReplaceAll(line, "nowhere.", "twissandra."))
	}
	for _, line := range []string{
		"SELECT * FROM twissandra.users", "SELECT password FROM twissandra.users", "SELECT * FROM twissandra.login_attempts",
		"SELECT \"password\" FROM twissandra.\"users\"", "SELECT writetime(email) FROM twissandra.comments",
		"SELECT * FROM twissandra_console.console_sandboxes", "DROP TABLE twissandra.users", "DESCRIBE TABLE t", "DESC TABLES",
		"TRACING ON", "CONSISTENCY LOCAL_QUORUM", "CREATE TABLE \"a.b\" (k int PRIMARY KEY)", "SELECT * FROM sandbox.\"../x\"",
	} {
		f.Add(line)
	}
	env := fuzzEnv()
	f.Fuzz(func(t *testing.T, line string) {
		stmts, err := parseCQL(line)
		if err != nil {
			var se *cqlSyntaxError
			var na *notAllowedError
			if !errors.As(err, &se) && !errors.As(err, &na) {
				t.Fatalf("%q: an error neither a syntax error nor a refusal: %v", line, err)
			}
			return
		}
		for _, st := range stmts {
			pl, err := env.plan(st)
			if err != nil || pl.cql == "" {
				continue
			}
			back, err := parseCQL(pl.cql)
			if err != nil {
				t.Fatalf("%q: sent %q, which does not parse: %v", line, pl.cql, err)
			}
			for _, b := range back {
				checkSent(t, env, line, pl.cql, b)
			}
		}
	})
}

// checkSent fails unless statement b (read back from what the console sends) is on the sandbox
// or reads a readable application table's shown columns.
func checkSent(t *testing.T, env consoleEnv, line, sent string, b *cqlStmt) {
	t.Helper()
	if b.Verb == "BATCH" {
		for _, in := range b.Batch {
			checkSent(t, env, line, sent, in)
		}
		return
	}
	prefix := "s" + env.id + "_"
	if b.Index != "" && !strings.HasPrefix(b.Index, prefix) {
		t.Fatalf("%q: sent %q, naming the index %q outside the sandbox", line, sent, b.Index)
	}
	if b.Verb == "DROP INDEX" {
		if b.Table.Keyspace != env.keyspace {
			t.Fatalf("%q: sent %q, dropping an index outside the console's keyspace", line, sent)
		}
		return
	}
	switch ref := b.Table; {
	case ref.Keyspace == env.keyspace && strings.HasPrefix(ref.Name, prefix):
	case ref.Keyspace == env.appKeyspace:
		hidden, readable := consoleHidden[ref.Name]
		if !readable || (b.Verb != "SELECT" && b.Verb != "DESCRIBE") {
			t.Fatalf("%q: sent %q, a %s of the application's %s", line, sent, b.Verb, ref.Name)
		}
		for _, c := range b.Cols {
			if slices.Contains(hidden, c) {
				t.Fatalf("%q: sent %q, naming the hidden column %s.%s", line, sent, ref.Name, c)
			}
		}
		if b.Star >= 0 && len(hidden) > 0 {
			t.Fatalf("%q: sent %q, a * of a table with hidden columns", line, sent)
		}
	default:
		t.Fatalf("%q: sent %q, naming %s outside the sandbox", line, sent, ref)
	}
}

// TestModuleProvidesTheCQLConsole: the Module puts one console, "cql", in the consoles group,
// the one its sweeps run on.
func TestModuleProvidesTheCQLConsole(t *testing.T) {
	var got struct {
		Consoles []teaching.Console
		Console  *Console
	}
	app := fx.New(fx.NopLogger,
		fx.Supply(&cql3.Store{}, slog.New(slog.DiscardHandler)),
		Module,
		fx.Invoke(func(in struct {
			fx.In
			Consoles []teaching.Console `group:"consoles"`
			Console  *Console
		}) {
			got.Consoles, got.Console = in.Consoles, in.Console
		}))
	if err := app.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got.Consoles) != 1 || got.Consoles[0].Language() != "cql" || got.Consoles[0] != teaching.Console(got.Console) {
		t.Errorf("the consoles group holds %v, want the Module's one cql console", got.Consoles)
	}
	if got.Console.Config() != DefaultConsoleConfig {
		t.Errorf("the Module's console has bounds %+v, want the defaults", got.Console.Config())
	}
}
