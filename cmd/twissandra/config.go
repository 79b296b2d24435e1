package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"twissandra/adapters/cql3"
	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain/social"
	"twissandra/web"
	"twissandra/web/teach"
)

// envPrefix prefixes every environment variable that can stand in for a flag:
// --data-dir is TWISSANDRA_DATA_DIR.
const envPrefix = "TWISSANDRA_"

// Config is everything serve (and the other subcommands) can be told. It is loaded from flags,
// then from TWISSANDRA_* environment variables for the flags not given; flags win.
type Config struct {
	Backend string
	DataDir string
	Addr    string
	// PprofAddr, when set, serves net/http/pprof on its own listener (never on Addr).
	PprofAddr string
	// MetricsAddr, when set, serves /metrics on its own listener, and Addr does not.
	MetricsAddr string
	LogLevel    string
	LogJSON     bool

	CommitLogSync       string
	CommitLogSyncPeriod time.Duration
	// RowCacheMiB is the widerow row cache's memory in MiB; 0 turns it off.
	RowCacheMiB int
	// GCGraceSeconds is widerow's GCGraceSeconds; CompactionInterval how often its node
	// compacts (0: never by itself).
	GCGraceSeconds     int
	CompactionInterval time.Duration

	TokenSecret string
	TokenTTL    time.Duration
	BcryptCost  int
	// PullThreshold is the follower count above which an author's posts are pulled by the
	// followers' pages instead of pushed to their timelines; 0 pushes to everyone.
	PullThreshold int64
	// HeadBound is how long a pulled author's userline head is used before it is read again
	// (social.SetHeadBound); 0 keeps no heads.
	HeadBound    time.Duration
	MaxBodyBytes int64
	SlowRequest  time.Duration
	// ReadTimeout bounds the reading of a request's body, WriteTimeout the writing of a
	// response (web.Config).
	ReadTimeout, WriteTimeout time.Duration
	// SessionRecheck is how long a cql3 server believes a session it checked is open
	// (web.Config).
	SessionRecheck time.Duration
	// Compare names a second backend that every write goes to as well and every read is
	// shadowed on (compare mode); "" for none.
	Compare        string
	TrustedProxies string
	GCPercent      int

	// CQL is the cql3 backend's configuration, bound to the --cql-* flags as it is.
	CQL cql3.Config

	// InstructorToken is the instructor's secret: the log-in of /instructor and the bearer of
	// /api/v1/class; empty leaves the instructor's tools off.
	InstructorToken string

	// Gates are the bounds of the teaching runs anyone may start (--gate-race and the others;
	// a zero figure is its default), Access the bounds per address of sign-ups and log-ins,
	// and QueryLabBudget the tables the query lab may make a minute over a cql3 cluster.
	Gates          teach.Gates
	Access         social.Limits
	QueryLabBudget int

	// WarmLessons makes the cql3 lessons' tables as the server starts (--warm-lessons).
	WarmLessons bool

	// Console is the consoles' bounds an operator may change (0: the backend's default).
	Console ConsoleFlags
}

// ConsoleFlags are the --console-* flags: the bounds of the cli console (widerow) and of the CQL
// console (cql3) that a class may need changed. Zero leaves the console's own default, which
// each console states on its page and in GET /api/v1/console.
type ConsoleFlags struct {
	Statements, ServerStatements, SchemaChanges int
	Idle                                        time.Duration
}

// Backends are the storage adapters serve can run on.
var Backends = []string{"widerow", "cql3", "memory"}

// bindFlags declares the flags of the subcommands that open a backend.
func bindFlags(fs *flag.FlagSet, c *Config) {
	fs.StringVar(&c.Backend, "backend", "widerow", "storage backend: widerow (embedded Cassandra 0.6 model), cql3 (a real Cassandra cluster) or memory")
	bindWiderowFlags(fs, c)
	fs.IntVar(&c.BcryptCost, "bcrypt-cost", 10, "bcrypt cost of password hashes (4 to 31)")
	fs.Int64Var(&c.PullThreshold, "pull-threshold", DefaultPullThreshold, "authors with more followers than this are pulled: their posts go to no follower's timeline, and the followers' pages merge their userlines; 0 pushes every post to every follower, as the seeds do")
	fs.DurationVar(&c.HeadBound, "head-bound", social.DefaultHeadBound, "how long the server uses a pulled author's userline head (its newest entries, shared by every reader's merged home page) before reading it again: how late another server's post may reach this server's pages (its own posts are at once); 0 keeps no heads")
	bindCQLFlags(fs, c)
}

// bindWiderowFlags adds what the widerow backend and the logs need: all that cli takes.
func bindWiderowFlags(fs *flag.FlagSet, c *Config) {
	fs.StringVar(&c.DataDir, "data-dir", "./data", "widerow: directory of the store and the token secret; empty keeps everything in memory")
	fs.StringVar(&c.CommitLogSync, "commitlog-sync", "batch", "widerow: batch (sync the log on every write) or periodic")
	fs.DurationVar(&c.CommitLogSyncPeriod, "commitlog-sync-period", 10*time.Second, "widerow: how often the log is synced in periodic mode")
	fs.IntVar(&c.RowCacheMiB, "row-cache-mib", engine.DefaultRowCacheSize>>20, "widerow: memory of the row cache in MiB (the Followers rows, each with its followers' Timeline rows, and the Tweet rows); 0 turns it off")
	fs.IntVar(&c.GCGraceSeconds, "gc-grace-seconds", engine.DefaultGCGraceSeconds, "widerow: how long a tombstone stays after the node received its delete before a compaction drops it (0.6's GCGraceSeconds, one setting for every column family)")
	fs.DurationVar(&c.CompactionInterval, "compaction-interval", time.Hour, "widerow: how often the node compacts, dropping the tombstones older than --gc-grace-seconds and what they hide; 0 never")
	fs.StringVar(&c.LogLevel, "log-level", "info", "debug, info, warn or error")
	fs.BoolVar(&c.LogJSON, "log-json", false, "log JSON lines instead of text")
}

// bindCQLFlags adds the settings of the cql3 backend, straight into its cql3.Config.
func bindCQLFlags(fs *flag.FlagSet, c *Config) {
	q := &c.CQL
	q.Hosts = []string{"127.0.0.1"}
	fs.Var((*listFlag)(&q.Hosts), "cql-hosts", "cql3: comma-separated contact points")
	fs.IntVar(&q.Port, "cql-port", cql3.DefaultPort, "cql3: native protocol port")
	fs.StringVar(&q.Keyspace, "cql-keyspace", cql3.DefaultKeyspace, "cql3: keyspace (created if missing)")
	fs.StringVar(&q.Replication, "cql-replication", cql3.DefaultReplication, "cql3: SimpleStrategy:RF or NetworkTopologyStrategy:dc1=3,dc2=3")
	fs.StringVar(&q.Consistency, "cql-consistency", cql3.DefaultConsistency, "cql3: consistency of reads and writes")
	fs.StringVar(&q.SerialConsistency, "cql-serial-consistency", cql3.DefaultSerialConsistency, "cql3: consistency of lightweight transactions (SERIAL or LOCAL_SERIAL)")
	fs.DurationVar(&q.Timeout, "cql-timeout", cql3.DefaultTimeout, "cql3: per-query timeout")
	fs.DurationVar(&q.ConnectTimeout, "cql-connect-timeout", cql3.DefaultConnectTimeout, "cql3: connection timeout")
	fs.DurationVar(&q.StartTimeout, "cql-start-timeout", cql3.DefaultStartTimeout, "cql3: how long start-up may wait for a cold cluster")
	q.Retries = cql3.DefaultRetries
	fs.Var((*retriesFlag)(&q.Retries), "cql-retries", "cql3: retries of an idempotent query (0: none)")
	fs.StringVar(&q.LocalDC, "cql-local-dc", "", "cql3: local datacenter for DC-aware, token-aware host selection")
	fs.StringVar(&q.Username, "cql-username", "", "cql3: username (password authenticator)")
	fs.StringVar(&q.Password, "cql-password", "", "cql3: password")
	fs.BoolVar(&q.TLS.Enabled, "cql-tls", false, "cql3: connect with TLS")
	fs.StringVar(&q.TLS.CAFile, "cql-tls-ca", "", "cql3: CA certificate file")
	fs.StringVar(&q.TLS.CertFile, "cql-tls-cert", "", "cql3: client certificate file")
	fs.StringVar(&q.TLS.KeyFile, "cql-tls-key", "", "cql3: client key file")
	fs.BoolVar(&q.TLS.SkipVerify, "cql-tls-skip-verify", false, "cql3: do not verify the server certificate (testing only)")
	fs.IntVar(&q.FanoutConcurrency, "cql-fanout-concurrency", cql3.DefaultFanoutConcurrency, "cql3: concurrent inserts while fanning a tweet out")
}

// listFlag is a comma-separated list flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = splitList(s); return nil }

// retriesFlag is --cql-retries: on the command line 0 means no retry, which cql3.Config spells
// as a negative count (its zero value is the default).
type retriesFlag int

func (r *retriesFlag) String() string {
	if *r < 0 {
		return "0"
	}
	return strconv.Itoa(int(*r))
}

func (r *retriesFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return errors.New("want a whole number")
	case n < 0:
		return errors.New("want 0 or more")
	case n == 0:
		n = -1
	}
	*r = retriesFlag(n)
	return nil
}

// bindServeFlags adds the HTTP server's flags.
func bindServeFlags(fs *flag.FlagSet, c *Config) {
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:8080", "address the HTTP server listens on")
	fs.StringVar(&c.TokenSecret, "token-secret", "", "secret that signs API tokens and cookies (at least 32 bytes); default: kept in the data dir, else made per process")
	fs.DurationVar(&c.TokenTTL, "token-ttl", 24*time.Hour, "lifetime of API tokens")
	fs.Int64Var(&c.MaxBodyBytes, "max-body-bytes", 64<<10, "largest request body accepted")
	fs.DurationVar(&c.ReadTimeout, "read-timeout", web.DefaultReadTimeout, "how long a request's body may take to arrive; a slower client is dropped (negative: no bound)")
	fs.DurationVar(&c.SessionRecheck, "session-recheck", web.DefaultSessionRecheck, "cql3: how long a server believes that a session it checked is still open: a logout on another server reaches it within this")
	fs.DurationVar(&c.WriteTimeout, "write-timeout", web.DefaultWriteTimeout, "how long writing a response may take from its first byte; a client that stops reading is dropped (negative: no bound)")
	fs.StringVar(&c.Compare, "compare", "", "compare mode: run every action on this second backend too (cql3, widerow or memory) and show both models' operations side by side; the data dir or cql3 flags of the other backend configure it")
	fs.DurationVar(&c.SlowRequest, "slow-request", 500*time.Millisecond, "requests slower than this are logged at info (the others at debug; 5xx at error); negative: never")
	fs.StringVar(&c.TrustedProxies, "trusted-proxies", "", "comma-separated proxy addresses or CIDRs whose X-Forwarded-For is believed")
	fs.IntVar(&c.GCPercent, "gc-percent", defaultGCPercent, "Go garbage collector target (as GOGC) while serving; 0 keeps the runtime's (GOGC, else 100)")
	fs.StringVar(&c.PprofAddr, "pprof-addr", "", "address of a second listener serving Go's profiles (/debug/pprof/) for a load test; empty: none")
	bindClassFlags(fs, c)
	fs.StringVar(&c.MetricsAddr, "metrics-addr", "", "address of a listener of its own serving /metrics (Prometheus), which --addr then does not serve; empty: /metrics is served on --addr")
	fs.BoolVar(&c.WarmLessons, "warm-lessons", true, "cql3: make the lessons' tables and the console's keyspace as the server starts, not in a learner's first request (false: at their first runs)")
	fs.IntVar(&c.Console.Statements, "console-statements", 0, "the statements a minute one learner may run in a console (0: the console's default, 60 on cli, 30 on cql)")
	fs.IntVar(&c.Console.ServerStatements, "console-all-statements", 0, "the statements a minute every learner together may run in a console: on cli this server's, on cql the cluster's (0: the default, 6,000)")
	fs.IntVar(&c.Console.SchemaChanges, "console-schema-changes", 0, "cql: the console's schema changes a minute over the cluster (0: the default, 30)")
	fs.DurationVar(&c.Console.Idle, "console-idle", 0, "how long a console's sandbox may sit unused before it is dropped (0: the default, 30m on cli, 1h on cql)")
	fs.StringVar(&c.InstructorToken, "instructor-token", "", "the instructor's secret (at least 16 characters): the log-in of /instructor and the bearer of /api/v1/class and of `class accounts`; empty: the instructor's tools are off")
}

// defaultGCPercent lets the heap grow to five times what is live between collections: the
// server allocates per request and keeps large pointer-rich structures (the memory store, the
// caches), and at the runtime's 100 its collections are frequent enough to dominate the tail
// latency under load (p99 of the public line at 12,000 requests/s: 22-33 ms at 100, 2-7 ms at 400).
const defaultGCPercent = 400

// applyGCPercent sets the collector's target from the config; restore puts the previous back.
func applyGCPercent(c *Config) (restore func()) {
	if c.GCPercent == 0 {
		return func() {}
	}
	prev := debug.SetGCPercent(c.GCPercent)
	return func() { debug.SetGCPercent(prev) }
}

// parseConfig parses args, then fills each flag not given from its environment variable.
func parseConfig(fs *flag.FlagSet, args []string, getenv func(string) string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] {
			return
		}
		env := envPrefix + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := lookup(getenv, env); ok {
			if err := f.Value.Set(v); err != nil {
				errs = append(errs, fmt.Errorf("%s=%q: %v", env, v, err))
			}
		}
	})
	return errors.Join(errs...)
}

func lookup(getenv func(string) string, key string) (string, bool) {
	if getenv == nil {
		return os.LookupEnv(key)
	}
	v := getenv(key)
	return v, v != ""
}

// minInstructorToken is the shortest instructor's token taken: its tries are bounded like a
// log-in's, and 16 random characters are far past guessing at that rate.
const minInstructorToken = 16

// maxRowCacheMiB bounds --row-cache-mib (1 TiB).
const maxRowCacheMiB = 1 << 20

// rowCacheBytes is the engine's RowCacheSize for --row-cache-mib: negative (none) for 0.
func (c *Config) rowCacheBytes() int {
	if c.RowCacheMiB == 0 {
		return -1
	}
	return c.RowCacheMiB << 20
}

// validate checks the values that flag parsing cannot.
func (c *Config) validate() error {
	switch c.Backend {
	case "widerow", "cql3", "memory":
	default:
		return fmt.Errorf("--backend %q: want one of %s", c.Backend, strings.Join(Backends, ", "))
	}
	switch c.CommitLogSync {
	case "batch", "periodic":
	default:
		return fmt.Errorf("--commitlog-sync %q: want batch or periodic", c.CommitLogSync)
	}
	if c.CommitLogSyncPeriod <= 0 {
		return fmt.Errorf("--commitlog-sync-period must be positive")
	}
	if c.RowCacheMiB < 0 || c.RowCacheMiB > maxRowCacheMiB {
		return fmt.Errorf("--row-cache-mib %d: want 0 (no row cache) to %d", c.RowCacheMiB, maxRowCacheMiB)
	}
	if c.GCGraceSeconds < 1 || c.GCGraceSeconds > math.MaxInt32 {
		return fmt.Errorf("--gc-grace-seconds %d: want 1 to %d seconds (0.6's default is %d, ten days)", c.GCGraceSeconds, math.MaxInt32, engine.DefaultGCGraceSeconds)
	}
	if c.CompactionInterval < 0 {
		return fmt.Errorf("--compaction-interval %s: want 0 (never) or more", c.CompactionInterval)
	}
	switch c.Compare {
	case "":
	case c.Backend:
		return fmt.Errorf("--compare %s: the second backend must differ from --backend", c.Compare)
	case "widerow", "cql3", "memory":
	default:
		return fmt.Errorf("--compare %q: want one of %s", c.Compare, strings.Join(Backends, ", "))
	}
	if c.GCPercent < 0 {
		return fmt.Errorf("--gc-percent %d: want 0 (the runtime's setting) or more", c.GCPercent)
	}
	if c.PullThreshold < 0 {
		return fmt.Errorf("--pull-threshold %d: want 0 (push to everyone) or more", c.PullThreshold)
	}
	if c.HeadBound < 0 {
		return fmt.Errorf("--head-bound %s: want 0 (no heads kept) or more", c.HeadBound)
	}
	if c.SessionRecheck < 0 {
		return fmt.Errorf("--session-recheck %s: want a positive duration", c.SessionRecheck)
	}
	if c.BcryptCost < 4 || c.BcryptCost > 31 {
		return fmt.Errorf("--bcrypt-cost %d: want 4 to 31", c.BcryptCost)
	}
	if c.TokenSecret != "" && len(c.TokenSecret) < 32 {
		return fmt.Errorf("--token-secret must be at least 32 bytes")
	}
	if c.Console.Statements < 0 || c.Console.ServerStatements < 0 || c.Console.SchemaChanges < 0 || c.Console.Idle < 0 {
		return errors.New("the --console-* bounds must not be negative (0: the console's default)")
	}
	if c.InstructorToken != "" && len(c.InstructorToken) < minInstructorToken {
		return fmt.Errorf("--instructor-token must be at least %d characters", minInstructorToken)
	}
	if c.PprofAddr != "" && !strings.Contains(c.PprofAddr, ":") {
		return fmt.Errorf("--pprof-addr %q: want host:port", c.PprofAddr)
	}
	if c.MetricsAddr != "" && !strings.Contains(c.MetricsAddr, ":") {
		return fmt.Errorf("--metrics-addr %q: want host:port", c.MetricsAddr)
	}
	if c.Access.SignUpsPerAddress < 0 || c.Access.LoginFailuresPerAddress < 0 || c.QueryLabBudget < 0 {
		return fmt.Errorf("--signups-per-address %d, --login-failures-per-address %d, --query-lab-budget %d: want 1 or more each (0: the default)",
			c.Access.SignUpsPerAddress, c.Access.LoginFailuresPerAddress, c.QueryLabBudget)
	}
	if c.Addr != "" && !strings.Contains(c.Addr, ":") {
		return fmt.Errorf("--addr %q: want host:port", c.Addr)
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// existingStore refuses a widerow --data-dir that does not exist, for the commands that only
// read a store (dump, the source of migrate): opening it would make an empty store and report
// nothing, as if the data were gone.
func existingStore(c *Config) error {
	if c.Backend != "widerow" || c.DataDir == "" {
		return nil
	}
	if _, err := os.Stat(c.DataDir); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("--data-dir %s does not exist: there is no store to read", c.DataDir)
		}
		return fmt.Errorf("--data-dir: %w", err)
	}
	return nil
}

// DefaultPullThreshold is --pull-threshold's default; docs/celebrity.md says how it was chosen.
const DefaultPullThreshold = 10000

// bindClassFlags adds the bounds of what anyone may start, per learner, per address and per
// server (docs/security.md), whose defaults serve a class of 200 behind one address.
func bindClassFlags(fs *flag.FlagSet, c *Config) {
	def := teach.DefaultGates()
	def.Trials.Total = 0 // the server's cores less one, which the flag's default says in words
	for _, g := range []struct {
		name, what string
		v          *teach.GateLimits
		def        teach.GateLimits
	}{
		{"gate-race", "the uniqueness race", &c.Gates.Race, def.Race},
		{"gate-lab", "the comparator lab's writes and the lessons' steps on the running store", &c.Gates.Lab, def.Lab},
		{"gate-trials", "the consistency lab's runs of trials", &c.Gates.Trials, def.Trials},
		{"gate-rings", "the tokens lesson's rings", &c.Gates.Rings, def.Rings},
		{"gate-sandbox", "the celebrity lesson's sandboxes", &c.Gates.Sandbox, def.Sandbox},
		{"gate-runs", "each lesson's runs on a node (key trials, counter runs, index lookups, address book runs)", &c.Gates.Runs, def.Runs},
	} {
		fs.Var(gateFlag{g.v, g.def}, g.name, "bounds of "+g.what+": total= at once on this server, learner= at once from one learner, minute= a minute from one learner, address= a minute from one address's learners together (the figures given replace the defaults)")
	}
	fs.IntVar(&c.Access.SignUpsPerAddress, "signups-per-address", social.SignUpLimits.PerAddress, "sign-ups from one address in "+social.SignUpLimits.Window.String()+" (its devices together, and its clients without one), counted over every server")
	fs.IntVar(&c.Access.LoginFailuresPerAddress, "login-failures-per-address", social.DevicesPerAddressLimit, "failed log-ins a minute from the browsers (devices) behind one address together, counted over every server")
	fs.IntVar(&c.QueryLabBudget, "query-lab-budget", cqlteach.DefaultLabBudget, "cql3: tables the query lab may make a minute, over every server of the cluster together (set the same on each)")
}

// gateFlag is a gate's bounds, "total=2,learner=1,minute=10,address=400": the figures given
// replace the defaults, the others keep them.
type gateFlag struct {
	v   *teach.GateLimits
	def teach.GateLimits
}

func (g gateFlag) String() string {
	if g.v == nil {
		return ""
	}
	l := g.v.Or(g.def)
	total := strconv.Itoa(l.Total)
	if l.Total == 0 {
		total = "cores-1"
	}
	return fmt.Sprintf("total=%s,learner=%d,minute=%d,address=%d", total, l.PerLearner, l.PerMinute, l.PerAddress)
}

func (g gateFlag) Set(s string) error {
	for part := range strings.SplitSeq(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || err != nil || n < 1 {
			return fmt.Errorf("%q: want name=number (1 or more), e.g. total=2,learner=1,minute=10,address=400", part)
		}
		switch strings.TrimSpace(k) {
		case "total":
			g.v.Total = n
		case "learner":
			g.v.PerLearner = n
		case "minute":
			g.v.PerMinute = n
		case "address":
			g.v.PerAddress = n
		default:
			return fmt.Errorf("%q: the figures are total, learner, minute and address", k)
		}
	}
	return nil
}
