package teach_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/adapters/widerow/teach"
	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
)

// clock is a console's clock that a test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newConsole is a console on an application node that holds ann, with her password.
func newConsole(t testing.TB, cfg teach.ConsoleConfig) (*teach.Console, *engine.Node, *clock) {
	t.Helper()
	app, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close() })
	ctx := context.Background()
	for col, v := range map[string]string{"password": "$2a$10$abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0", "id": "ann", "joined": "2010"} {
		if err := app.Insert(ctx, widerow.KeyspaceTwissandra, "ann", engine.ColumnPath{ColumnFamily: "User", Column: []byte(col)}, []byte(v), 1, engine.ONE); err != nil {
			t.Fatal(err)
		}
	}
	clk := &clock{t: time.Date(2010, 5, 12, 0, 0, 0, 0, time.UTC)}
	cfg.Now = clk.Now
	c, err := teach.NewConsole(app, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c, app, clk
}

func run(t testing.TB, c *teach.Console, sandbox, stmt string) string {
	t.Helper()
	res, err := c.Run(context.Background(), sandbox, stmt)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	return res.Output
}

func refused(t testing.TB, c *teach.Console, sandbox, stmt string) *teaching.ConsoleRefusal {
	t.Helper()
	_, err := c.Run(context.Background(), sandbox, stmt)
	var r *teaching.ConsoleRefusal
	if !errors.As(err, &r) {
		t.Fatalf("%s: %v, want a refusal", stmt, err)
	}
	return r
}

func wantIn(t testing.TB, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s: no %q in\n%s", what, w, got)
		}
	}
}

// A learner's session in the seeds' notation: describe, set, a slice, count, del and list, each
// statement's Thrift calls in the operation log, on the learner's own keyspace.
func TestConsoleSession(t *testing.T) {
	t.Parallel()
	c, _, _ := newConsole(t, teach.ConsoleConfig{})
	const ann = "user:ann"
	if c.Language() != "cli" {
		t.Fatalf("language %q", c.Language())
	}
	wantIn(t, "describe", run(t, c, ann, "describe keyspace Sandbox"),
		"Keyspace: Sandbox (replication factor 1)", "ColumnFamily: Longs", "CompareWith: LongType",
		"ColumnFamily: AddressBook\n    Type: Super\n    CompareWith: UTF8Type\n    CompareSubcolumnsWith: UTF8Type")
	for _, n := range []string{"123", "832416", "3", "976"} {
		if out := run(t, c, ann, "set Sandbox.Longs['sorting']["+n+"] = 'v"+n+"'"); out != "Value inserted.\n" {
			t.Fatalf("set: %q", out)
		}
	}
	log := oplog.NewLog(false)
	ctx := oplog.With(context.Background(), log)
	res, err := c.Run(ctx, ann, "get Sandbox.Longs['sorting'] start 100 finish 1000")
	if err != nil {
		t.Fatal(err)
	}
	wantIn(t, "the slice", res.Output, "Longs : {\n    \"sorting\" : {\n        123 : \"v123\"", "976 : \"v976\"", "Returned 2 columns.")
	if strings.Contains(res.Output, "832416") || strings.Contains(res.Output, " 3 : ") {
		t.Errorf("the slice shows names outside it:\n%s", res.Output)
	}
	ops, _ := log.Ops()
	if len(ops) != 1 || ops[0].Call != "get_slice" || !strings.HasPrefix(ops[0].Family, "Sandbox#") || !strings.HasSuffix(ops[0].Family, ".Longs") {
		t.Fatalf("the slice's operations: %+v, want one get_slice of the learner's Longs", ops)
	}
	if out := run(t, c, ann, "count Sandbox.Longs['sorting']"); out != "4 columns\n" {
		t.Errorf("count: %q", out)
	}
	run(t, c, ann, "set Sandbox.AddressBook['phatduckk']['John']['street'] = 'Howard street'; set Sandbox.AddressBook['phatduckk']['John']['zip'] = '94404'")
	if out := run(t, c, ann, "del Sandbox.AddressBook['phatduckk']['John']['zip']; count Sandbox.AddressBook['phatduckk']['John']"); out != "Column removed.\n1 columns\n" {
		t.Errorf("del then count: %q", out)
	}
	if out := run(t, c, ann, "del Sandbox.Longs['sorting'][3]; get Sandbox.Longs['sorting'][3]"); out != "Column removed.\nColumn not found.\n" {
		t.Errorf("del then get: %q", out)
	}
	log = oplog.NewLog(false)
	res, err = c.Run(oplog.With(context.Background(), log), ann, "list Sandbox.AddressBook")
	if err != nil {
		t.Fatal(err)
	}
	wantIn(t, "list", res.Output, "AddressBook : {\n    \"phatduckk\" : {\n        \"John\" : {\n            \"street\" : \"Howard street\"", "1 rows (in RandomPartitioner token order")
	if ops, _ := log.Ops(); len(ops) != 1 || ops[0].Call != "get_range_slices" {
		t.Errorf("list's operations: %+v", ops)
	}
	// The application's keyspaces read as they are, in the same notation.
	wantIn(t, "a read of the application", run(t, c, ann, "get Twissandra.User['ann']"), `"id" : "ann"`, `"joined" : "2010"`)
	wantIn(t, "show keyspaces", run(t, c, ann, "show keyspaces"), "Sandbox\nTwissandra\nBloggyAppy\n")
	wantIn(t, "help", run(t, c, ann, "help"), "set Sandbox.Longs['sorting'][123]", "Your own keyspace is Sandbox")
}

// Info says what the console offers, from the schema: the learner's keyspace and its column
// families with their comparators, what it reads and hides, the statements and the bounds.
func TestConsoleInfo(t *testing.T) {
	t.Parallel()
	c, app, _ := newConsole(t, teach.ConsoleConfig{StatementsPerMinute: 7})
	info, err := c.Info(context.Background(), "browser:x")
	if err != nil {
		t.Fatal(err)
	}
	scratch, _ := app.Schema().Keyspace("Scratch")
	if info.Language != "cli" || info.Keyspace != "Sandbox" || len(info.ColumnFamilies) != len(scratch.ColumnFamilies) {
		t.Fatalf("info %+v", info)
	}
	for i, cf := range scratch.ColumnFamilies {
		got := info.ColumnFamilies[i]
		if got.Name != cf.Name || got.Comparator != cf.CompareWith.String() || got.Type != cf.ColumnType() || (cf.Super && got.SubComparator != cf.CompareSubcolumnsWith.String()) {
			t.Errorf("column family %d: %+v, want %s", i, got, cf.Name)
		}
	}
	var user *teaching.ConsoleReadable
	for i, r := range info.Readable {
		if strings.HasPrefix(r.Name, "Sessions.") || strings.HasPrefix(r.Name, "Scratch.") {
			t.Errorf("readable: %s", r.Name)
		}
		if r.Name == "Twissandra.User" {
			user = &info.Readable[i]
		}
		// Info names the hidden columns where the application writes them, and nowhere else.
		if want := map[string]string{"Twissandra.User": "password", "BloggyAppy.Comments": "email"}[r.Name]; strings.Join(r.Hidden, ",") != want {
			t.Errorf("%s hides %v, want %q", r.Name, r.Hidden, want)
		}
	}
	if user == nil || !strings.Contains(strings.Join(user.Hidden, ","), "password") {
		t.Errorf("Twissandra.User: %+v, want it readable with password hidden", user)
	}
	if info.Bounds.StatementsPerMinute != 7 || info.Bounds.RowsShown == 0 || info.Bounds.Idle == 0 || len(info.Allowed) == 0 {
		t.Errorf("bounds %+v, allowed %v", info.Bounds, info.Allowed)
	}
}

// Each statement the console does not allow is refused before anything reaches a node, with a
// message naming what it allows.
func TestConsoleRefusals(t *testing.T) {
	t.Parallel()
	c, app, _ := newConsole(t, teach.ConsoleConfig{StatementBytes: 200})
	cases := []struct{ stmt, want string }{
		{"set Twissandra.User['ann']['password'] = 'x'", "never writes: write in your own keyspace, Sandbox"},
		{"del Twissandra.User['ann']", "never writes"},
		{"set Sandbox.Longs['r'][1] = 'v'; del BloggyAppy.Authors['arin']", "never writes"},
		{"get Sessions.LoginAttempts['ann']", "never shows it"},
		{"list Sessions.Progress", "never shows it"},
		{"get Sandbox#001.Longs['r']", "syntax error"},
		{"describe keyspace Scratch", `no keyspace "Scratch"`},
		{"frobnicate", "the console takes: describe, set, get, del, count, list"},
		{"quit", "the console takes"},
		{"get Sandbox.Longs['r'] limit 101", "at most 100"},
		{"list Twissandra.Tweet limit 500", "at most 100"},
		{"set Sandbox.UTF8s['r']['" + strings.Repeat("x", 200) + "'] = 'v'", "at most 200"},
		{"set Sandbox.Longs['r']['abc'] = 'v'", "is not a long"},
		{"get Sandbox.Nope['r']", `unknown column family "Nope"`},
	}
	for _, tc := range cases {
		log := oplog.NewLog(false)
		_, err := c.Run(oplog.With(context.Background(), log), "user:ann", tc.stmt)
		var r *teaching.ConsoleRefusal
		if !errors.As(err, &r) || !strings.Contains(r.Message, tc.want) || r.Store {
			t.Errorf("%s: %v, want a refusal of the console's saying %q", tc.stmt, err, tc.want)
		}
		if ops, _ := log.Ops(); len(ops) != 0 {
			t.Errorf("%s: reached a node: %+v", tc.stmt, ops)
		}
	}
	got, err := app.Get(context.Background(), widerow.KeyspaceTwissandra, "ann", engine.ColumnPath{ColumnFamily: "User", Column: []byte("password")}, engine.ONE)
	if err != nil || !strings.HasPrefix(string(got.Column.Value), "$2a$") {
		t.Errorf("ann's password after the refusals: %v %v", got, err)
	}
}

// The password column never shows, however it is read.
func TestConsolePasswordUnreadable(t *testing.T) {
	t.Parallel()
	c, _, _ := newConsole(t, teach.ConsoleConfig{})
	for _, stmt := range []string{
		"get Twissandra.User['ann']",
		"get Twissandra.User['ann']['password']",
		"get Twissandra.User['ann'] start 'password' finish 'password'",
		"list Twissandra.User",
	} {
		out := run(t, c, "browser:b", stmt)
		if strings.Contains(out, "$2a$") || strings.Contains(out, "abcdefghij") {
			t.Errorf("%s shows the hash:\n%s", stmt, out)
		}
		wantIn(t, stmt, out, "<bcrypt hash, 60 bytes>")
	}
	// The learner's own columns show as written, whatever their names.
	run(t, c, "browser:b", "set Sandbox.UTF8s['me']['password'] = 'mine'")
	wantIn(t, "the learner's own", run(t, c, "browser:b", "get Sandbox.UTF8s['me']"), `"password" : "mine"`)
}

// Two learners typing the same keyspace each reach their own: neither sees the other's rows,
// nor can name them.
func TestConsoleSandboxesApart(t *testing.T) {
	t.Parallel()
	c, _, _ := newConsole(t, teach.ConsoleConfig{})
	run(t, c, "user:ann", "set Sandbox.UTF8s['row']['who'] = 'ann'")
	run(t, c, "user:bob", "set Sandbox.UTF8s['row']['who'] = 'bob'; set Sandbox.UTF8s['bobs']['x'] = 'y'")
	wantIn(t, "ann's", run(t, c, "user:ann", "get Sandbox.UTF8s['row']"), `"who" : "ann"`)
	wantIn(t, "bob's", run(t, c, "user:bob", "get Sandbox.UTF8s['row']"), `"who" : "bob"`)
	if out := run(t, c, "user:ann", "list Sandbox.UTF8s"); strings.Contains(out, "bob") || strings.Contains(out, "bobs") {
		t.Errorf("ann's list shows bob's rows:\n%s", out)
	}
	if out := run(t, c, "user:ann", "count Sandbox.UTF8s['bobs']"); out != "0 columns\n" {
		t.Errorf("ann counts bob's row: %q", out)
	}
	run(t, c, "user:bob", "del Sandbox.UTF8s['row']")
	wantIn(t, "ann's after bob's del", run(t, c, "user:ann", "get Sandbox.UTF8s['row']"), `"who" : "ann"`)
}

// Past the cells a sandbox may hold, a set of a new cell is refused, an overwrite is not, and a
// del makes room again; past the rows, a new row is refused.
func TestConsoleSizeBounds(t *testing.T) {
	t.Parallel()
	c, _, _ := newConsole(t, teach.ConsoleConfig{Cells: 3, Rows: 2})
	const ann = "user:ann"
	run(t, c, ann, "set Sandbox.Longs['r'][1] = 'a'; set Sandbox.Longs['r'][2] = 'b'; set Sandbox.Longs['r'][long(2)] = 'again'; set Sandbox.AddressBook['r']['s']['c'] = 'x'")
	r := refused(t, c, ann, "set Sandbox.Longs['r'][3] = 'c'")
	wantIn(t, "over the cells", r.Message, "holds 3 columns, the most it may")
	run(t, c, ann, "set Sandbox.Longs['r'][2] = 'overwritten'")
	run(t, c, ann, "del Sandbox.AddressBook['r']['s']; set Sandbox.Longs['r'][3] = 'c'")
	if out := run(t, c, ann, "count Sandbox.Longs['r']"); out != "3 columns\n" {
		t.Errorf("count: %q", out)
	}
	run(t, c, ann, "del Sandbox.Longs['r']")
	run(t, c, ann, "set Sandbox.Bytes['a']['c'] = 'x'; set Sandbox.Bytes['b']['c'] = 'x'")
	r = refused(t, c, ann, "set Sandbox.Bytes['c']['c'] = 'x'")
	wantIn(t, "over the rows", r.Message, "holds 2 rows, the most it may")
	// The statements of a line before the refused one ran, and the refusal says so.
	r = refused(t, c, ann, "set Sandbox.Bytes['a']['d'] = 'x'; set Sandbox.Bytes['c']['c'] = 'x'")
	wantIn(t, "a line refused in its second statement", r.Message, "Value inserted.\nstatement 2 of 2: ")
}

// A learner past the statements of a minute gets a RetryError, and another learner does not;
// the minute refills.
func TestConsoleRate(t *testing.T) {
	t.Parallel()
	c, _, clk := newConsole(t, teach.ConsoleConfig{StatementsPerMinute: 3, ServerStatementsPerMinute: 5})
	for range 3 {
		run(t, c, "user:ann", "count Sandbox.Longs['r']")
	}
	_, err := c.Run(context.Background(), "user:ann", "count Sandbox.Longs['r']")
	var retry *domain.RetryError
	if !errors.As(err, &retry) || retry.After <= 0 || retry.After > 20*time.Second || !strings.Contains(retry.Message, "3 statements a minute for each learner") {
		t.Fatalf("the 4th statement of a minute: %v, want a RetryError", err)
	}
	run(t, c, "user:bob", "count Sandbox.Longs['r']")
	run(t, c, "user:bob", "count Sandbox.Longs['r']")
	_, err = c.Run(context.Background(), "user:cy", "count Sandbox.Longs['r']")
	if !errors.As(err, &retry) || !strings.Contains(retry.Message, "5 statements a minute for every learner together") {
		t.Fatalf("the server's 6th statement of a minute: %v, want a RetryError", err)
	}
	clk.Add(time.Minute)
	run(t, c, "user:ann", "count Sandbox.Longs['r']")
	// A line counts each of its statements.
	_, err = c.Run(context.Background(), "user:ann", "count Sandbox.Longs['r']; count Sandbox.Longs['r']; count Sandbox.Longs['r']")
	if !errors.As(err, &retry) {
		t.Fatalf("three statements in a line after one, with three a minute: %v, want a RetryError", err)
	}
	if r := refused(t, c, "user:dee", strings.Repeat("count Sandbox.Longs['r'];", 4)); !strings.Contains(r.Message, "holds 4 statements") {
		t.Errorf("a line of more statements than a minute's: %s", r.Message)
	}
}

// Sweep drops a sandbox idle past the bound and no other; the slot it held serves the next
// learner empty, not even a range ghost left.
func TestConsoleSweep(t *testing.T) {
	t.Parallel()
	c, _, clk := newConsole(t, teach.ConsoleConfig{Idle: 10 * time.Minute, Sandboxes: 2})
	run(t, c, "user:ann", "set Sandbox.UTF8s['r']['c'] = 'ann'; del Sandbox.UTF8s['gone']")
	clk.Add(6 * time.Minute)
	run(t, c, "user:bob", "set Sandbox.UTF8s['r']['c'] = 'bob'")
	clk.Add(5 * time.Minute)
	n, err := c.Sweep(context.Background(), clk.Now())
	if err != nil || n != 1 {
		t.Fatalf("sweep: %d, %v; want ann's sandbox", n, err)
	}
	if out := run(t, c, "user:cy", "list Sandbox.UTF8s"); !strings.Contains(out, "0 rows") {
		t.Errorf("the next learner on ann's slot sees:\n%s", out)
	}
	wantIn(t, "bob's, not idle", run(t, c, "user:bob", "get Sandbox.UTF8s['r']"), `"c" : "bob"`)
	if n, err := c.Sweep(context.Background(), clk.Now()); err != nil || n != 0 {
		t.Errorf("a second sweep: %d, %v", n, err)
	}
}

// With every slot in use, a new learner waits until the sandbox idle longest has been idle a
// tenth of the idle bound, then takes its slot, emptied; the others stay.
func TestConsoleFullTakesTheLongestIdle(t *testing.T) {
	t.Parallel()
	c, _, clk := newConsole(t, teach.ConsoleConfig{Idle: 30 * time.Minute, Sandboxes: 2})
	run(t, c, "user:ann", "set Sandbox.UTF8s['r']['c'] = 'ann'")
	clk.Add(time.Minute)
	run(t, c, "user:bob", "set Sandbox.UTF8s['r']['c'] = 'bob'")
	clk.Add(time.Minute)
	_, err := c.Run(context.Background(), "user:cy", "list Sandbox.UTF8s")
	var retry *domain.RetryError
	if !errors.As(err, &retry) || !strings.Contains(retry.Message, "all 2 sandboxes") || retry.After != time.Minute {
		t.Fatalf("a third learner on two slots, the oldest idle 2 minutes: %v, want a RetryError in a minute", err)
	}
	clk.Add(time.Minute)
	if out := run(t, c, "user:cy", "list Sandbox.UTF8s"); !strings.Contains(out, "0 rows") {
		t.Errorf("the learner on ann's slot sees:\n%s", out)
	}
	wantIn(t, "bob's", run(t, c, "user:bob", "get Sandbox.UTF8s['r']"), `"c" : "bob"`)
	if _, err := c.Run(context.Background(), "user:ann", "list Sandbox.UTF8s"); !errors.As(err, &retry) {
		t.Errorf("ann back, no slot idle 3 minutes: %v, want a RetryError", err)
	}
}

// The Module provides the console into the consoles group, with the default bounds, and
// closes it when the application stops.
func TestModuleProvidesTheConsole(t *testing.T) {
	t.Parallel()
	n, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	var got struct {
		fx.In
		Consoles []teaching.Console `group:"consoles"`
	}
	app := fx.New(fx.NopLogger, fx.Supply(n), teach.Module, fx.Populate(&got))
	ctx := context.Background()
	if err := app.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if len(got.Consoles) != 1 || got.Consoles[0].Language() != "cli" {
		t.Fatalf("consoles %v, want the cli console", got.Consoles)
	}
	info, err := got.Consoles[0].Info(ctx, "user:ann")
	if err != nil || info.Bounds.StatementsPerMinute != 60 || info.Bounds.Idle != 30*time.Minute {
		t.Errorf("info %+v, %v: want the defaults", info.Bounds, err)
	}
	if out, err := got.Consoles[0].Run(ctx, "user:ann", "count Sandbox.Longs['r']"); err != nil || out.Output != "0 columns\n" {
		t.Errorf("a statement: %+v, %v", out, err)
	}
	if err := app.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := got.Consoles[0].Run(ctx, "user:ann", "count Sandbox.Longs['r']"); !errors.Is(err, teach.ErrConsoleClosed) {
		t.Error("a statement after the application stopped: no error, want ErrConsoleClosed")
	}
}

// FuzzConsole runs any line in a learner's sandbox: no panic, only a refusal for what is
// refused, no write but in the learner's own keyspace, no read of the Sessions keyspace or of
// another learner's, and neither another learner's values, a password hash nor a session in the
// output.
func FuzzConsole(f *testing.F) {
	for _, s := range []string{
		"set Sandbox.Longs['r'][123] = 'v'; get Sandbox.Longs['r'] [start 1 finish 200 reversed limit 3]",
		"set Sandbox.AddressBook['a']['b']['c'] = utf8('x'); del Sandbox.AddressBook['a']['b']",
		"set Sandbox.Bytes['k'][bytes('cafe')] = long(-5); count Sandbox.Bytes['k']",
		"set Sandbox.TimeUUIDs['k'][timeuuid()] = lexicaluuid(); list Sandbox.TimeUUIDs limit 3",
		"get Twissandra.User['ann']", "list Twissandra.User", "get Twissandra.User['ann']['password']",
		"describe keyspace Sandbox", "show keyspaces", "help types", "list Sessions.Progress",
		"set Twissandra.User['ann']['password'] = 'x'", "del BloggyAppy.Authors['a']", "get Sandbox#000.UTF8s['r']",
		"del Sandbox.UTF8s['r']", "'unterminated", "get a.b[", "quit",
	} {
		f.Add(s)
	}
	c, app, _ := newConsole(f, teach.ConsoleConfig{StatementsPerMinute: 1 << 30, ServerStatementsPerMinute: 1 << 30})
	ctx := context.Background()
	const secret = "other-learner-secret"
	if err := app.Insert(ctx, widerow.KeyspaceSessions, "ann", engine.ColumnPath{ColumnFamily: "Progress", Column: []byte("lesson")}, []byte("session-secret"), 1, engine.ONE); err != nil {
		f.Fatal(err)
	}
	slot := func(sandbox, stmt string) string {
		log := oplog.NewLog(false)
		if _, err := c.Run(oplog.With(ctx, log), sandbox, stmt); err != nil {
			f.Fatal(err)
		}
		ops, _ := log.Ops()
		if len(ops) != 1 {
			f.Fatalf("%s: %+v", stmt, ops)
		}
		ks, _, _ := strings.Cut(ops[0].Family, ".")
		return ks + "."
	}
	other := slot("user:other", "set Sandbox.UTF8s['r']['c'] = '"+secret+"'")
	mine := slot("user:fuzz", "count Sandbox.UTF8s['r']")
	if mine == other {
		f.Fatalf("two learners share %s", mine)
	}
	f.Fuzz(func(t *testing.T, stmt string) {
		log := oplog.NewLog(false)
		res, err := c.Run(oplog.With(ctx, log), "user:fuzz", stmt)
		var refusal *teaching.ConsoleRefusal
		if err != nil && !errors.As(err, &refusal) {
			t.Fatalf("%q: %v, want output or a refusal", stmt, err)
		}
		shown := res.Output
		if refusal != nil {
			shown = refusal.Message
		}
		for _, leak := range []string{secret, "session-secret", "$2a$10$"} {
			if strings.Contains(shown, leak) {
				t.Fatalf("%q shows %q:\n%s", stmt, leak, shown)
			}
		}
		ops, _ := log.Ops()
		for _, op := range ops {
			mineOp := strings.HasPrefix(op.Family, mine)
			app := strings.HasPrefix(op.Family, widerow.KeyspaceTwissandra+".") || strings.HasPrefix(op.Family, widerow.KeyspaceBloggyAppy+".")
			switch {
			case op.Kind != oplog.Read && !mineOp:
				t.Fatalf("%q wrote outside its sandbox: %+v", stmt, op)
			case !mineOp && !app:
				t.Fatalf("%q read outside its sandbox and the application's keyspaces: %+v", stmt, op)
			}
		}
	})
}

// BenchmarkConsole is a statement's cost: a set and a slice of a learner's row, and a read of
// the application's, with the learners of a class each in their own sandbox.
func BenchmarkConsole(b *testing.B) {
	c, _, _ := newConsole(b, teach.ConsoleConfig{StatementsPerMinute: 1 << 30, ServerStatementsPerMinute: 1 << 30, Cells: 1 << 20, Bytes: 1 << 30})
	ctx := context.Background()
	learners := make([]string, 200)
	for i := range learners {
		learners[i] = "browser:" + strconv.Itoa(i)
	}
	for _, bc := range []struct{ name, stmt string }{
		{"set", "set Sandbox.Longs['r'][%d] = 'value'"},
		{"slice", "get Sandbox.Longs['r'] start 0 finish 1000 limit 20"},
		{"application", "get Twissandra.User['ann']"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				stmt := bc.stmt
				if strings.Contains(stmt, "%d") {
					stmt = fmt.Sprintf(stmt, i%1000)
				}
				if _, err := c.Run(ctx, learners[i%len(learners)], stmt); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkConsoleFullSandboxes is the memory of a class: 200 learners each filling their
// sandbox to its bytes bound (columns of 100-byte values), reported as the heap each holds
// (run it with -benchtime 1x).
func BenchmarkConsoleFullSandboxes(b *testing.B) {
	ctx := context.Background()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	val := strings.Repeat("v", 100)
	for b.Loop() {
		c, _, _ := newConsole(b, teach.ConsoleConfig{StatementsPerMinute: 1 << 30, ServerStatementsPerMinute: 1 << 30})
		before := heap()
		cells := 0
		for l := range 200 {
			for i := 0; ; i++ {
				if _, err := c.Run(ctx, "browser:"+strconv.Itoa(l), fmt.Sprintf("set Sandbox.UTF8s['row%d']['col%d'] = '%s'", i%90, i, val)); err != nil {
					break
				}
				cells++
			}
		}
		b.ReportMetric(float64(heap()-before)/200, "heap-B/sandbox")
		b.ReportMetric(float64(cells)/200, "cells/sandbox")
		_ = c.Close()
	}
}

// A read whose output would pass ConsoleOutputBytes shows its first lines and says how much it
// left out.
func TestConsoleOutputBound(t *testing.T) {
	t.Parallel()
	c, app, _ := newConsole(t, teach.ConsoleConfig{})
	val := []byte(strings.Repeat("x", 1000))
	for i := range 100 {
		name := binary.BigEndian.AppendUint64(nil, uint64(i))
		if err := app.Insert(context.Background(), widerow.KeyspaceTwissandra, "wide", engine.ColumnPath{ColumnFamily: "Timeline", Column: name}, val, 1, engine.ONE); err != nil {
			t.Fatal(err)
		}
	}
	out := run(t, c, "user:ann", "get Twissandra.Timeline['wide']")
	if len(out) > teach.ConsoleOutputBytes+200 || !strings.Contains(out, "more bytes not shown") || !strings.Contains(out, "\n        0 : \"xxx") {
		t.Errorf("%d bytes, ending %q", len(out), out[max(0, len(out)-200):])
	}
	if out := run(t, c, "user:ann", "get Twissandra.Timeline['wide'] limit 10"); strings.Contains(out, "not shown") || !strings.Contains(out, "Returned 10 columns.") {
		t.Errorf("a read within the bound:\n%s", out)
	}
}
