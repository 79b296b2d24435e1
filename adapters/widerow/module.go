package widerow

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"go.uber.org/fx"

	"twissandra/adapters/widerow/engine"
	"twissandra/ports"
)

// Config says where and how the engine keeps its data.
type Config struct {
	// DataDir is the server's data directory; the store lives in its "widerow" folder. Empty
	// keeps everything in memory.
	DataDir string
	// CommitLogSync is "batch" (sync the log before each write returns) or "periodic".
	CommitLogSync string
	// CommitLogSyncPeriod is the sync interval in periodic mode.
	CommitLogSyncPeriod time.Duration
	// RowCacheSize is the row cache's byte budget: 0 the engine's default, negative none.
	RowCacheSize int
	// GCGrace is the node's GCGraceSeconds (0: the schema's, ten days); CompactionInterval how
	// often it compacts (0: never by itself). See engine.Options.
	GCGrace            time.Duration
	CompactionInterval time.Duration
}

// StoreDir is the engine's directory inside a data dir.
func StoreDir(dataDir string) string { return filepath.Join(dataDir, "widerow") }

// ownedEntries are the names a data dir of ours may hold.
var ownedEntries = map[string]bool{"widerow": true, "token-secret": true}

// checkDataDir refuses a data dir that holds anything else: pointing --data-dir at the wrong
// folder must fail loudly, not scatter a store into it.
func checkDataDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("data dir %s: %w", dir, err)
	}
	for _, e := range entries {
		if !ownedEntries[e.Name()] {
			return fmt.Errorf("data dir %s holds %q and is not a twissandra data dir: use an empty or new directory: %w", dir, e.Name(), engine.ErrForeignDir)
		}
	}
	return nil
}

// OpenNode opens the engine as cfg says.
func OpenNode(cfg Config, logger *slog.Logger) (*engine.Node, error) {
	opts := engine.Options{
		CommitLogSync:       engine.SyncMode(cfg.CommitLogSync),
		CommitLogSyncPeriod: cfg.CommitLogSyncPeriod,
		RowCacheSize:        cfg.RowCacheSize,
		GCGrace:             cfg.GCGrace,
		CompactionInterval:  cfg.CompactionInterval,
	}
	if cfg.DataDir != "" {
		if err := checkDataDir(cfg.DataDir); err != nil {
			return nil, err
		}
		opts.Dir = StoreDir(cfg.DataDir)
	}
	if logger != nil {
		opts.Logger = pebbleLogger{logger}
	}
	return engine.Open(opts)
}

type pebbleLogger struct{ l *slog.Logger }

func (p pebbleLogger) Errorf(format string, args ...any) {
	p.l.Error(fmt.Sprintf(format, args...), "component", "pebble")
}

// newNode opens the node for fx and closes it on stop.
func newNode(lc fx.Lifecycle, cfg Config, logger *slog.Logger) (*engine.Node, error) {
	n, err := OpenNode(cfg, logger)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.Hook{OnStop: func(context.Context) error { return n.Close() }})
	return n, nil
}

// Module provides the engine, and the Twissandra, blog and session stores on it: the domain's
// ports, and nothing of the teaching room (package teach beside this one provides that, on the
// same engine). The caller supplies a Config.
var Module = fx.Module("widerow",
	fx.Provide(
		newNode,
		fx.Annotate(NewStore,
			fx.As(new(ports.UserStore)), fx.As(new(ports.TweetStore)), fx.As(new(ports.LineStore))),
		fx.Annotate(NewSessions, fx.As(new(ports.SessionStore))),
		// One BlogStore per Node: it serialises its read-modify-write paths with in-process locks.
		fx.Annotate(NewBlogStore,
			fx.As(new(ports.AuthorStore)), fx.As(new(ports.EntryStore)), fx.As(new(ports.TagIndex)), fx.As(new(ports.CommentStore))),
	),
)
