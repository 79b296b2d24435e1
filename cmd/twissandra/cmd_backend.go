package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"go.uber.org/fx"

	"twissandra/adapters/memory"
	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/ports"
	"twissandra/tools/stores"
)

// openedBackend is a backend started without the HTTP server, for the tools.
type openedBackend struct {
	app    *fx.App
	node   *engine.Node // widerow only
	stores stores.Set
	social *social.Service
	blog   *blog.Service
}

// openBackend starts cfg's backend through the same fx wiring as serve (coreOptions) and hands
// out its stores and use cases.
//
// The tools need the stores' optional scanners (ports/scan.go), which the metrics and tracing
// decorators of coreOptions do not pass on. Until they do, the widerow stores are made afresh on
// the node (they keep no state but immutable caches, and the tools write the blog only through
// them or only through the blog service, never both at once), and the memory backend, whose
// stores are out of reach behind the decorators, is assembled directly.
func openBackend(ctx context.Context, cfg *Config, stderr io.Writer) (*openedBackend, error) {
	if cfg.Backend == "memory" {
		st, bs := memory.New(), memory.NewBlog()
		return &openedBackend{
			stores: stores.Set{Users: st, Tweets: st, Lines: st, Authors: bs, Entries: bs, Tags: bs, Comments: bs},
			social: social.New(st, st, st, nil, domain.NewPasswordHasher(cfg.BcryptCost)),
			blog:   blog.New(bs, bs, bs, bs, nil),
		}, nil
	}
	logger := newLogger(cfg, stderr)
	opts, err := coreOptions(cfg, logger)
	if err != nil {
		return nil, err
	}
	b := &openedBackend{}
	opts = append(opts, fx.Populate(
		&b.stores.Users, &b.stores.Tweets, &b.stores.Lines,
		&b.stores.Authors, &b.stores.Entries, &b.stores.Tags, &b.stores.Comments,
		&b.social, &b.blog,
	))
	if cfg.Backend == "widerow" {
		opts = append(opts, fx.Populate(&b.node))
	}
	b.app = fx.New(opts...)
	if err := b.app.Err(); err != nil {
		return nil, err
	}
	startCtx, cancel := context.WithTimeout(ctx, startTimeout(cfg))
	defer cancel()
	if err := b.app.Start(startCtx); err != nil {
		return nil, fmt.Errorf("start %s: %w", cfg.Backend, err)
	}
	if _, ok := b.stores.Users.(ports.UserScanner); !ok && b.node != nil {
		st, bs := widerow.NewStore(b.node), widerow.NewBlogStore(b.node)
		b.stores = stores.Set{Users: st, Tweets: st, Lines: st, Authors: bs, Entries: bs, Tags: bs, Comments: bs}
	}
	return b, nil
}

// close stops the backend (the widerow node syncs and closes).
func (b *openedBackend) close() error {
	if b.app == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return b.app.Stop(ctx)
}
