package teach

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/cli"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// ConsoleConfig are the cli console's bounds. widerow is one process per store, so what the
// process counts is what the cluster counts. The zero value of a field takes its default,
// sized for a class of 200 learners typing at once.
type ConsoleConfig struct {
	// StatementsPerMinute a learner may run (60), and ServerStatementsPerMinute every learner
	// together (6,000: 200 learners, each a statement every two seconds).
	StatementsPerMinute       int
	ServerStatementsPerMinute int
	// Sandboxes is the most sandboxes held at once (400: a class of 200, each perhaps once
	// anonymous and once signed in). When all are in use, a new learner takes the slot of the
	// one idle longest if it has been idle a tenth of Idle (3 minutes), else waits: so that
	// visitors who come and go (new browsers, one statement each) cannot hold a class out for
	// the whole of Idle.
	Sandboxes int
	// Rows a sandbox holds across its column families (100), Cells (columns and subcolumns) in
	// all (1,000), and Bytes of their keys, names and values (64 KiB): a sandbox full to it
	// holds 230 KB of heap, the engine's and the account's (BenchmarkConsoleFullSandboxes), so
	// 400 full ones about 90 MiB.
	Rows, Cells, Bytes int
	// RowsShown is the most columns or rows one read shows (100, the cli's default count).
	RowsShown int
	// StatementBytes is the longest line taken (2,048: a few statements of a lesson).
	StatementBytes int
	// Idle is how long a sandbox may sit unused before Sweep drops it (30 minutes).
	Idle time.Duration
	// Now is the console's clock (time.Now).
	Now func() time.Time
}

func (c ConsoleConfig) withDefaults() ConsoleConfig {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.StatementsPerMinute, 60)
	def(&c.ServerStatementsPerMinute, 6000)
	def(&c.Sandboxes, 400)
	def(&c.Rows, 100)
	def(&c.Cells, 1000)
	def(&c.Bytes, 64<<10)
	def(&c.RowsShown, 100)
	def(&c.StatementBytes, 2048)
	if c.Idle <= 0 {
		c.Idle = 30 * time.Minute
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// ConsoleKeyspace is the keyspace every learner types, each reaching their own.
const ConsoleKeyspace = "Sandbox"

// consoleReadable are the application's keyspaces a console reads and never writes. The
// Sessions keyspace (the sessions ended early, the log-in attempts, the learners' progress) is
// not among them: the console names it nowhere and refuses it.
var consoleReadable = []string{widerow.KeyspaceTwissandra, widerow.KeyspaceBloggyAppy}

// consoleHidden are the columns a console never shows of the application's keyspaces, in any
// of their column families: their values print as what they are ("<bcrypt hash, 60 bytes>",
// "<email, hidden>", notation.Redact).
var consoleHidden = []string{domain.PasswordColumn, domain.EmailColumn}

// consoleHiddenIn are the column families where the application writes the hidden columns, as
// Info names them: a user's password hash, a commenter's e-mail address (a subcolumn). The
// console hides those names in every column family; Info says where they are.
var consoleHiddenIn = map[string][]string{
	widerow.KeyspaceTwissandra + "." + widerow.CFUser:     {domain.PasswordColumn},
	widerow.KeyspaceBloggyAppy + "." + widerow.CFComments: {domain.EmailColumn},
}

// consoleAllowed are the statements the console takes, as their first words.
var consoleAllowed = []string{"describe", "set", "get", "del", "count", "list", "show keyspaces", "help"}

// Console is the cli console (teaching.Console, language "cli"): the cassandra-cli language of
// package adapters/widerow/cli, run for each learner on a keyspace of their own, Sandbox, with
// the column families of the cli's Scratch keyspace (one per comparator, and a super column
// family), beside the application's keyspaces, which it reads and never writes.
//
// Where the sandboxes live: in one scratch engine node in memory, apart from the store's node,
// whose schema holds a fixed number of sandbox keyspaces ("slots", Sandbox#000, Sandbox#001,
// ...). A learner's sandbox string is hashed (SHA-256) to find their slot, taken from the free
// ones when they first type; the statement's keyspace Sandbox is placed on that slot and on no
// other, so that no name a learner types reaches another's keyspace, and the application's node
// never receives a write. Not the store's node: sandbox writes would go to its commit log on
// disk (a sync each under batch), outlive a restart that no learner needs, and share its
// compactions. Not a node per learner: an engine node in memory costs 270 KiB of heap and four
// goroutines on opening, then a memtable and a block cache of its own as it is written, times
// 400; the one node with 400 slots costs one memtable and cache (4 MiB each), opens in 5 ms and
// holds its 2,800 column families' schema in about 1.5 MiB (measured for 512); 200 learners
// each at their sandbox's bytes bound hold 45 MiB of heap in all. A slot swept is emptied at
// once by one range deletion per column family (engine.Node.TruncateKeyspace), range ghosts and
// all, before the next learner gets it.
type Console struct {
	app     *engine.Node // the store's node: the application's keyspaces, read only
	scratch *engine.Node // the sandboxes' slots
	cfg     ConsoleConfig
	sandbox *engine.KeyspaceDef // the Sandbox keyspace as learners see it

	closed atomic.Bool
	mu     sync.Mutex
	boxes  map[[sha256.Size]byte]*box
	free   []int // slots not in use, the next taken from the end
	all    bucket
}

// box is one learner's sandbox: its slot, the account of what it holds, its shell.
type box struct {
	slot  int
	rate  bucket    // under Console.mu
	used  time.Time // under Console.mu
	mu    sync.Mutex
	gone  bool // swept: a statement that waited for mu finds another box
	shell *cli.Shell
	held  map[cellID]int // each cell's bytes
	rows  map[rowID]int  // each row's cells
	bytes int
}

type rowID struct{ cf, key string }

type cellID struct {
	rowID
	super, column string
}

// NewConsole opens the console's scratch node beside app, the store's node. Close closes it.
func NewConsole(app *engine.Node, cfg ConsoleConfig) (*Console, error) {
	cfg = cfg.withDefaults()
	def := engine.DefaultSchema()
	scratch, ok := def.Keyspace("Scratch")
	if !ok {
		return nil, errors.New("cli console: the engine's schema has no Scratch keyspace")
	}
	learners := engine.KeyspaceDef{Name: ConsoleKeyspace, ReplicationFactor: scratch.ReplicationFactor, ColumnFamilies: scratch.ColumnFamilies}
	schema := &engine.Schema{ClusterName: "Twissandra consoles", Partitioner: engine.RandomPartitioner,
		CommitLogSync: engine.SyncPeriodic, CommitLogSyncPeriod: def.CommitLogSyncPeriod, GCGraceSeconds: def.GCGraceSeconds}
	for i := range cfg.Sandboxes {
		schema.Keyspaces = append(schema.Keyspaces, engine.KeyspaceDef{Name: slotName(i), ReplicationFactor: 1, ColumnFamilies: scratch.ColumnFamilies})
	}
	node, err := engine.Open(engine.Options{Schema: schema, CacheSize: 4 << 20, MemTableSize: 4 << 20, RowCacheSize: -1})
	if err != nil {
		return nil, fmt.Errorf("cli console: scratch node: %w", err)
	}
	c := &Console{app: app, scratch: node, cfg: cfg, sandbox: &learners, boxes: map[[sha256.Size]byte]*box{},
		all: bucket{perMinute: cfg.ServerStatementsPerMinute}}
	for i := cfg.Sandboxes - 1; i >= 0; i-- {
		c.free = append(c.free, i)
	}
	return c, nil
}

func slotName(i int) string { return fmt.Sprintf("%s#%03d", ConsoleKeyspace, i) }

// ErrConsoleClosed is what a closed console answers.
var ErrConsoleClosed = errors.New("cli console: closed")

// Close closes the scratch node once the statements running have ended: every sandbox is gone,
// and a statement after it gets ErrConsoleClosed.
func (c *Console) Close() error {
	c.closed.Store(true)
	c.mu.Lock()
	boxes := make([]*box, 0, len(c.boxes))
	for _, b := range c.boxes {
		boxes = append(boxes, b)
	}
	c.mu.Unlock()
	for _, b := range boxes {
		b.mu.Lock() // the statement running in it ends first
		b.gone = true
		b.mu.Unlock()
	}
	return c.scratch.Close()
}

// Language is "cli".
func (c *Console) Language() string { return "cli" }

// Info says what every sandbox has; it makes nothing.
func (c *Console) Info(_ context.Context, _ string) (teaching.ConsoleInfo, error) {
	info := teaching.ConsoleInfo{Language: "cli", Keyspace: ConsoleKeyspace, Allowed: consoleAllowed, Bounds: c.Bounds()}
	for _, cf := range c.sandbox.ColumnFamilies {
		ccf := teaching.ConsoleCF{Name: cf.Name, Type: cf.ColumnType(), Comparator: cf.CompareWith.String()}
		if cf.Super {
			ccf.SubComparator = cf.CompareSubcolumnsWith.String()
		}
		info.ColumnFamilies = append(info.ColumnFamilies, ccf)
	}
	for _, name := range consoleReadable {
		ks, ok := c.app.Schema().Keyspace(name)
		if !ok {
			continue
		}
		for _, cf := range ks.ColumnFamilies {
			info.Readable = append(info.Readable, teaching.ConsoleReadable{Name: name + "." + cf.Name, Hidden: consoleHiddenIn[name+"."+cf.Name]})
		}
	}
	return info, nil
}

// Bounds are the console's bounds as its page and API state them: Tables is the rows a
// sandbox holds across its column families, Rows its cells in all.
func (c *Console) Bounds() teaching.ConsoleBounds {
	return teaching.ConsoleBounds{
		StatementsPerMinute:        c.cfg.StatementsPerMinute,
		ClusterStatementsPerMinute: c.cfg.ServerStatementsPerMinute,
		Tables:                     c.cfg.Rows,
		Rows:                       c.cfg.Cells,
		RowsShown:                  c.cfg.RowsShown,
		StatementBytes:             c.cfg.StatementBytes,
		Idle:                       c.cfg.Idle,
	}
}

func refuse(format string, args ...any) *teaching.ConsoleRefusal {
	return &teaching.ConsoleRefusal{Message: fmt.Sprintf(format, args...)}
}

func allowedText() string { return strings.Join(consoleAllowed, ", ") }

// Run parses, checks and runs a line of statements in the learner's sandbox.
func (c *Console) Run(ctx context.Context, sandbox, statement string) (teaching.ConsoleResult, error) {
	if len(statement) > c.cfg.StatementBytes {
		return teaching.ConsoleResult{}, refuse("the statement is %d bytes: the console takes at most %d", len(statement), c.cfg.StatementBytes)
	}
	if !utf8.ValidString(statement) {
		return teaching.ConsoleResult{}, refuse("the statement is not valid UTF-8")
	}
	stmts, err := cli.Parse(statement)
	if err != nil {
		return teaching.ConsoleResult{}, refuse("%v (the console takes: %s)", err, allowedText())
	}
	for _, st := range stmts {
		if err := c.check(st); err != nil {
			return teaching.ConsoleResult{}, err
		}
	}
	if len(stmts) == 0 {
		return teaching.ConsoleResult{}, nil
	}
	b, err := c.take(sandbox, len(stmts))
	if err != nil {
		return teaching.ConsoleResult{}, err
	}
	defer func() {
		c.mu.Lock()
		if now := c.cfg.Now(); now.After(b.used) {
			b.used = now
		}
		c.mu.Unlock()
		b.mu.Unlock()
	}()
	// The output is the statement's alone: a box keeps no buffer between statements.
	var out bytes.Buffer
	b.shell.Out = &out
	for i, st := range stmts {
		switch h := st.(type) {
		case cli.ShowKeyspaces:
			out.WriteString(strings.Join(append([]string{ConsoleKeyspace}, consoleReadable...), "\n") + "\n")
			continue
		case cli.Help:
			if h.Topic == "" {
				out.WriteString(consoleHelp())
				continue
			}
		}
		if err := b.shell.Do(ctx, st); err != nil {
			return teaching.ConsoleResult{}, failed(clip(out.String()), i, len(stmts), err)
		}
	}
	return teaching.ConsoleResult{Output: clip(out.String())}, nil
}

// ConsoleOutputBytes is the most output one line shows: a list of 100 wide rows of 100 columns
// each could print a megabyte.
const ConsoleOutputBytes = 64 << 10

// clip cuts out at the last line that ends within ConsoleOutputBytes, and says so.
func clip(out string) string {
	if len(out) <= ConsoleOutputBytes {
		return out
	}
	cut := strings.LastIndexByte(out[:ConsoleOutputBytes], '\n') + 1
	return out[:cut] + fmt.Sprintf("... %d more bytes not shown: the console shows %d bytes a line (a limit shows fewer columns or rows).\n", len(out)-cut, ConsoleOutputBytes)
}

// failed is the refusal of a statement that failed as it ran, with what the statements before it
// printed, or err itself when the statement is not at fault (the store failed, the request
// ended).
func failed(out string, i, n int, err error) error {
	var refusal *teaching.ConsoleRefusal
	var invalid *engine.InvalidRequestError
	var stmt *cli.StatementError
	var typ *cli.TypeError
	switch {
	case errors.As(err, &refusal):
	case errors.As(err, &invalid):
		refusal = &teaching.ConsoleRefusal{Message: err.Error(), Store: true}
	case errors.As(err, &stmt), errors.As(err, &typ):
		refusal = &teaching.ConsoleRefusal{Message: err.Error()}
	default:
		return err
	}
	msg := refusal.Message
	if n > 1 {
		msg = fmt.Sprintf("statement %d of %d: %s", i+1, n, msg)
	}
	msg = out + msg
	return &teaching.ConsoleRefusal{Message: msg, Store: refusal.Store}
}

// check refuses, before anything runs, a statement outside what the console allows.
func (c *Console) check(st cli.Stmt) error {
	readable := func(ks, what string) error {
		if ks == ConsoleKeyspace {
			return nil
		}
		for _, r := range consoleReadable {
			if ks == r {
				return nil
			}
		}
		if ks == widerow.KeyspaceSessions {
			return refuse("%s holds the server's sessions, log-in attempts and the learners' progress: the console never shows it (it reads %s)", ks, c.keyspacesText())
		}
		return refuse("%s: no keyspace %q here (the console reads %s)", what, ks, c.keyspacesText())
	}
	writable := func(ks, what string) error {
		if ks == ConsoleKeyspace {
			return nil
		}
		if err := readable(ks, what); err != nil {
			return err
		}
		return refuse("%s: %s is the application's keyspace, which the console reads (get, count, list, describe) and never writes: write in your own keyspace, %s", what, ks, ConsoleKeyspace)
	}
	limit := func(n int, given bool) error {
		if given && n > c.cfg.RowsShown {
			return refuse("limit %d: one read shows at most %d", n, c.cfg.RowsShown)
		}
		return nil
	}
	switch st := st.(type) {
	case cli.Set:
		return writable(st.Path.Keyspace, "set")
	case cli.Del:
		return writable(st.Path.Keyspace, "del")
	case cli.Get:
		if err := readable(st.Path.Keyspace, "get"); err != nil {
			return err
		}
		if st.Slice != nil {
			return limit(st.Slice.Limit, st.Slice.HasLimit)
		}
		return nil
	case cli.Count:
		return readable(st.Path.Keyspace, "count")
	case cli.List:
		if err := readable(st.Keyspace, "list"); err != nil {
			return err
		}
		return limit(st.Limit, st.HasLimit)
	case cli.Describe:
		return readable(st.Keyspace, "describe")
	case cli.ShowKeyspaces, cli.Help:
		return nil
	case cli.Quit:
		return refuse("quit: there is nothing to leave here (the console takes: %s)", allowedText())
	}
	return refuse("%T: the console takes %s", st, allowedText())
}

func (c *Console) keyspacesText() string {
	return "your own " + ConsoleKeyspace + ", and " + strings.Join(consoleReadable, " and ") + ", the application's"
}

// take finds or makes the learner's box, spends n statements of the learner's and of the
// server's minute, and returns the box locked.
func (c *Console) take(sandbox string, n int) (*box, error) {
	if n > c.cfg.StatementsPerMinute {
		return nil, refuse("the line holds %d statements: the console runs at most %d a minute for each learner", n, c.cfg.StatementsPerMinute)
	}
	key := sha256.Sum256([]byte(sandbox))
	for {
		c.mu.Lock()
		now := c.cfg.Now()
		b := c.boxes[key]
		var learner time.Duration
		if b != nil {
			learner = b.rate.wait(now, n)
		}
		if server := c.all.wait(now, n); server > 0 || learner > 0 {
			c.mu.Unlock()
			if learner > 0 {
				return nil, &domain.RetryError{After: learner, Message: fmt.Sprintf("the console runs at most %d statements a minute for each learner: try again in %s", c.cfg.StatementsPerMinute, seconds(learner))}
			}
			return nil, &domain.RetryError{After: server, Message: fmt.Sprintf("the console runs at most %d statements a minute for every learner together: try again in %s", c.cfg.ServerStatementsPerMinute, seconds(server))}
		}
		if b == nil {
			if len(c.free) == 0 {
				var oldest [sha256.Size]byte
				var victim *box
				for k, o := range c.boxes {
					if victim == nil || o.used.Before(victim.used) {
						oldest, victim = k, o
					}
				}
				evictable := c.evictAfter()
				if victim == nil || now.Sub(victim.used) < evictable {
					after := evictable
					if victim != nil {
						after = victim.used.Add(evictable).Sub(now)
					}
					c.mu.Unlock()
					after = max(after, time.Second)
					return nil, &domain.RetryError{After: after, Message: fmt.Sprintf("all %d sandboxes of this server are in use: the one idle longest is freed once idle for %s; try again in %s", c.cfg.Sandboxes, evictable, seconds(after))}
				}
				delete(c.boxes, oldest)
				c.mu.Unlock()
				if err := c.drop(victim); err != nil {
					return nil, err
				}
				continue
			}
			b = c.newBox(c.free[len(c.free)-1])
			c.free = c.free[:len(c.free)-1]
			b.rate = bucket{perMinute: c.cfg.StatementsPerMinute}
			b.used = now
			c.boxes[key] = b
		}
		b.rate.take(now, n)
		c.all.take(now, n)
		c.mu.Unlock()
		b.mu.Lock()
		if c.closed.Load() {
			b.mu.Unlock()
			return nil, ErrConsoleClosed
		}
		if !b.gone {
			return b, nil
		}
		b.mu.Unlock() // swept while this statement waited: take a new one
	}
}

func seconds(d time.Duration) string { return (d + time.Second - 1).Truncate(time.Second).String() }

func (c *Console) newBox(slot int) *box {
	b := &box{slot: slot, held: map[cellID]int{}, rows: map[rowID]int{}}
	mine := cli.Place{Node: c.scratch, Keyspace: slotName(slot), Secrets: true}
	b.shell = &cli.Shell{
		Node:     c.scratch,
		Now:      c.cfg.Now,
		MaxCount: c.cfg.RowsShown,
		Places: func(ks string) (cli.Place, error) {
			if ks == ConsoleKeyspace {
				return mine, nil
			}
			for _, r := range consoleReadable {
				if ks == r {
					return cli.Place{Node: c.app, Keyspace: ks}, nil
				}
			}
			return cli.Place{}, refuse("no keyspace %q here (the console reads %s)", ks, c.keyspacesText())
		},
		Writes: func(w cli.Write, apply func() error) error { return c.write(b, mine, w, apply) },
	}
	return b
}

// write lets a write through to the learner's own slot only, within the sandbox's bounds, and
// keeps the account of what the sandbox holds.
func (c *Console) write(b *box, mine cli.Place, w cli.Write, apply func() error) error {
	if w.Place != mine {
		return refuse("%s is not your keyspace: the console writes only in %s", w.Keyspace, ConsoleKeyspace)
	}
	row := rowID{cf: w.CF.Name, key: w.Key}
	if w.Delete {
		if err := apply(); err != nil {
			return err
		}
		for id, n := range b.held {
			if id.rowID == row && (w.Super == nil || id.super == string(w.Super)) && (w.Column == nil || id.column == string(w.Column)) {
				b.forget(id, n)
			}
		}
		return nil
	}
	id := cellID{rowID: row, super: string(w.Super), column: string(w.Column)}
	size := len(w.Key) + len(w.Super) + len(w.Column) + len(w.Value)
	old, had := b.held[id]
	switch {
	case !had && b.rows[row] == 0 && len(b.rows) >= c.cfg.Rows:
		return refuse("your sandbox holds %d rows, the most it may: del a row first", len(b.rows))
	case !had && len(b.held) >= c.cfg.Cells:
		return refuse("your sandbox holds %d columns, the most it may: del some first", len(b.held))
	case b.bytes-old+size > c.cfg.Bytes:
		return refuse("your sandbox holds %d bytes of keys, names and values, and this column would make it more than %d: del some first", b.bytes, c.cfg.Bytes)
	}
	if err := apply(); err != nil {
		return err
	}
	if !had {
		b.rows[row]++
	}
	b.held[id] = size
	b.bytes += size - old
	return nil
}

func (b *box) forget(id cellID, size int) {
	delete(b.held, id)
	b.bytes -= size
	if b.rows[id.rowID]--; b.rows[id.rowID] <= 0 {
		delete(b.rows, id.rowID)
	}
}

// Sweep drops every sandbox unused since before now minus the idle bound: its slot is emptied
// and freed for the next learner.
func (c *Console) Sweep(_ context.Context, now time.Time) (int, error) {
	c.mu.Lock()
	var idle []*box
	for k, b := range c.boxes {
		if b.used.Before(now.Add(-c.cfg.Idle)) {
			idle = append(idle, b)
			delete(c.boxes, k)
		}
	}
	c.mu.Unlock()
	var errs []error
	for _, b := range idle {
		errs = append(errs, c.drop(b))
	}
	return len(idle), errors.Join(errs...)
}

// drop empties the slot of a box already out of the map, once the statement running in it has
// ended, and frees it. A slot that could not be emptied stays out of use: it may hold another's
// rows.
func (c *Console) drop(b *box) error {
	b.mu.Lock()
	b.gone = true
	err := ErrConsoleClosed
	if !c.closed.Load() {
		err = c.scratch.TruncateKeyspace(slotName(b.slot))
	}
	b.mu.Unlock()
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.free = append(c.free, b.slot)
	c.mu.Unlock()
	return nil
}

// evictAfter is how long the sandbox idle longest must have been idle before a new learner may
// take its slot when every slot is in use: a tenth of the idle bound, at least a minute.
func (c *Console) evictAfter() time.Duration {
	return min(c.cfg.Idle, max(c.cfg.Idle/10, time.Minute))
}

// bucket spends statements of a minute: it holds perMinute, refilled evenly over the minute.
type bucket struct {
	perMinute int
	tokens    float64
	at        time.Time
}

func (k *bucket) refill(now time.Time) {
	if k.at.IsZero() {
		k.tokens, k.at = float64(k.perMinute), now
		return
	}
	if now.After(k.at) {
		k.tokens = min(float64(k.perMinute), k.tokens+now.Sub(k.at).Minutes()*float64(k.perMinute))
		k.at = now
	}
}

// wait is how long until n statements may be spent, 0 when they may now.
func (k *bucket) wait(now time.Time, n int) time.Duration {
	k.refill(now)
	if k.tokens >= float64(n) {
		return 0
	}
	return time.Duration((float64(n) - k.tokens) / float64(k.perMinute) * float64(time.Minute))
}

func (k *bucket) take(now time.Time, n int) {
	k.refill(now)
	k.tokens -= float64(n)
}

// consoleHelp is the cli's help with the learner's keyspace in the examples, and what the
// console reads besides.
func consoleHelp() string {
	return "Your own keyspace is " + ConsoleKeyspace + " (describe keyspace " + ConsoleKeyspace + " shows its column families); " +
		strings.Join(consoleReadable, " and ") + " are the application's, to read (get, count, list, describe), " +
		"their " + strings.Join(consoleHidden, " and ") + " columns hidden.\n\n" +
		strings.ReplaceAll(strings.ReplaceAll(cli.HelpText, "Scratch.", ConsoleKeyspace+"."), "  quit\n", "")
}
