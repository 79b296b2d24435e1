package memory

import (
	"go.uber.org/fx"

	"twissandra/ports"
	"twissandra/ports/teaching"
)

// Module provides one Store as every Twissandra port, one BlogStore as every blog port, the
// Sessions, and the Locator of both.
var Module = fx.Module("memory",
	fx.Provide(
		fx.Annotate(New, fx.As(fx.Self()),
			fx.As(new(ports.UserStore)), fx.As(new(ports.TweetStore)), fx.As(new(ports.LineStore))),
		fx.Annotate(NewBlog, fx.As(fx.Self()),
			fx.As(new(ports.AuthorStore)), fx.As(new(ports.EntryStore)), fx.As(new(ports.TagIndex)), fx.As(new(ports.CommentStore))),
		fx.Annotate(NewSessions, fx.As(new(ports.SessionStore))),
		fx.Annotate(NewNameClaims, fx.As(new(teaching.NameClaims))),
		fx.Annotate(func(s *Store, b *BlogStore) Locator { return Locator{Store: s, Blog: b} }, fx.As(new(teaching.Locator)), fx.As(new(teaching.RowSizer)), fx.As(new(teaching.QueryLab)), fx.As(new(teaching.Ring))),
	),
)
