package memory

import (
	"go.uber.org/fx"

	"twissandra/ports"
)

// Module provides one Store as every Twissandra port (and as itself), one BlogStore as every blog
// port (and as itself), and the Sessions: the domain's ports, and nothing of the teaching room
// (package teach beside this one provides that, on the same maps).
var Module = fx.Module("memory",
	fx.Provide(
		fx.Annotate(New, fx.As(fx.Self()),
			fx.As(new(ports.UserStore)), fx.As(new(ports.TweetStore)), fx.As(new(ports.LineStore))),
		fx.Annotate(NewBlog, fx.As(fx.Self()),
			fx.As(new(ports.AuthorStore)), fx.As(new(ports.EntryStore)), fx.As(new(ports.TagIndex)), fx.As(new(ports.CommentStore))),
		fx.Annotate(NewSessions, fx.As(new(ports.SessionStore))),
	),
)
