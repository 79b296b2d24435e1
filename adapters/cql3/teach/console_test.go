package teach

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"twissandra/adapters/cql3"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// consoleKeyspaceOf is the console's keyspace beside a cql3.Store's (for the tests' cleanup).
func consoleKeyspaceOf(s *cql3.Store) string { return ConsoleKeyspace(s.Keyspace()) }

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
	if out := run(t, c, me, "CREATE TABLE notes (owner text, at int, body text, tags set<text>, PRIMARY KEY (owner, at))"); out != "" {
		t.Errorf("CREATE TABLE printed %q, cqlsh prints nothing", out)
	}
	run(t, c, me, "INSERT INTO sandbox.notes (owner, at, body, tags) VALUES ('ann', 1, 'first', {'b', 'a'}); INSERT INTO notes (owner, at, body) VALUES ('ann', 2, 'it''s second')")
	out := run(t, c, me, "SELECT * FROM notes WHERE owner = 'ann'")
	want := "\n owner | at | body        | tags\n-------+----+-------------+------------\n" +
		"   ann |  1 |       first | {'a', 'b'}\n   ann |  2 | it's second |       null\n\n(2 rows)\n"
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
	// The level is the statements': THREE on the one replica of the test's keyspace is the
	// node's Unavailable.
	run(t, other, me, "CONSISTENCY THREE")
	if cr := refused(t, c, me, "SELECT * FROM notes WHERE owner = 'ann'"); !cr.Store || !strings.Contains(cr.Message, "Unavailable") || !strings.Contains(cr.Message, "THREE") {
		t.Errorf("a read at THREE on one replica: %q", cr.Message)
	}
	run(t, c, me, "CONSISTENCY QUORUM")
	// A conditional write prints [applied] as cqlsh does.
	out = run(t, c, me, "INSERT INTO notes (owner, at, body) VALUES ('ann', 1, 'again') IF NOT EXISTS")
	if !strings.HasPrefix(out, "\n [applied] | owner | at | body") || !strings.Contains(out, "     False |   ann |  1 | first") {
		t.Errorf("a conditional write that did not apply printed\n%s", out)
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
		{"CREATE KEYSPACE mine WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}", "your own keyspace, sandbox", false},
		{"USE " + app, "in your keyspace, sandbox, always", false},
		{"ALTER TABLE " + app + ".users ADD admin boolean", "read only", false},
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
	// A table of the application's name, typed without its keyspace, is the learner's own.
	if cr := refused(t, c, bob, "SELECT * FROM users"); !cr.Store || !strings.Contains(cr.Message, "the application's is "+s.Keyspace()+".users") {
		t.Errorf("bob's SELECT of users, which he has not made: %q", cr.Message)
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
	// A table the node made for a claim its server undid (no registry row) goes too.
	sess, err := s.sess()
	if err != nil {
		t.Fatal(err)
	}
	orphan := consoleKeyspaceOf(s.store) + "." + realName(sandboxID("browser:"+randomKeyspace("gone")), "lost")
	if err := sess.ContextQuery(testCtx(t, 30*time.Second), "CREATE TABLE "+orphan+" (k int PRIMARY KEY)", nil).ExecRelease(); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Sweep(testCtx(t, time.Minute), t0); err != nil {
		t.Fatal(err)
	}
	err = sess.ContextQuery(testCtx(t, 10*time.Second), "SELECT * FROM "+orphan, nil).ExecRelease()
	if !unconfigured(err) {
		t.Errorf("the orphan table after the sweep: %v, want it gone", err)
	}
}

func TestConsoleSchemaChangesAndTablesAreBoundedForTheCluster(t *testing.T) {
	s := sharedStore(t)
	me := "browser:" + randomKeyspace("b")
	// One table at least in the console's keyspace, then a bound of one table in all.
	run(t, NewConsole(s, ConsoleConfig{}), me, "CREATE TABLE IF NOT EXISTS first (k int PRIMARY KEY)")
	full := NewConsole(s, ConsoleConfig{Tables: 1})
	_, err := full.Run(testCtx(t, 30*time.Second), me, "CREATE TABLE second (k int PRIMARY KEY)")
	var re *domain.RetryError
	if !errors.As(err, &re) || !strings.Contains(re.Message, "cluster's 1 tables") {
		t.Fatalf("a table past the cluster's bound: %v, want a RetryError", err)
	}
	if info, _ := full.Info(context.Background(), me); len(info.Tables) != 1 {
		t.Errorf("the refused table is in the sandbox's registry: %v", info.Tables)
	}
	// One schema change a minute over the cluster: the second in a row waits.
	slow := NewConsole(s, ConsoleConfig{SchemaChangesPerMinute: 1})
	_, _ = slow.Run(testCtx(t, 30*time.Second), me, "TRUNCATE first")
	_, err = slow.Run(testCtx(t, 30*time.Second), me, "TRUNCATE first")
	if !errors.As(err, &re) || re.After <= 0 || !strings.Contains(re.Message, "1 schema changes of the minute") {
		t.Fatalf("a second schema change in the minute: %v, want a RetryError", err)
	}
}

func TestConsoleDescribesTheSandboxInTheLearnersNames(t *testing.T) {
	s := sharedStore(t)
	c := NewConsole(s, ConsoleConfig{RowsShown: 2, RowsWritten: 3})
	me := "user:" + randomKeyspace("ann")
	run(t, c, me, "USE sandbox; CREATE TABLE pets (name text PRIMARY KEY, kind text); ALTER TABLE pets ADD born date")
	out := run(t, c, me, "DESCRIBE TABLE pets")
	if !strings.Contains(out, "CREATE TABLE sandbox.pets (") || !strings.Contains(out, "born date") || strings.Contains(out, sandboxID(me)) || strings.Contains(out, consoleKeyspaceOf(s.store)) {
		t.Errorf("DESCRIBE TABLE pets printed\n%s", out)
	}
	if out := run(t, c, me, "DESC TABLES"); out != "\npets\n\n" {
		t.Errorf("DESC TABLES printed %q", out)
	}
	if out := run(t, c, me, "DESCRIBE KEYSPACE sandbox"); !strings.Contains(out, "CREATE TABLE sandbox.pets (") || strings.Contains(out, sandboxID(me)) {
		t.Errorf("DESCRIBE KEYSPACE sandbox printed\n%s", out)
	}
	run(t, c, me, "BEGIN BATCH INSERT INTO pets (name, kind) VALUES ('rex', 'dog'); INSERT INTO pets (name, kind) VALUES ('tom', 'cat'); INSERT INTO pets (name) VALUES ('nemo') APPLY BATCH")
	// A read shows RowsShown rows at most, and says so.
	if out := run(t, c, me, "SELECT name FROM pets"); !strings.Contains(out, "(2 rows shown: the console shows at most 2 rows of a read)") {
		t.Errorf("a read of 3 rows with 2 shown printed\n%s", out)
	}
	// An index of the sandbox: made, used, dropped by the name Cassandra gives it.
	run(t, c, me, "CREATE INDEX ON pets (kind)")
	if out := run(t, c, me, "SELECT name FROM pets WHERE kind = 'dog'"); !strings.Contains(out, " rex\n") {
		t.Errorf("a read by the index printed\n%s", out)
	}
	run(t, c, me, "DROP INDEX pets_kind_idx")
	if cr := refused(t, c, me, "SELECT name FROM pets WHERE kind = 'dog'"); !cr.Store || !strings.Contains(cr.Message, "ALLOW FILTERING") {
		t.Errorf("a read by the dropped index: %q", cr.Message)
	}
	// The sandbox's writes are bounded.
	if cr := refused(t, c, me, "INSERT INTO pets (name) VALUES ('one too many')"); !strings.Contains(cr.Message, "its bound is 3") {
		t.Errorf("a fourth row written: %q", cr.Message)
	}
}

// TestConsoleReadsNoSecret holds the console's lists to the application's schema: every table
// of the keyspace is either read, with its hidden columns, or never read, and each hidden
// column exists (a renamed column would otherwise be shown).
func TestConsoleReadsNoSecret(t *testing.T) {
	s := sharedStore(t)
	c := NewConsole(s, ConsoleConfig{})
	sess, err := s.sess()
	if err != nil {
		t.Fatal(err)
	}
	cols, err := c.columns(testCtx(t, 10*time.Second), sess)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	if err := sess.ContextQuery(testCtx(t, 10*time.Second), "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", nil).Bind(s.Keyspace()).SelectRelease(&tables); err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		hidden, read := consoleHidden[tb]
		_, unread := consoleUnreadable[tb]
		if read == unread {
			t.Errorf("table %s is neither read nor unread by the console (or both): decide", tb)
		}
		for _, h := range hidden {
			if !slices.Contains(cols(tb), h) {
				t.Errorf("hidden column %s.%s is not in the schema", tb, h)
			}
		}
	}
	for tb := range consoleHidden {
		if !slices.Contains(tables, tb) {
			t.Errorf("the console reads %s, which the migrations do not make", tb)
		}
	}
	info, err := c.Info(context.Background(), "browser:"+randomKeyspace("b"))
	if err != nil {
		t.Fatal(err)
	}
	users := slices.IndexFunc(info.Readable, func(r teaching.ConsoleReadable) bool { return r.Name == s.Keyspace()+".users" })
	if users < 0 || !slices.Equal(info.Readable[users].Hidden, []string{"password"}) {
		t.Errorf("Info's readable tables: %+v", info.Readable)
	}
	if slices.ContainsFunc(info.Readable, func(r teaching.ConsoleReadable) bool { return strings.HasSuffix(r.Name, ".login_attempts") }) {
		t.Errorf("Info lists login_attempts as readable")
	}
}
