package teach

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// run runs line in sandbox and fails the test on any error.
func run(t *testing.T, c *Console, sandbox, line string) string {
	t.Helper()
	res, err := c.Run(testCtx(t, 30*time.Second), sandbox, line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return res.Output
}

// refused runs line and returns the console's refusal, failing the test on anything else.
func refused(t *testing.T, c *Console, sandbox, line string) *teaching.ConsoleRefusal {
	t.Helper()
	_, err := c.Run(testCtx(t, 30*time.Second), sandbox, line)
	var cr *teaching.ConsoleRefusal
	if !errors.As(err, &cr) {
		t.Fatalf("%s: want a refusal, got %v", line, err)
	}
	return cr
}

func TestConsoleSession(t *testing.T) {
	s := sharedStore(t)
	c := NewConsole(s, ConsoleConfig{})
	me := "user:" + randomKeyspace("ann")
	if out := run(t, c, me, "CREATE TABLE notes (owner text, at int, body text, PRIMARY KEY (owner, at))"); out != "" {
		t.Errorf("CREATE TABLE printed %q, cqlsh prints nothing", out)
	}
	run(t, c, me, "INSERT INTO sandbox.notes (owner, at, body) VALUES ('ann', 1, 'first'); INSERT INTO notes (owner, at, body) VALUES ('ann', 2, 'it''s second')")
	out := run(t, c, me, "SELECT * FROM notes WHERE owner = 'ann'")
	want := "\n owner | at | body\n-------+----+-------------\n   ann |  1 |       first\n   ann |  2 | it's second\n\n(2 rows)\n"
	if out != want {
		t.Errorf("SELECT printed\n%q\nwant\n%q", out, want)
	}
	if out := run(t, c, me, "TRACING ON"); out != "Now Tracing is enabled\n" {
		t.Errorf("TRACING ON printed %q", out)
	}
	out = run(t, c, me, "SELECT body FROM notes WHERE owner = 'ann' AND at = 1")
	if !strings.Contains(out, "(1 rows)\n\nTracing session: ") || !strings.Contains(out, "Request complete") ||
		!strings.Contains(out, " activity ") || !strings.Contains(out, "source_elapsed") {
		t.Errorf("a traced SELECT printed\n%s", out)
	}
	if strings.Contains(out, "s"+sandboxID(me)) || strings.Contains(out, consoleKeyspaceOf(s.store)) {
		t.Errorf("the trace shows the sandbox's storage names:\n%s", out)
	}
	run(t, c, me, "TRACING OFF")
	if out := run(t, c, me, "CONSISTENCY QUORUM"); out != "Consistency level set to QUORUM.\n" {
		t.Errorf("CONSISTENCY QUORUM printed %q", out)
	}
	// The settings are the store's: another console (another server) has them.
	other := NewConsole(s, ConsoleConfig{})
	if out := run(t, other, me, "CONSISTENCY"); out != "Current consistency level is QUORUM.\n" {
		t.Errorf("CONSISTENCY on another server printed %q", out)
	}
	info, err := other.Info(context.Background(), me)
	if err != nil {
		t.Fatal(err)
	}
	if info.Keyspace != "sandbox" || len(info.Tables) != 1 || info.Tables[0] != "notes" || info.Settings["consistency"] != "QUORUM" || info.Settings["tracing"] != "off" {
		t.Errorf("Info = %+v", info)
	}
}

func TestConsoleRefusals(t *testing.T) {
	s := sharedStore(t)
	c := NewConsole(s, ConsoleConfig{StatementBytes: 200, TablesPerSandbox: 1})
	me := "browser:" + randomKeyspace("b")
	app := s.Keyspace()
	run(t, c, me, "CREATE TABLE t (k int PRIMARY KEY, v text)")
	for _, tc := range []struct {
		line, want string
		store      bool
	}{
		{"INSERT INTO " + app + ".users (username, id) VALUES ('x', uuid())", "read only", false},
		{"UPDATE " + app + ".tweets SET body = 'x' WHERE tweet_id = now()", "read only", false},
		{"DROP TABLE " + app + ".users", "read only", false},
		{"DROP KEYSPACE " + app, "does not run DROP KEYSPACE", false},
		{"SELECT * FROM system_auth.roles", "system_auth.roles is not yours", false},
		{"SELECT * FROM " + consoleKeyspaceOf(s.store) + ".console_sandboxes", "is not yours", false},
		{"SELECT password FROM " + app + ".users", app + ".users.password is never shown", false},
		{"SELECT username FROM " + app + ".users WHERE password = 0x00 ALLOW FILTERING", "users.password is never shown", false},
		{"SELECT * FROM " + app + ".login_attempts", "never shown", false},
		{"SELECT * FROM t WHERE v = 'a'", "ALLOW FILTERING", true},
		{"SELECT * FROM t WHERE k = 1 " + strings.Repeat("AND k = 1 ", 20), "at most 200 bytes", false},
		{"CREATE TABLE u (k int PRIMARY KEY)", "holds 1 tables", false},
		{"SELECT * FORM t", "SyntaxException", false},
	} {
		cr := refused(t, c, me, tc.line)
		if !strings.Contains(cr.Message, tc.want) || cr.Store != tc.store {
			t.Errorf("%s: refused with %q (store %v), want %q (store %v)", tc.line, cr.Message, cr.Store, tc.want, tc.store)
		}
		if strings.Contains(cr.Message, sandboxID(me)) {
			t.Errorf("%s: the refusal names the sandbox's storage: %q", tc.line, cr.Message)
		}
	}
	// SELECT * of a table with a hidden column shows the others and says so.
	out := run(t, c, me, "SELECT * FROM "+app+".users LIMIT 1")
	if !strings.Contains(out, "users.password is hidden") || strings.Contains(out, " password") || !strings.Contains(out, "username") {
		t.Errorf("SELECT * FROM users printed\n%s", out)
	}
}

func TestConsoleBoundsAreTheClusters(t *testing.T) {
	s := sharedStore(t)
	me := "browser:" + randomKeyspace("b")
	c := NewConsole(s, ConsoleConfig{StatementsPerMinute: 2})
	other := NewConsole(s, ConsoleConfig{StatementsPerMinute: 2}) // another server
	run(t, c, me, "CONSISTENCY")
	run(t, other, me, "CONSISTENCY")
	_, err := c.Run(testCtx(t, 10*time.Second), me, "CONSISTENCY")
	var re *domain.RetryError
	if !errors.As(err, &re) || re.After <= 0 || !strings.Contains(re.Message, "2 statements of the minute") {
		t.Fatalf("a third statement in the minute over two servers: %v, want a RetryError", err)
	}
	// Another learner is not held by it.
	run(t, c, "browser:"+randomKeyspace("b"), "CONSISTENCY")
}

func TestConsoleSandboxesAreApart(t *testing.T) {
	s := sharedStore(t)
	c := NewConsole(s, ConsoleConfig{})
	ann, bob := "user:"+randomKeyspace("ann"), "user:"+randomKeyspace("bob")
	run(t, c, ann, "CREATE TABLE secrets (k int PRIMARY KEY, v text); INSERT INTO secrets (k, v) VALUES (1, 'ann''s')")
	// bob's "secrets" is his own: it does not exist.
	cr := refused(t, c, bob, "SELECT * FROM sandbox.secrets")
	if !cr.Store || strings.Contains(cr.Message, "ann") || strings.Contains(cr.Message, sandboxID(ann)) {
		t.Errorf("bob's SELECT of secrets: %q", cr.Message)
	}
	// ann's table under its storage name is out of reach too.
	for _, line := range []string{
		"SELECT * FROM " + consoleKeyspaceOf(s.store) + "." + realName(sandboxID(ann), "secrets"),
		"SELECT * FROM " + realName(sandboxID(ann), "secrets"),
	} {
		_, err := c.Run(testCtx(t, 10*time.Second), bob, line)
		if err == nil {
			t.Errorf("%s: bob read ann's table", line)
		}
	}
	out := run(t, c, ann, "SELECT v FROM secrets")
	if !strings.Contains(out, "ann's") {
		t.Errorf("ann's own table: %s", out)
	}
}

func TestConsoleSweepDropsIdleSandboxes(t *testing.T) {
	s := sharedStore(t)
	c := NewConsole(s, ConsoleConfig{Idle: time.Hour})
	t0 := time.Now()
	c.now = func() time.Time { return t0.Add(-2 * time.Hour) }
	idle, busy := "browser:"+randomKeyspace("idle"), "browser:"+randomKeyspace("busy")
	run(t, c, idle, "CREATE TABLE old (k int PRIMARY KEY)")
	c.now = func() time.Time { return t0 }
	run(t, c, busy, "CONSISTENCY ONE")
	other := NewConsole(s, ConsoleConfig{Idle: time.Hour}) // another server sweeps
	n, err := other.Sweep(testCtx(t, time.Minute), t0)
	if err != nil {
		t.Fatal(err)
	}
	if n < 1 {
		t.Fatalf("Sweep dropped %d sandboxes, want the idle one", n)
	}
	info, err := c.Info(context.Background(), idle)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Tables) != 0 {
		t.Errorf("the idle sandbox still has %v", info.Tables)
	}
	cr := refused(t, c, idle, "SELECT * FROM old")
	if !cr.Store {
		t.Errorf("the idle sandbox's table after the sweep: %q", cr.Message)
	}
	if out := run(t, c, busy, "CONSISTENCY"); out != "Current consistency level is ONE.\n" {
		t.Errorf("the busy sandbox after the sweep: %q", out)
	}
}
