// Package teach is the widerow adapter's part of the teaching room (ports/teaching), on the
// engine node of package widerow: the storage inspector of the engine's rows, where a record
// lives, the partition lessons' sizes, the uniqueness race's sandbox, the learners' progress and the
// classes (in the Sessions keyspace), a simulated ring of 0.6, and the comparator lab with the consistency
// lab's ring of three engine nodes and its coordinator, which run on scratch nodes of their own
// beside any backend. The product's stores
// (package widerow) serve the domain's ports without it.
package teach

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"go.uber.org/fx"

	"twissandra/adapters/widerow/engine"
	"twissandra/ports/teaching"
)

// Module provides the widerow adapter's teaching collaborators on the engine node that
// widerow.Module provides: optional beside it, as a backend's teaching is.
var Module = fx.Module("widerow-teach",
	fx.Provide(
		fx.Annotate(NewInspector, fx.As(new(teaching.Locator)), fx.As(new(teaching.WideRowInspector)), fx.As(new(teaching.RowSizer)), fx.As(new(teaching.QueryLab)), fx.As(new(teaching.Ring))),
		fx.Annotate(NewNameClaims, fx.As(new(teaching.NameClaims))),
		fx.Annotate(NewProgress, fx.As(new(teaching.ProgressStore))),
		fx.Annotate(NewClassBook, fx.As(new(teaching.ClassBook))),
		// The write and read paths lesson's view of the engine's storage.
		fx.Annotate(NewStorageEngine, fx.As(new(teaching.StorageEngine))),
		// The cli console, each learner's statements in a keyspace of their own.
		fx.Annotate(newConsole, fx.ResultTags(`group:"consoles"`)),
	),
)

// consoleIn are newConsole's parameters: the bounds are the defaults unless the application
// supplies a ConsoleConfig.
type consoleIn struct {
	fx.In
	Lifecycle fx.Lifecycle
	Node      *engine.Node
	Config    *ConsoleConfig `optional:"true"`
	Logger    *slog.Logger   `optional:"true"`
}

// consoleSweepEvery is how often the server sweeps the console's idle sandboxes, or a quarter
// of the idle bound when that is shorter (a class's short bound, --console-idle): a sandbox is
// gone within a quarter of the bound after it.
const consoleSweepEvery = time.Minute

// SweepEvery is how often a console of idle bound idle is swept.
func SweepEvery(idle time.Duration) time.Duration {
	return max(time.Second, min(consoleSweepEvery, idle/4))
}

// newConsole opens the cli console, sweeps its idle sandboxes every consoleSweepEvery while the
// application runs, and closes it when the application stops.
func newConsole(in consoleIn) (teaching.Console, error) {
	var cfg ConsoleConfig
	if in.Config != nil {
		cfg = *in.Config
	}
	c, err := NewConsole(in.Node, cfg)
	if err != nil {
		return nil, err
	}
	logger := in.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	in.Lifecycle.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				tick := time.NewTicker(SweepEvery(c.cfg.Idle))
				defer tick.Stop()
				for {
					select {
					case <-ctx.Done():
						return
					case now := <-tick.C:
						n, err := c.Sweep(ctx, now)
						switch {
						case err != nil:
							logger.Warn("cli console: sweep", "err", err)
						case n > 0:
							logger.Info("cli console: dropped the idle sandboxes", "sandboxes", n)
						}
					}
				}
			}()
			return nil
		},
		OnStop: func(context.Context) error {
			cancel()
			<-done
			return c.Close()
		},
	})
	return c, nil
}

// LabModule provides the comparator lab and the consistency lab (one Lab, on scratch engine
// nodes in memory, apart from the application's data), which run beside any backend, and
// closes it when the application stops.
var LabModule = fx.Module("lab",
	fx.Provide(
		fx.Annotate(newLab, fx.As(new(teaching.ColumnLab)), fx.As(new(teaching.ConsistencyLab))),
	),
)

func newLab(lc fx.Lifecycle) (*Lab, error) {
	l, err := NewLab()
	if err != nil {
		return nil, fmt.Errorf("comparator lab: %w", err)
	}
	lc.Append(fx.Hook{OnStop: func(context.Context) error { return l.Close() }})
	return l, nil
}
