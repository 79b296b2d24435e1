package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/dig"
	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"

	"twissandra/adapters/compare"
	"twissandra/adapters/cql3"
	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/adapters/memory"
	memteach "twissandra/adapters/memory/teach"
	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	wideteach "twissandra/adapters/widerow/teach"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/ports"
	"twissandra/ports/teaching"
	"twissandra/web"
	"twissandra/web/metrics"
	"twissandra/web/pages"
	"twissandra/web/site"
	"twissandra/web/teach"
)

// backendModule chooses the storage adapter before fx.New: fx cannot pick modules from values
// inside its own graph, so the choice is a plain switch on the configuration. It provides the
// domain's ports only; teachingModule adds the backend's teaching collaborators beside them.
func backendModule(cfg *Config) (fx.Option, error) {
	switch cfg.Backend {
	case "memory":
		return memory.Module, nil
	case "cql3":
		return fx.Options(
			fx.Supply(cfg.CQL),
			cql3.Module,
		), nil
	case "widerow":
		return fx.Options(
			fx.Supply(widerow.Config{DataDir: cfg.DataDir, CommitLogSync: cfg.CommitLogSync, CommitLogSyncPeriod: cfg.CommitLogSyncPeriod, RowCacheSize: cfg.rowCacheBytes(),
				GCGrace: time.Duration(cfg.GCGraceSeconds) * time.Second, CompactionInterval: cfg.CompactionInterval}),
			widerow.Module,
		), nil
	}
	return nil, fmt.Errorf("backend %q is not available in this build", cfg.Backend)
}

// teachingModule is the teaching room's collaborators (ports/teaching) of cfg's backend, from
// the package teach beside its adapter, on the stores backendModule provides. A backend without
// one serves the product whole: the server takes every teaching collaborator as optional, and
// each teaching view says what its backend does not provide.
func teachingModule(cfg *Config) fx.Option {
	switch cfg.Backend {
	case "memory":
		return memteach.Module
	case "cql3":
		return fx.Options(cqlteach.Module, fx.Supply(cqlConsoleConfig(cfg), &cqlteach.StartOptions{NoWarm: !cfg.WarmLessons}))
	case "widerow":
		return fx.Options(wideteach.Module, fx.Supply(wideConsoleConfig(cfg)))
	}
	return fx.Options()
}

// wideConsoleConfig and cqlConsoleConfig are the --console-* flags as each console takes them:
// a zero field keeps the console's default.
func wideConsoleConfig(cfg *Config) *wideteach.ConsoleConfig {
	return &wideteach.ConsoleConfig{StatementsPerMinute: cfg.Console.Statements, ServerStatementsPerMinute: cfg.Console.ServerStatements, Idle: cfg.Console.Idle}
}

func cqlConsoleConfig(cfg *Config) *cqlteach.ConsoleConfig {
	return &cqlteach.ConsoleConfig{StatementsPerMinute: cfg.Console.Statements, ClusterStatementsPerMinute: cfg.Console.ServerStatements,
		SchemaChangesPerMinute: cfg.Console.SchemaChanges, Idle: cfg.Console.Idle}
}

func newLogger(cfg *Config, w io.Writer) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogJSON {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// coreOptions wires everything but the HTTP listener: config, logger, the chosen backend and the
// use cases. Tools that need the stores without a server use it too.
func coreOptions(cfg *Config, logger *slog.Logger) ([]fx.Option, error) {
	backend, err := backendModule(cfg)
	if err != nil {
		return nil, err
	}
	return coreOptionsOn(cfg, logger, backend), nil
}

// coreOptionsOn is coreOptions on the stores that backend provides.
func coreOptionsOn(cfg *Config, logger *slog.Logger, backend fx.Option) []fx.Option {
	return []fx.Option{
		fx.Supply(cfg, logger),
		// fx narrates its graph at debug level only; a failure reaches the user once, as the
		// command's one-line error (see rootCause).
		fx.WithLogger(func() fxevent.Logger {
			if !logger.Enabled(context.Background(), slog.LevelDebug) {
				return fxevent.NopLogger
			}
			l := &fxevent.SlogLogger{Logger: logger}
			l.UseLogLevel(slog.LevelDebug)
			return l
		}),
		backend,
		fx.Provide(
			func() domain.Clock { return domain.SystemClock{} },
			func(c *Config) *domain.PasswordHasher { return domain.NewPasswordHasher(c.BcryptCost) },
			newSocial,
			newAccess,
			blog.New,
		),
	}
}

// newAccess is social.NewAccess with the configured bounds per address.
func newAccess(svc *social.Service, sessions ports.SessionStore, clock domain.Clock, c *Config) *social.Access {
	a := social.NewAccess(svc, sessions, clock)
	a.SetLimits(c.Access)
	return a
}

// newSocial is social.New with the configured pull threshold and head bound.
func newSocial(users ports.UserStore, tweets ports.TweetStore, lines ports.LineStore, clock domain.Clock, hasher *domain.PasswordHasher, c *Config) (*social.Service, error) {
	s := social.New(users, tweets, lines, clock, hasher)
	if err := s.SetHeadBound(c.HeadBound); err != nil {
		return nil, err
	}
	return s, s.SetPullThreshold(c.PullThreshold)
}

// serverOptions add the HTTP server to coreOptions, and the decorations that only a server
// needs (tools such as migrate need the bare stores, whose optional interfaces a decorator hides).
func serverOptions(cfg *Config) []fx.Option {
	return append(productServerOptions(), teachingOptions(cfg)...)
}

// productServerOptions are serverOptions without the teaching room's collaborators: the server
// of a backend that implements the domain's ports and nothing else.
func productServerOptions() []fx.Option {
	return []fx.Option{
		fx.Decorate(decorateStores),
		fx.Provide(openSecondary),
		fx.Provide(newEngine),
	}
}

// teachingOptions are the teaching room's collaborators beside the product: the backend's
// (teachingModule), and the comparator and consistency labs, which run on scratch engine nodes
// of their own in memory beside any backend.
func teachingOptions(cfg *Config) []fx.Option {
	return []fx.Option{teachingModule(cfg), wideteach.LabModule}
}

// storesIn and storesOut are every port of the backend, as fx holds them.
type storesIn struct {
	fx.In
	Users    ports.UserStore
	Tweets   ports.TweetStore
	Lines    ports.LineStore
	Authors  ports.AuthorStore
	Entries  ports.EntryStore
	Tags     ports.TagIndex
	Comments ports.CommentStore
	Sessions ports.SessionStore
}

type storesOut struct {
	fx.Out
	Users    ports.UserStore
	Tweets   ports.TweetStore
	Lines    ports.LineStore
	Authors  ports.AuthorStore
	Entries  ports.EntryStore
	Tags     ports.TagIndex
	Comments ports.CommentStore
	Sessions ports.SessionStore
}

// decorateStores wraps the backend's stores for the server: each port call is counted and
// timed for /metrics, and in compare mode run on the second backend too. The operations the
// pages' footer and the Storage-Ops header show are the stores' own records (package oplog),
// made below the ports, so no wrapper adds any.
func decorateStores(in storesIn, c *Config, sec *secondary) storesOut {
	s := metrics.Default().Stores(ports.Stores{Users: in.Users, Tweets: in.Tweets, Lines: in.Lines,
		Authors: in.Authors, Entries: in.Entries, Tags: in.Tags, Comments: in.Comments, Sessions: in.Sessions}, c.Backend)
	if sec != nil {
		s = compare.Stores(sec.pair, s, sec.stores)
	}
	return storesOut{Users: s.Users, Tweets: s.Tweets, Lines: s.Lines,
		Authors: s.Authors, Entries: s.Entries, Tags: s.Tags, Comments: s.Comments, Sessions: s.Sessions}
}

// secondary is compare mode's second backend (nil when compare mode is off).
type secondary struct {
	pair    *compare.Pair
	stores  ports.Stores
	locator teaching.Locator
	sizes   teaching.RowSizer
	ring    teaching.Ring
	// queryLab is the second backend's query lab when it speaks CQL (cql3), else nil.
	queryLab teaching.QueryLab
	// levels tries the consistency levels on the second backend's cluster (cql3), else nil.
	levels teaching.ClusterLevels
	// ttl is the TTL lesson's lab on the second backend's node (cql3), else nil.
	ttl teaching.TTLLab
	// addressBook is the collections lesson's lab on the second backend's node (cql3), else nil.
	addressBook teaching.AddressBookLab
	// counters is the counters lesson's table on the second backend's node (cql3), else nil.
	counters teaching.CounterLab
	// nodeViews reads the second backend's node's virtual tables (cql3), else nil.
	nodeViews teaching.NodeViews
	// indexLab finds a user four ways on the second backend's node (cql3), else nil.
	indexLab teaching.IndexLab
	// consoles are the second backend's consoles, one a language.
	consoles []teaching.Console
}

// openSecondary opens the --compare backend beside the primary, with the same configuration
// but its backend, and closes it when the server stops.
func openSecondary(lc fx.Lifecycle, cfg *Config, logger *slog.Logger) (*secondary, error) {
	if cfg.Compare == "" {
		return nil, nil
	}
	sc := *cfg
	sc.Backend, sc.Compare = cfg.Compare, ""
	ctx, cancel := context.WithTimeout(context.Background(), cfg.CQL.StartTimeout+10*time.Second)
	defer cancel()
	var t teachers
	b, err := openBackend(ctx, &sc, io.Discard, teachingModule(&sc), fx.Populate(&t))
	if err != nil {
		return nil, fmt.Errorf("--compare %s: %w", cfg.Compare, err)
	}
	lc.Append(fx.Hook{OnStop: func(context.Context) error { return b.close() }})
	logger.Info("compare mode", "primary", cfg.Backend, "secondary", cfg.Compare)
	sec := &secondary{
		pair:     &compare.Pair{Primary: cfg.Backend, Secondary: cfg.Compare, Observer: metrics.Default()},
		stores:   b.stores,
		locator:  t.Locator,
		sizes:    t.Sizes,
		ring:     t.Ring,
		consoles: t.Consoles,
	}
	if sc.Backend == "cql3" {
		sec.queryLab, sec.levels = t.QueryLab, t.Levels
		sec.ttl = t.TTL
		sec.addressBook = t.AddressBook
		sec.counters = t.Counters
		sec.nodeViews = t.NodeViews
		sec.indexLab = t.IndexLab
	}
	return sec, nil
}

// teachers are the teaching collaborators compare mode reads of its second backend, each
// absent where that backend does not provide it.
type teachers struct {
	fx.In
	Locator  teaching.Locator       `optional:"true"`
	Sizes    teaching.RowSizer      `optional:"true"`
	Ring     teaching.Ring          `optional:"true"`
	QueryLab teaching.QueryLab      `optional:"true"`
	Levels   teaching.ClusterLevels `optional:"true"`
	TTL      teaching.TTLLab        `optional:"true"`
	// AddressBook is the collections lesson's lab (cql3 only).
	AddressBook teaching.AddressBookLab `optional:"true"`
	Counters    teaching.CounterLab     `optional:"true"`
	NodeViews   teaching.NodeViews      `optional:"true"`
	IndexLab    teaching.IndexLab       `optional:"true"`
	Consoles    []teaching.Console      `group:"consoles"`
}

// engineDeps are newEngine's parameters. Every teaching collaborator is optional: a backend
// that implements only the domain's ports serves the product whole, and each teaching view
// without its collaborator says what the backend does not provide.
type engineDeps struct {
	fx.In
	Config      *Config
	Logger      *slog.Logger
	Social      *social.Service
	Access      *social.Access
	Blog        *blog.Service
	Clock       domain.Clock
	Pingers     []ports.Pinger            `group:"pingers"`
	Wide        teaching.WideRowInspector `optional:"true"` // widerow only
	CQL         teaching.CQLInspector     `optional:"true"` // cql3 only
	Locator     teaching.Locator          `optional:"true"`
	Lab         teaching.ColumnLab        `optional:"true"`
	Consistency teaching.ConsistencyLab   `optional:"true"`
	Claims      teaching.NameClaims       `optional:"true"`
	Sizes       teaching.RowSizer         `optional:"true"`
	Actions     teaching.ActionLedger     `optional:"true"` // cql3 only: the others keep actions in memory
	QLab        teaching.QueryLab         `optional:"true"` // the query-first lesson's exercise
	Ring        teaching.Ring             `optional:"true"` // the tokens lesson's ring
	Levels      teaching.ClusterLevels    `optional:"true"` // cql3 only: the consistency lesson's levels, tried on the cluster
	Progress    teaching.ProgressStore    `optional:"true"` // the learners' progress through the course
	TTL         teaching.TTLLab           `optional:"true"` // cql3 only: the TTL lesson's lab
	AddressBook teaching.AddressBookLab   `optional:"true"` // cql3 only: the collections lesson's lab
	Counters    teaching.CounterLab       `optional:"true"` // cql3 only: the counters lesson's table
	Storage     teaching.StorageEngine    `optional:"true"` // widerow only: the write and read paths lesson
	NodeViews   teaching.NodeViews        `optional:"true"` // cql3 only: the same lesson, on the node
	IndexLab    teaching.IndexLab         `optional:"true"` // cql3 only: the lesson on indexes, four ways on the node
	Classes     teaching.ClassBook        `optional:"true"` // the instructor's classes and the learners' activity
	Second      *secondary
	// Consoles are the backend's consoles, one a language (each teach Module provides its
	// own); none on memory.
	Consoles []teaching.Console `group:"consoles"`
}

func newEngine(d engineDeps) (*gin.Engine, error) {
	secret, err := tokenSecret(d.Config, d.Logger)
	if err != nil {
		return nil, err
	}
	soleWriter := d.Config.Backend != "cql3" && d.Config.Compare == ""
	sessionRecheck := d.Config.SessionRecheck
	if soleWriter {
		sessionRecheck = -1 // every logout goes through this process, which sees it at once
	}
	s, err := web.NewServer(web.Config{
		TokenSecret:    secret,
		TokenTTL:       d.Config.TokenTTL,
		MaxBodyBytes:   d.Config.MaxBodyBytes,
		ReadTimeout:    d.Config.ReadTimeout,
		WriteTimeout:   d.Config.WriteTimeout,
		SlowRequest:    d.Config.SlowRequest,
		TrustedProxies: splitList(d.Config.TrustedProxies),
		// The embedded stores have this process as their only writer; a Cassandra cluster
		// may be written by other servers, whose posts and logouts this process would not see.
		CachePublicPages: soleWriter,
		SessionRecheck:   sessionRecheck,
		MetricsElsewhere: d.Config.MetricsAddr != "",
	}, web.Deps{Social: d.Social, Access: d.Access, Blog: d.Blog, Ready: d.Pingers, Logger: d.Logger, Clock: d.Clock})
	if err != nil {
		return nil, err
	}
	st, err := site.New(s, site.Config{Blog: d.Blog != nil, Logger: d.Logger})
	if err != nil {
		return nil, err
	}
	if err := pages.Register(st, pages.Deps{Social: d.Social, Blog: d.Blog, Access: d.Access}); err != nil {
		return nil, err
	}
	td := teach.Deps{Social: d.Social, Blog: d.Blog, Backend: d.Config.Backend, CQLSchema: cql3.SchemaText(),
		Wide: d.Wide, CQL: d.CQL, StorageConf: engine.DefaultSchemaXML, QueryFirstDDL: cql3.SchemaText(), Locator: d.Locator, Lab: d.Lab, Consistency: d.Consistency, ClusterLevels: d.Levels, Claims: d.Claims, Sizes: d.Sizes, Actions: d.Actions, QueryLab: d.QLab, Ring: d.Ring, Sandbox: sandbox, Progress: d.Progress}
	td.IndexLab = d.IndexLab
	td.Classes, td.InstructorToken = d.Classes, d.Config.InstructorToken
	td.TTL = d.TTL
	td.AddressBook = d.AddressBook
	td.Storage, td.NodeViews = d.Storage, d.NodeViews
	if d.Second != nil && td.NodeViews == nil { // compare mode: the node's views are the second backend's
		td.NodeViews = d.Second.nodeViews
	}
	if d.Second != nil {
		td.CompareRing = d.Second.ring
		if d.Locator != nil && d.Second.locator != nil {
			td.Locator = compare.Locator(d.Second.pair, d.Locator, d.Second.locator)
		}
		td.CompareSizes, td.CompareBackend = d.Second.sizes, d.Config.Compare
		if d.Second.queryLab != nil { // the query-first lesson tries keys on the node that has them
			td.QueryLab = d.Second.queryLab
		}
		if td.ClusterLevels == nil && d.Second.levels != nil { // and the consistency lesson its levels
			td.ClusterLevels = d.Second.levels
		}
		if td.TTL == nil && d.Second.ttl != nil { // and the TTL lesson its runs
			td.TTL = d.Second.ttl
		}
		if td.AddressBook == nil && d.Second.addressBook != nil { // and the collections lesson its forms
			td.AddressBook = d.Second.addressBook
		}
	}
	td.Counters = d.Counters
	if td.Counters == nil && d.Second != nil { // the counters lesson runs on the node that has them
		td.Counters = d.Second.counters
		if td.IndexLab == nil && d.Second.indexLab != nil { // and the lesson on indexes its four ways
			td.IndexLab = d.Second.indexLab
		}
	}
	td.Gates = d.Config.Gates
	if b, ok := td.QueryLab.(interface{ SetLabBudget(int) }); ok && d.Config.QueryLabBudget > 0 {
		b.SetLabBudget(d.Config.QueryLabBudget) // the node's, compare mode's second backend's included
	}
	td.Consoles = consolesByLanguage(d.Consoles, d.Second)
	if err := teach.Register(st, td); err != nil {
		return nil, err
	}
	return s.Engine, nil
}

// consolesByLanguage are the consoles of the backend and, in compare mode, of the second
// backend (its language the backend lacks: cql beside widerow, cli beside cql3).
func consolesByLanguage(own []teaching.Console, sec *secondary) map[string]teaching.Console {
	m := map[string]teaching.Console{}
	if sec != nil {
		for _, con := range sec.consoles {
			if con != nil {
				m[con.Language()] = con
			}
		}
	}
	for _, con := range own {
		if con != nil {
			m[con.Language()] = con
		}
	}
	return m
}

// sandboxes are the scratch nodes of the sandbox's runs, kept for reuse: the sandbox's gate
// lets a few run at once, and a node is emptied as each run gives it back.
var sandboxes = wideteach.NewScratchPool(4)

// sandbox opens a scratch store for the celebrity lesson's sandbox: an engine node of the 0.6
// model in memory, the run's own until it closes it, beside whatever backend serves.
func sandbox() (teach.Scratch, error) {
	s, err := sandboxes.Open()
	if err != nil {
		return teach.Scratch{}, err
	}
	return teach.Scratch{Users: s.Store, Tweets: s.Store, Lines: s.Store, Rows: s.Inspector, Close: s.Close}, nil
}

// startHTTP binds the listener in OnStart, so a taken port fails start-up, and shuts the server
// down gracefully in OnStop.
func startHTTP(lc fx.Lifecycle, cfg *Config, logger *slog.Logger, h *gin.Engine, sd fx.Shutdowner) {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	var profiles, metricsSrv *http.Server
	lc.Append(fx.Hook{
		OnStart: func(ctx context.Context) error {
			ln, err := net.Listen("tcp", cfg.Addr)
			if err != nil {
				return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
			}
			logger.Info("serving", "addr", ln.Addr().String(), "backend", cfg.Backend, "version", versionString())
			go func() {
				if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
					logger.Error("http server stopped", "err", err)
					_ = sd.Shutdown(fx.ExitCode(1))
				}
			}()
			if cfg.MetricsAddr != "" {
				mln, err := net.Listen("tcp", cfg.MetricsAddr)
				if err != nil {
					return fmt.Errorf("listen on %s: %w", cfg.MetricsAddr, err)
				}
				logger.Info("serving metrics", "addr", mln.Addr().String()+"/metrics")
				mux := http.NewServeMux()
				mux.Handle("/metrics", metrics.Default().Handler())
				metricsSrv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
				go func() { _ = metricsSrv.Serve(mln) }()
			}
			if cfg.PprofAddr != "" {
				pln, err := net.Listen("tcp", cfg.PprofAddr)
				if err != nil {
					return fmt.Errorf("listen on %s: %w", cfg.PprofAddr, err)
				}
				logger.Info("serving profiles", "addr", pln.Addr().String()+"/debug/pprof/")
				// Contention is sampled only where profiles are asked for: one event in 64.
				runtime.SetMutexProfileFraction(64)
				profiles = &http.Server{Handler: pprofMux(), ReadHeaderTimeout: 10 * time.Second}
				go func() { _ = profiles.Serve(pln) }()
			}
			return nil
		},
		OnStop: func(ctx context.Context) error {
			if profiles != nil {
				_ = profiles.Close()
			}
			if metricsSrv != nil {
				_ = metricsSrv.Close()
			}
			return srv.Shutdown(ctx)
		},
	})
}

// pprofMux serves Go's profiles (CPU, heap, allocations, goroutines, mutex contention) under /debug/pprof/, for
// the listener of --pprof-addr only: scripts/profile.sh takes a CPU profile of a wrk run there.
func pprofMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

const tokenSecretFile = "token-secret"

// tokenSecret returns the secret that signs tokens: the configured one, else one kept in the
// data dir (made on first start), else one made for this process only.
func tokenSecret(cfg *Config, logger *slog.Logger) ([]byte, error) {
	if cfg.TokenSecret != "" {
		return []byte(cfg.TokenSecret), nil
	}
	if cfg.Backend == "widerow" && cfg.DataDir != "" {
		path := filepath.Join(cfg.DataDir, tokenSecretFile)
		b, err := os.ReadFile(path)
		if err == nil {
			secret, derr := hex.DecodeString(strings.TrimSpace(string(b)))
			if derr != nil || len(secret) < 32 {
				return nil, fmt.Errorf("token secret %s is damaged: remove it to make a new one (every token will be invalid)", path)
			}
			return secret, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read token secret: %w", err)
		}
		secret := randomSecret()
		if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
			return nil, fmt.Errorf("make data dir: %w", err)
		}
		if err := os.WriteFile(path, []byte(hex.EncodeToString(secret)+"\n"), 0o600); err != nil {
			return nil, fmt.Errorf("write token secret: %w", err)
		}
		logger.Info("made a new token secret", "path", path)
		return secret, nil
	}
	logger.Warn("no --token-secret and no data dir: tokens are signed with a per-process secret and die with the process")
	return randomSecret(), nil
}

func randomSecret() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return b
}

// serve runs the server until ctx is cancelled (SIGINT, SIGTERM).
func serve(ctx context.Context, args []string, stderr io.Writer) error {
	cfg := &Config{}
	fs := newFlagSet("serve", stderr)
	bindFlags(fs, cfg)
	bindServeFlags(fs, cfg)
	if err := loadConfig(fs, args, cfg); err != nil {
		return err
	}
	logger := newLogger(cfg, stderr)
	opts, err := coreOptions(cfg, logger)
	if err != nil {
		return err
	}
	defer applyGCPercent(cfg)()
	app := fx.New(append(append(opts, serverOptions(cfg)...), fx.Invoke(startHTTP))...)
	if err := app.Err(); err != nil {
		return rootCause(err)
	}
	startCtx, cancel := context.WithTimeout(ctx, startTimeout(cfg))
	defer cancel()
	if err := app.Start(startCtx); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	var failed error
	select {
	case <-ctx.Done():
	case sig := <-app.Wait():
		if sig.ExitCode != 0 {
			failed = errors.New("the server stopped after an error (see the log)")
		}
	}
	stopCtx, cancelStop := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancelStop()
	logger.Info("shutting down")
	return errors.Join(failed, app.Stop(stopCtx))
}

// rootCause strips fx's account of the dependency chain from a construction error, leaving
// what went wrong ("data dir ... is not a twissandra data dir"), not how it was reached.
func rootCause(err error) error {
	return dig.RootCause(err)
}

func startTimeout(cfg *Config) time.Duration {
	if cfg.Backend == "cql3" {
		return cfg.CQL.StartTimeout + 10*time.Second
	}
	return 30 * time.Second
}
