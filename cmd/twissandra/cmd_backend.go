package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"go.uber.org/fx"

	"twissandra/adapters/cql3"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/ports"
)

// openedBackend is a backend started without the HTTP server, for the tools.
type openedBackend struct {
	app    *fx.App
	node   *engine.Node // widerow only
	cql    *cql3.Store  // cql3 only
	stores ports.Stores
	social *social.Service
	blog   *blog.Service
}

// openBackend starts cfg's backend through the same fx wiring as serve (coreOptions) and hands
// out its stores and use cases. coreOptions does not decorate the stores (only serverOptions
// does), so these are the adapters' own, with their optional scanners (ports/scan). extra are
// further options of the application (compare mode adds the second backend's teaching module).
func openBackend(ctx context.Context, cfg *Config, stderr io.Writer, extra ...fx.Option) (*openedBackend, error) {
	logger := newLogger(cfg, stderr)
	opts, err := coreOptions(cfg, logger)
	if err != nil {
		return nil, err
	}
	b := &openedBackend{}
	opts = append(opts, fx.Populate(
		&b.stores.Users, &b.stores.Tweets, &b.stores.Lines,
		&b.stores.Authors, &b.stores.Entries, &b.stores.Tags, &b.stores.Comments, &b.stores.Sessions,
		&b.social, &b.blog,
	))
	opts = append(opts, extra...)
	switch cfg.Backend {
	case "widerow":
		opts = append(opts, fx.Populate(&b.node))
	case "cql3":
		opts = append(opts, fx.Populate(&b.cql))
	}
	b.app = fx.New(opts...)
	if err := b.app.Err(); err != nil {
		return nil, rootCause(err)
	}
	startCtx, cancel := context.WithTimeout(ctx, startTimeout(cfg))
	defer cancel()
	if err := b.app.Start(startCtx); err != nil {
		return nil, fmt.Errorf("start %s: %w", cfg.Backend, err)
	}
	return b, nil
}

// close stops the backend (the widerow node syncs and closes, the cql3 session closes).
func (b *openedBackend) close() error {
	if b.app == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return b.app.Stop(ctx)
}
