package teach

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// The CQL console (teaching.Console, language "cql") on the real node: a learner's statements,
// parsed and checked (console_parse.go, console_check.go), run on tables of their own in the
// console's keyspace beside the application's (ConsoleKeyspace), or on the application's tables
// for SELECT, and printed as cqlsh prints them (console_format.go).
//
// What the servers of a cluster share is in the console's keyspace:
//   - console_sandboxes: a partition per sandbox (its id, a hash of the learner's name), with the
//     learner's settings (TRACING, CONSISTENCY), when it was last used and the rows its writes
//     named in static columns, and a row per table or index it holds. Sweep reads it to drop the
//     sandboxes idle past the bound, whichever server made them.
//   - console_spent: each learner's statements and the cluster's schema changes of the last
//     minute (spendIn, as the query lab counts its tables).
//   - console_counts: the cluster's statements of each minute, a counter (a count every
//     statement reads, where spendIn would read the minute's thousands of entries).

// ConsoleConfig are the CQL console's bounds; a zero field takes its default (DefaultConsoleConfig).
type ConsoleConfig struct {
	// StatementsPerMinute a learner may run, over every server.
	StatementsPerMinute int
	// ClusterStatementsPerMinute every learner together may run, over every server.
	ClusterStatementsPerMinute int
	// SchemaChangesPerMinute the console may make over the cluster (CREATE TABLE, ALTER TABLE,
	// DROP TABLE, TRUNCATE, CREATE INDEX, DROP INDEX): each is applied by every node, one after
	// another.
	SchemaChangesPerMinute int
	// TablesPerSandbox a learner may hold (indexes counted with them), and Tables in the
	// console's keyspace in all.
	TablesPerSandbox int
	Tables           int
	// RowsWritten a sandbox's writes may name in all (an INSERT or UPDATE names one row, a
	// BATCH its statements'): deleting rows gives none back.
	RowsWritten int
	// RowsShown is the most rows one SELECT shows.
	RowsShown int
	// StatementBytes is the longest line taken.
	StatementBytes int
	// Idle is how long a sandbox may sit unused before Sweep drops it.
	Idle time.Duration
}

// DefaultConsoleConfig serves a class of 200: each learner 30 statements a minute (one every
// two seconds), 6,000 a minute over the cluster (every learner at 30); 3 tables each and 300 in
// all (every learner one table, and more for a third of them: a node holds a few hundred
// tables, each with its memtable); 30 schema changes a minute over the cluster (a class of 200
// making a table each waits up to seven minutes: Cassandra applies schema changes one at a
// time, on every node); 10,000 rows written, 100 shown a read, 4 KiB a line, and a sandbox
// dropped after an hour unused.
var DefaultConsoleConfig = ConsoleConfig{
	StatementsPerMinute:        30,
	ClusterStatementsPerMinute: 6000,
	SchemaChangesPerMinute:     30,
	TablesPerSandbox:           3,
	Tables:                     300,
	RowsWritten:                10000,
	RowsShown:                  100,
	StatementBytes:             4096,
	Idle:                       time.Hour,
}

func (c ConsoleConfig) withDefaults() ConsoleConfig {
	d := DefaultConsoleConfig
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&c.StatementsPerMinute, d.StatementsPerMinute)
	set(&c.ClusterStatementsPerMinute, d.ClusterStatementsPerMinute)
	set(&c.SchemaChangesPerMinute, d.SchemaChangesPerMinute)
	set(&c.TablesPerSandbox, d.TablesPerSandbox)
	set(&c.Tables, d.Tables)
	set(&c.RowsWritten, d.RowsWritten)
	set(&c.RowsShown, d.RowsShown)
	set(&c.StatementBytes, d.StatementBytes)
	if c.Idle <= 0 {
		c.Idle = d.Idle
	}
	return c
}

// Console is the CQL console on a Store.
type Console struct {
	s   *Store
	cfg ConsoleConfig
	// now is the clock of the sandboxes' last use (a test's own).
	now func() time.Time

	mu    sync.Mutex
	ready bool                // the console's keyspace and tables exist
	cols  map[string][]string // the application tables' columns, by table
}

// NewConsole is the CQL console on s (started before the first call), with cfg's bounds: the
// constructor compare mode's second backend calls.
func NewConsole(s *Store, cfg ConsoleConfig) *Console {
	return &Console{s: s, cfg: cfg.withDefaults(), now: time.Now}
}

// Language implements teaching.Console.
func (c *Console) Language() string { return "cql" }

// Config is the console's bounds.
func (c *Console) Config() ConsoleConfig { return c.cfg }

func (c *Console) keyspace() string { return ConsoleKeyspace(c.s.Keyspace()) }

func (c *Console) bounds() teaching.ConsoleBounds {
	return teaching.ConsoleBounds{
		StatementsPerMinute: c.cfg.StatementsPerMinute, ClusterStatementsPerMinute: c.cfg.ClusterStatementsPerMinute,
		Tables: c.cfg.TablesPerSandbox, Rows: c.cfg.RowsWritten, RowsShown: c.cfg.RowsShown,
		StatementBytes: c.cfg.StatementBytes, Idle: c.cfg.Idle,
	}
}

// sandboxState is a sandbox's partition of console_sandboxes.
type sandboxState struct {
	tracing     bool
	consistency string
	written     int
	tables      []string          // its tables, as the learner names them
	indexes     map[string]string // its indexes, and the table of each
	used        time.Time
}

func (c *Console) state(ctx context.Context, sess gocqlx.Session, id string) (sandboxState, error) {
	st := sandboxState{consistency: "ONE", indexes: map[string]string{}}
	iter := sess.ContextQuery(ctx, "SELECT name, on_table, tracing, consistency, written, used FROM "+c.keyspace()+".console_sandboxes WHERE id = ?", nil).Bind(id).Iter()
	var name, on, cons *string
	var tracing *bool
	var written *int
	var used *time.Time
	for iter.Scan(&name, &on, &tracing, &cons, &written, &used) {
		if tracing != nil {
			st.tracing = *tracing
		}
		if cons != nil && *cons != "" {
			st.consistency = *cons
		}
		if written != nil {
			st.written = *written
		}
		if used != nil {
			st.used = *used
		}
		switch {
		case name == nil || *name == "":
		case on != nil && *on != "":
			st.indexes[*name] = *on
		default:
			st.tables = append(st.tables, *name)
		}
	}
	return st, iter.Close()
}

// ensure makes the console's keyspace and its tables, once per process.
func (c *Console) ensure(ctx context.Context, sess gocqlx.Session) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ready {
		return nil
	}
	ks := c.keyspace()
	for _, stmt := range []string{
		fmt.Sprintf("CREATE KEYSPACE IF NOT EXISTS %s WITH replication = %s AND durable_writes = false", ks, c.s.store.Replication().CQL()),
		"CREATE TABLE IF NOT EXISTS " + ks + ".console_sandboxes (id text, name text, on_table text, made timestamp, " +
			"sandbox text static, used timestamp static, tracing boolean static, consistency text static, written int static, PRIMARY KEY (id, name))",
		"CREATE TABLE IF NOT EXISTS " + ks + ".console_spent (bucket text, at timeuuid, what text, PRIMARY KEY (bucket, at)) WITH default_time_to_live = 300",
		"CREATE TABLE IF NOT EXISTS " + ks + ".console_counts (bucket text, minute bigint, n counter, PRIMARY KEY (bucket, minute))",
	} {
		if err := sess.ContextQuery(ctx, stmt, nil).ExecRelease(); err != nil {
			return wrap("console keyspace", err)
		}
	}
	if err := sess.AwaitSchemaAgreement(ctx); err != nil {
		return wrap("console schema agreement", err)
	}
	c.ready = true
	return nil
}

// columns are an application table's columns, read from the node's schema once per process.
func (c *Console) columns(ctx context.Context, sess gocqlx.Session) (func(string) []string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cols == nil {
		type col struct {
			Table, Column, Kind string
			Position            int
		}
		var rows []col
		iter := sess.ContextQuery(ctx, "SELECT table_name, column_name, kind, position FROM system_schema.columns WHERE keyspace_name = ?", nil).Bind(c.s.Keyspace()).Iter()
		var r col
		for iter.Scan(&r.Table, &r.Column, &r.Kind, &r.Position) {
			rows = append(rows, r)
		}
		if err := iter.Close(); err != nil {
			return nil, wrap("console schema", err)
		}
		// cqlsh's order of a table's columns: partition key, clustering, then the rest by name.
		rank := map[string]int{"partition_key": 0, "clustering": 1, "static": 2, "regular": 2}
		slices.SortFunc(rows, func(a, b col) int {
			if d := rank[a.Kind] - rank[b.Kind]; d != 0 {
				return d
			}
			if a.Kind != "regular" && a.Kind != "static" {
				return a.Position - b.Position
			}
			return strings.Compare(a.Column, b.Column)
		})
		c.cols = map[string][]string{}
		for _, r := range rows {
			c.cols[r.Table] = append(c.cols[r.Table], r.Column)
		}
	}
	cols := c.cols
	return func(t string) []string { return cols[t] }, nil
}

// Info implements teaching.Console: it reads the sandbox's partition when the console's
// keyspace exists, and makes nothing.
func (c *Console) Info(ctx context.Context, sandbox string) (teaching.ConsoleInfo, error) {
	info := teaching.ConsoleInfo{Language: "cql", Keyspace: ConsoleSandboxKeyspace, Allowed: slices.Clone(consoleAllowed),
		Settings: map[string]string{"tracing": "off", "consistency": "ONE"}, Bounds: c.bounds()}
	env := consoleEnv{appKeyspace: c.s.Keyspace()}
	for _, n := range env.readableNames() {
		info.Readable = append(info.Readable, teaching.ConsoleReadable{Name: n, Hidden: consoleHidden[strings.TrimPrefix(n, env.appKeyspace+".")]})
	}
	sess, err := c.s.sess()
	if err != nil {
		return info, err
	}
	st, err := c.state(ctx, sess, sandboxID(sandbox))
	if err != nil && !unconfigured(err) && !strings.Contains(err.Error(), "Keyspace") {
		return info, wrap("console info", err)
	}
	info.Tables = st.tables
	if st.tracing {
		info.Settings["tracing"] = "on"
	}
	if st.consistency != "" {
		info.Settings["consistency"] = st.consistency
	}
	return info, nil
}

// refuse is a refusal before anything reached the node.
func refuse(msg string) error { return &teaching.ConsoleRefusal{Message: msg} }

// Run implements teaching.Console.
func (c *Console) Run(ctx context.Context, sandbox, statement string) (teaching.ConsoleResult, error) {
	var res teaching.ConsoleResult
	if len(statement) > c.cfg.StatementBytes {
		return res, refuse(fmt.Sprintf("the console takes lines of at most %d bytes: this one has %d", c.cfg.StatementBytes, len(statement)))
	}
	stmts, err := parseCQL(statement)
	if err != nil {
		return res, consoleError(err)
	}
	sess, err := c.s.sess()
	if err != nil {
		return res, err
	}
	cols, err := c.columns(ctx, sess)
	if err != nil {
		return res, err
	}
	id := sandboxID(sandbox)
	env := consoleEnv{id: id, appKeyspace: c.s.Keyspace(), keyspace: c.keyspace(), columns: cols}
	plans := make([]consolePlan, len(stmts))
	for i, st := range stmts {
		if plans[i], err = env.plan(st); err != nil {
			return res, consoleError(err)
		}
	}
	if err := c.ensure(ctx, sess); err != nil {
		return res, err
	}
	var out strings.Builder
	for _, pl := range plans {
		sent, err := c.runOne(ctx, sess, sandbox, id, pl, &out)
		res.Sent = append(res.Sent, sent...)
		if err != nil {
			var cr *teaching.ConsoleRefusal
			if errors.As(err, &cr) && out.Len() > 0 {
				cr.Message = out.String() + cr.Message
			}
			return res, err
		}
	}
	res.Output = out.String()
	return res, nil
}

// consoleError is the refusal of a statement the parser or the checks would not take.
func consoleError(err error) error {
	var se *cqlSyntaxError
	var na *notAllowedError
	switch {
	case errors.As(err, &se):
		return refuse("SyntaxException: " + se.Error())
	case errors.As(err, &na):
		return refuse(na.msg)
	}
	return err
}

// spendStatement counts one statement of the learner's and of the cluster's, or says when one
// may be run.
func (c *Console) spendStatement(ctx context.Context, sess gocqlx.Session, id string) error {
	ks := c.keyspace()
	_, wait, err := c.s.spendIn(ctx, sess, ks+".console_spent", "s:"+id, "statement", c.cfg.StatementsPerMinute)
	if err != nil {
		return wrap("console budget", err)
	}
	if wait > 0 {
		return &domain.RetryError{After: wait, Message: fmt.Sprintf("you have run your %d statements of the minute: try again in %d seconds", c.cfg.StatementsPerMinute, int(wait/time.Second)+1)}
	}
	now := time.Now()
	minute := now.Unix() / 60
	if err := sess.ContextQuery(ctx, "UPDATE "+ks+".console_counts SET n = n + 1 WHERE bucket = 'statements' AND minute = ?", nil).Bind(minute).ExecRelease(); err != nil {
		return wrap("console budget", err)
	}
	var n int64
	if err := sess.ContextQuery(ctx, "SELECT n FROM "+ks+".console_counts WHERE bucket = 'statements' AND minute = ?", nil).Bind(minute).GetRelease(&n); err != nil {
		return wrap("console budget", err)
	}
	if n > int64(c.cfg.ClusterStatementsPerMinute) {
		wait := time.Unix((minute+1)*60, 0).Sub(now)
		return &domain.RetryError{After: wait, Message: fmt.Sprintf("the class has run the cluster's %d console statements of the minute: try again in %d seconds", c.cfg.ClusterStatementsPerMinute, int(wait/time.Second)+1)}
	}
	return nil
}

// spendSchema counts one schema change in the cluster's budget of the minute.
func (c *Console) spendSchema(ctx context.Context, sess gocqlx.Session, what string) (gocql.UUID, error) {
	at, wait, err := c.s.spendIn(ctx, sess, c.keyspace()+".console_spent", "schema", what, c.cfg.SchemaChangesPerMinute)
	if err != nil {
		return at, wrap("console budget", err)
	}
	if wait > 0 {
		return at, &domain.RetryError{After: wait, Message: fmt.Sprintf("the class has made the cluster's %d schema changes of the minute (each one every node applies, one after another): try again in %d seconds", c.cfg.SchemaChangesPerMinute, int(wait/time.Second)+1)}
	}
	return at, nil
}

// unmap puts the learner's names back in the node's text: the sandbox's tables and indexes as
// the learner names them, the console's keyspace as "sandbox".
func (c *Console) unmap(id, s string) string {
	s = strings.ReplaceAll(s, c.keyspace()+"."+realName(id, ""), ConsoleSandboxKeyspace+".")
	s = strings.ReplaceAll(s, realName(id, ""), "")
	return strings.ReplaceAll(s, c.keyspace(), ConsoleSandboxKeyspace)
}

// runOne runs one checked statement, printing what cqlsh prints into out.
func (c *Console) runOne(ctx context.Context, sess gocqlx.Session, sandbox, id string, pl consolePlan, out *strings.Builder) ([]string, error) {
	if err := c.spendStatement(ctx, sess, id); err != nil {
		return nil, err
	}
	state, err := c.state(ctx, sess, id)
	if err != nil {
		return nil, wrap("console sandbox", err)
	}
	now := c.now()
	ks := c.keyspace()
	touch := func(extra string, args ...any) error {
		q := "UPDATE " + ks + ".console_sandboxes SET used = ?, sandbox = ?" + extra + " WHERE id = ?"
		return wrap("console sandbox", sess.ContextQuery(ctx, q, nil).Bind(append(append([]any{now, sandbox}, args...), id)...).ExecRelease())
	}
	st := pl.st
	switch st.Verb {
	case "TRACING":
		switch {
		case st.Arg == "" && state.tracing:
			out.WriteString("Tracing is currently enabled. Use TRACING OFF to disable\n")
		case st.Arg == "":
			out.WriteString("Tracing is currently disabled. Use TRACING ON to enable.\n")
		case st.Arg == "ON" && state.tracing:
			out.WriteString("Tracing is already enabled. Use TRACING OFF to disable.\n")
		case st.Arg == "ON":
			out.WriteString("Now Tracing is enabled\n")
		case !state.tracing:
			out.WriteString("Tracing is not enabled.\n")
		default:
			out.WriteString("Disabled Tracing.\n")
		}
		if st.Arg == "" {
			return nil, touch("")
		}
		return nil, touch(", tracing = ?", st.Arg == "ON")
	case "USE": // the sandbox, the console's keyspace already: cqlsh prints nothing
		return nil, touch("")
	case "CONSISTENCY":
		if st.Arg == "" {
			fmt.Fprintf(out, "Current consistency level is %s.\n", state.consistency)
			return nil, touch("")
		}
		fmt.Fprintf(out, "Consistency level set to %s.\n", st.Arg)
		return nil, touch(", consistency = ?", st.Arg)
	case "DESCRIBE":
		if st.Arg == "TABLES" || st.Arg == "KEYSPACE" && pl.cql == "" {
			return c.describeSandbox(ctx, sess, id, st.Arg, state, out, touch)
		}
	}
	if st.Writes > 0 && state.written+st.Writes > c.cfg.RowsWritten {
		return nil, refuse(fmt.Sprintf("your sandbox's writes have named %d rows, its bound is %d: drop a table (or wait for the sandbox to be dropped after %s unused) to start again", state.written, c.cfg.RowsWritten, c.cfg.Idle))
	}
	// The sandbox's tables: the bounds, and the registry Sweep reads.
	var release func()
	if pl.schema {
		if err := c.checkTables(ctx, sess, id, pl, state); err != nil {
			return nil, err
		}
		at, err := c.spendSchema(ctx, sess, st.Verb)
		if err != nil {
			return nil, err
		}
		release = func() { _ = c.s.unspendIn(context.WithoutCancel(ctx), sess, ks+".console_spent", "schema", at) }
		if st.Verb == "CREATE TABLE" && !slices.Contains(state.tables, pl.table) {
			release2, err := c.claimTable(ctx, sess, id, pl.table, "", now)
			if err != nil {
				release()
				return nil, err
			}
			r1 := release
			release = func() { r1(); release2() }
		}
	}
	if pl.note != "" {
		out.WriteString(pl.note + "\n")
	}
	sent := []string{pl.cql}
	err = c.execute(ctx, sess, id, pl, state, out)
	if err != nil {
		if release != nil {
			release()
		}
		var cr *teaching.ConsoleRefusal
		if _, app := consoleHidden[pl.table]; app && errors.As(err, &cr) && !slices.Contains(state.tables, pl.table) {
			cr.Message += fmt.Sprintf("\n(%s is a table of your sandbox, which has none of that name: the application's is %s.%s)", pl.table, c.s.Keyspace(), pl.table)
		}
		return sent, err
	}
	switch st.Verb {
	case "CREATE INDEX":
		err = sess.ContextQuery(ctx, "INSERT INTO "+ks+".console_sandboxes (id, name, on_table, made) VALUES (?, ?, ?, ?)", nil).Bind(id, pl.index, pl.table, now).ExecRelease()
		if err == nil {
			err = c.awaitIndex(ctx, sess, pl.realIndex, out)
		}
	case "DROP INDEX":
		err = sess.ContextQuery(ctx, "DELETE FROM "+ks+".console_sandboxes WHERE id = ? AND name = ?", nil).Bind(id, pl.index).ExecRelease()
	case "DROP TABLE":
		for _, n := range append([]string{pl.table}, indexesOn(state, pl.table)...) {
			if err == nil {
				err = sess.ContextQuery(ctx, "DELETE FROM "+ks+".console_sandboxes WHERE id = ? AND name = ?", nil).Bind(id, n).ExecRelease()
			}
		}
	}
	if err != nil {
		return sent, wrap("console sandbox", err)
	}
	if st.Writes > 0 {
		return sent, touch(", written = ?", state.written+st.Writes)
	}
	return sent, touch("")
}

// awaitIndex waits, within traceTook, for the node to have built a new index (its row in
// system."IndexInfo"), so that the learner's next read by it finds it: a read while it builds
// fails on the node. An index still building by then is said so.
func (c *Console) awaitIndex(ctx context.Context, sess gocqlx.Session, index string, out *strings.Builder) error {
	deadline := time.Now().Add(traceTook)
	for {
		var built []string
		if err := sess.ContextQuery(ctx, `SELECT index_name FROM system."IndexInfo" WHERE table_name = ? AND index_name = ?`, nil).
			Bind(c.keyspace(), index).SelectRelease(&built); err != nil {
			return wrap("console index", err)
		}
		if len(built) > 0 {
			return nil
		}
		if time.Now().After(deadline) {
			out.WriteString("(the index is still being built: a read by it fails until it is)\n")
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(tracePollEvery):
		}
	}
}

func indexesOn(state sandboxState, table string) []string {
	var out []string
	for n, t := range state.indexes {
		if t == table {
			out = append(out, n)
		}
	}
	return out
}

// checkTables holds a CREATE TABLE or CREATE INDEX to the sandbox's bound of tables.
func (c *Console) checkTables(ctx context.Context, sess gocqlx.Session, id string, pl consolePlan, state sandboxState) error {
	held := len(state.tables) + len(state.indexes)
	switch {
	case pl.st.Verb == "CREATE TABLE" && !slices.Contains(state.tables, pl.table),
		pl.st.Verb == "CREATE INDEX" && state.indexes[pl.index] == "":
		if held >= c.cfg.TablesPerSandbox {
			return refuse(fmt.Sprintf("your sandbox holds %d tables and indexes, its bound: drop one (DROP TABLE, DROP INDEX) to make another", held))
		}
	}
	return nil
}

// claimTable writes a table of the sandbox into the registry before it is made, then counts the
// console keyspace's tables, every server's: over the bound it takes its row out again (so two
// servers making the last table at once never both make it). It returns the undoing of the
// claim, for a table the node did not make.
func (c *Console) claimTable(ctx context.Context, sess gocqlx.Session, id, name, on string, now time.Time) (func(), error) {
	ks := c.keyspace()
	if err := sess.ContextQuery(ctx, "INSERT INTO "+ks+".console_sandboxes (id, name, on_table, made, used) VALUES (?, ?, ?, ?, ?)", nil).Bind(id, name, on, now, now).ExecRelease(); err != nil {
		return nil, wrap("console sandbox", err)
	}
	undo := func() {
		_ = sess.ContextQuery(context.WithoutCancel(ctx), "DELETE FROM "+ks+".console_sandboxes WHERE id = ? AND name = ?", nil).Bind(id, name).ExecRelease()
	}
	var held int
	iter := sess.ContextQuery(ctx, "SELECT name FROM "+ks+".console_sandboxes", nil).PageSize(1000).Iter()
	var n *string
	for iter.Scan(&n) {
		if n != nil && *n != "" {
			held++
		}
	}
	if err := iter.Close(); err != nil {
		undo()
		return nil, wrap("console tables", err)
	}
	if held > c.cfg.Tables {
		undo()
		return nil, &domain.RetryError{After: c.cfg.Idle, Message: fmt.Sprintf("the class's sandboxes hold the cluster's %d tables: drop one of yours, or wait for idle sandboxes to be dropped (after %s unused)", c.cfg.Tables, c.cfg.Idle)}
	}
	return undo, nil
}

// execute sends a checked statement to the node and prints its result, and its trace when the
// learner's tracing is on.
func (c *Console) execute(ctx context.Context, sess gocqlx.Session, id string, pl consolePlan, state sandboxState, out *strings.Builder) error {
	cons, err := gocql.ParseConsistencyWrapper(state.consistency)
	if err != nil {
		cons = gocql.One
	}
	// The leading comment keeps the driver from preparing the statement: a learner's
	// statements, each with its own literals, would fill the node's cache of prepared ones.
	q := sess.Session.Query("/* console */ " + pl.cql).WithContext(ctx).Consistency(cons).PageSize(c.cfg.RowsShown)
	defer q.Release()
	tr := &tracer{}
	if state.tracing {
		q.Trace(tr)
	}
	iter := q.Iter()
	cols := iter.Columns()
	var rows [][]string
	more := false
	if len(cols) > 0 {
		dest, err := scanTargets(cols)
		if err != nil {
			_ = iter.Close()
			return wrap("console result", err)
		}
		for len(rows) < c.cfg.RowsShown && iter.Scan(dest...) {
			row := make([]string, len(cols))
			for i, col := range cols {
				row[i] = c.unmap(id, cqlshValue(col.TypeInfo, dest[i]))
			}
			rows = append(rows, row)
		}
		more = len(rows) == c.cfg.RowsShown && len(iter.PageState()) > 0
	}
	if err := iter.Close(); err != nil {
		return c.nodeRefusal(id, err)
	}
	switch {
	case pl.st.Verb == "DESCRIBE":
		for _, r := range rows {
			for i, col := range cols {
				if col.Name == "create_statement" {
					out.WriteString("\n" + r[i] + "\n")
				}
			}
		}
		out.WriteString("\n")
	case pl.st.Verb == "SELECT":
		var names []string
		for _, col := range cols {
			names = append(names, col.Name)
		}
		out.WriteString("\n")
		cqlshTable(out, names, rows)
		if more {
			fmt.Fprintf(out, "(%d rows shown: the console shows at most %d rows of a read)\n", len(rows), c.cfg.RowsShown)
		} else {
			fmt.Fprintf(out, "(%d rows)\n", len(rows))
		}
	case len(cols) > 0: // a conditional write's [applied]
		var names []string
		for _, col := range cols {
			names = append(names, col.Name)
		}
		out.WriteString("\n")
		cqlshTable(out, names, rows)
	}
	if state.tracing && len(tr.id) == 16 {
		return c.printTrace(ctx, sess, id, tr.id, out)
	}
	return nil
}

// nodeRefusal is the node's refusal of a statement as cqlsh prints it, the sandbox's names as
// the learner typed them; an error that is not the node's answer to the statement stays one.
func (c *Console) nodeRefusal(id string, err error) error {
	var re gocql.RequestError
	if !errors.As(err, &re) {
		return wrap("console statement", err)
	}
	names := map[int]string{
		gocql.ErrCodeUnavailable:   "Unavailable: Error from server: code=1000 [Unavailable exception]",
		gocql.ErrCodeWriteTimeout:  "WriteTimeout: Error from server: code=1100 [Coordinator node timed out waiting for replica nodes' responses]",
		gocql.ErrCodeReadTimeout:   "ReadTimeout: Error from server: code=1200 [Coordinator node timed out waiting for replica nodes' responses]",
		gocql.ErrCodeReadFailure:   "ReadFailure: Error from server: code=1300 [Replica(s) failed to execute read]",
		gocql.ErrCodeWriteFailure:  "WriteFailure: Error from server: code=1500 [Replica(s) failed to execute write]",
		gocql.ErrCodeSyntax:        "SyntaxException: Error from server: code=2000 [Syntax error in CQL query]",
		gocql.ErrCodeInvalid:       "InvalidRequest: Error from server: code=2200 [Invalid query]",
		gocql.ErrCodeConfig:        "ConfigurationException: Error from server: code=2300 [Query invalid because of configuration issue]",
		gocql.ErrCodeAlreadyExists: "AlreadyExists: Error from server: code=2400 [Cannot add already existing table]",
	}
	head, ok := names[re.Code()]
	if !ok {
		return wrap("console statement", err)
	}
	return &teaching.ConsoleRefusal{Store: true, Message: head + ` message="` + c.unmap(id, re.Message()) + `"`}
}

// printTrace prints the trace of session traceID as cqlsh does after a traced statement: the
// request, each event of system_traces.events, and "Request complete", waiting as cqlsh does
// for the coordinator to finish writing the session (its duration set).
func (c *Console) printTrace(ctx context.Context, sess gocqlx.Session, id string, traceID []byte, out *strings.Builder) error {
	var tid gocql.UUID
	copy(tid[:], traceID)
	var (
		request, client string
		coordinator     string
		started         time.Time
		duration        *int
	)
	deadline := time.Now().Add(traceTook)
	for {
		iter := sess.Session.Query("SELECT request, coordinator, client, started_at, duration FROM system_traces.sessions WHERE session_id = ?", tid).
			WithContext(ctx).Consistency(gocql.One).Iter()
		var coord, cl string
		found := iter.Scan(&request, &coord, &cl, &started, &duration)
		if err := iter.Close(); err != nil {
			return wrap("console trace", err)
		}
		coordinator, client = coord, cl
		if found && duration != nil {
			break
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(out, "Session %s wasn't found.\n", tid)
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(tracePollEvery): // cqlsh polls too, every half second
		}
	}
	stamp := func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05.000000") }
	rows := [][]string{{request, stamp(started), coordinator, "0", client}}
	iter := sess.Session.Query("SELECT activity, event_id, source, source_elapsed, thread FROM system_traces.events WHERE session_id = ?", tid).
		WithContext(ctx).Consistency(gocql.One).Iter()
	var activity, source, thread string
	var event gocql.UUID
	var elapsed *int
	for iter.Scan(&activity, &event, &source, &elapsed, &thread) {
		e := "--"
		if elapsed != nil {
			e = fmt.Sprint(*elapsed)
		}
		rows = append(rows, []string{c.unmap(id, fmt.Sprintf("%s [%s]", activity, thread)), stamp(event.Time()), source, e, client})
	}
	if err := iter.Close(); err != nil {
		return wrap("console trace", err)
	}
	rows = append(rows, []string{"Request complete", stamp(started.Add(time.Duration(*duration) * time.Microsecond)), coordinator, fmt.Sprint(*duration), client})
	fmt.Fprintf(out, "\nTracing session: %s\n\n", tid)
	cqlshTable(out, []string{"activity", "timestamp", "source", "source_elapsed", "client"}, rows)
	return nil
}

// describeSandbox prints DESCRIBE TABLES (the sandbox's tables' names, as cqlsh lists them) or
// DESCRIBE KEYSPACE (each table's CREATE TABLE, the node's own, in the learner's names: the
// sandbox is a set of tables in a keyspace every learner's share, so it has no CREATE KEYSPACE
// of its own).
func (c *Console) describeSandbox(ctx context.Context, sess gocqlx.Session, id, what string, state sandboxState, out *strings.Builder, touch func(string, ...any) error) ([]string, error) {
	tables := slices.Sorted(slices.Values(state.tables))
	var sent []string
	if what == "TABLES" {
		out.WriteString("\n" + strings.Join(tables, "  ") + "\n\n")
		if len(tables) == 0 {
			out.WriteString("(no tables yet: CREATE TABLE makes one)\n")
		}
		return nil, touch("")
	}
	if len(tables) == 0 {
		out.WriteString("\n(no tables yet: CREATE TABLE makes one)\n")
	}
	for _, t := range tables {
		pl := consolePlan{st: &cqlStmt{Verb: "DESCRIBE"}, cql: "DESCRIBE TABLE " + c.keyspace() + "." + realName(id, t)}
		sent = append(sent, pl.cql)
		var b strings.Builder
		if err := c.execute(ctx, sess, id, pl, sandboxState{consistency: "ONE"}, &b); err != nil {
			return sent, err
		}
		out.WriteString(b.String())
	}
	return sent, touch("")
}

// Sweep implements teaching.Console: it drops every sandbox unused since before now minus the
// idle bound, its tables and its registry, whichever server made it. A sandbox used again
// meanwhile is kept (the sweep's first delete is conditional on its last use).
func (c *Console) Sweep(ctx context.Context, now time.Time) (int, error) {
	sess, err := c.s.sess()
	if err != nil {
		return 0, err
	}
	ks := c.keyspace()
	type entry struct {
		used   time.Time
		tables []string
	}
	sandboxes := map[string]*entry{}
	iter := sess.ContextQuery(ctx, "SELECT id, name, on_table, used FROM "+ks+".console_sandboxes", nil).PageSize(1000).Iter()
	var sid string
	var name, on *string
	var used *time.Time
	for iter.Scan(&sid, &name, &on, &used) {
		e := sandboxes[sid]
		if e == nil {
			e = &entry{}
			sandboxes[sid] = e
		}
		if used != nil {
			e.used = *used
		}
		if name != nil && *name != "" && (on == nil || *on == "") {
			e.tables = append(e.tables, *name)
		}
	}
	if err := iter.Close(); err != nil {
		if unconfigured(err) || strings.Contains(err.Error(), "Keyspace") {
			return 0, nil // no console used yet
		}
		return 0, wrap("console sweep", err)
	}
	dropped := 0
	for sid, e := range sandboxes {
		if !e.used.Before(now.Add(-c.cfg.Idle)) {
			continue
		}
		// Its last use taken out, if it is still the one read (a lightweight transaction: not
		// used again meanwhile, nor swept by another server), then its partition.
		ok, err := c.s.store.CAS(sess.ContextQuery(ctx, "DELETE used FROM "+ks+".console_sandboxes WHERE id = ? IF used = ?", nil).Bind(sid, e.used))
		if err != nil {
			return dropped, wrap("console sweep", err)
		}
		if !ok {
			continue
		}
		if err := sess.ContextQuery(ctx, "DELETE FROM "+ks+".console_sandboxes WHERE id = ?", nil).Bind(sid).ExecRelease(); err != nil {
			return dropped, wrap("console sweep", err)
		}
		for _, t := range e.tables {
			if err := sess.ContextQuery(ctx, "DROP TABLE IF EXISTS "+ks+"."+realName(sid, t), nil).ExecRelease(); err != nil {
				return dropped, wrap("console sweep", err)
			}
		}
		dropped++
	}
	// A table of no sandbox's registry (a CREATE TABLE the node made after its server gave up
	// waiting, and undid its claim): dropped, after a second look at its sandbox's partition.
	var names []string
	if err := sess.ContextQuery(ctx, "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", nil).Bind(ks).SelectRelease(&names); err != nil {
		return dropped, wrap("console sweep", err)
	}
	for _, n := range names {
		sid, _, ok := strings.Cut(strings.TrimPrefix(n, "s"), "_")
		if !strings.HasPrefix(n, "s") || !ok || len(sid) != 10 || sandboxes[sid] != nil && !sandboxes[sid].used.Before(now.Add(-c.cfg.Idle)) {
			continue
		}
		var held []string
		if err := sess.ContextQuery(ctx, "SELECT name FROM "+ks+".console_sandboxes WHERE id = ? AND name = ?", nil).Bind(sid, strings.TrimPrefix(n, "s"+sid+"_")).SelectRelease(&held); err != nil {
			return dropped, wrap("console sweep", err)
		}
		if len(held) > 0 {
			continue
		}
		if err := sess.ContextQuery(ctx, "DROP TABLE IF EXISTS "+ks+"."+n, nil).ExecRelease(); err != nil {
			return dropped, wrap("console sweep", err)
		}
	}
	minute := now.Unix()/60 - 10
	if err := sess.ContextQuery(ctx, "DELETE FROM "+ks+".console_counts WHERE bucket = 'statements' AND minute < ?", nil).Bind(minute).ExecRelease(); err != nil {
		return dropped, wrap("console sweep", err)
	}
	return dropped, nil
}

var _ teaching.Console = (*Console)(nil)
