package cql3

import (
	"context"
	"log/slog"

	"go.uber.org/fx"

	"twissandra/ports"
)

// ModuleParams is what Module needs from the graph: a supplied Config, and a logger if there
// is one.
type ModuleParams struct {
	fx.In
	Lifecycle fx.Lifecycle
	Config    Config
	Logger    *slog.Logger `optional:"true"`
}

// NewManaged builds the Store for fx: it connects and migrates in OnStart (retrying a cold
// cluster until Config.StartTimeout) and closes in OnStop. Until OnStart has run, its methods
// return domain.ErrUnavailable.
func NewManaged(p ModuleParams) (*Store, error) {
	s, err := New(p.Config)
	if err != nil {
		return nil, err
	}
	s.SetLogger(p.Logger)
	p.Lifecycle.Append(fx.Hook{
		OnStart: s.Start,
		OnStop:  func(context.Context) error { return s.Close() },
	})
	return s, nil
}

// Module provides one Store as every storage port (Twissandra's, the blog's and the sessions'),
// as itself, and as a ports.Pinger in the "pingers" group that /readyz asks: the domain's ports,
// and nothing of the teaching room (package teach beside this one provides that, on the same
// Store). The caller supplies a Config.
var Module = fx.Module("cql3",
	fx.Provide(
		fx.Annotate(NewManaged,
			fx.As(fx.Self()),
			fx.As(new(ports.UserStore)), fx.As(new(ports.TweetStore)), fx.As(new(ports.LineStore)),
			fx.As(new(ports.AuthorStore)), fx.As(new(ports.EntryStore)), fx.As(new(ports.TagIndex)), fx.As(new(ports.CommentStore)),
			fx.As(new(ports.SessionStore)),
		),
		fx.Annotate(func(s *Store) *Store { return s }, fx.As(new(ports.Pinger)), fx.ResultTags(`group:"pingers"`)),
	),
)
