package compare

import (
	"context"

	"twissandra/ports"
)

// The blog's stores are twins (ports.Twin): loading the article's blog reads each model apart
// and copies to the secondary what the primary holds and it lacks, IDs kept (domain/blog's
// LoadFixture), so that both hold the same blog whichever model was seeded before compare mode
// started.

func (w authorStore) Models() (ports.AuthorStore, ports.AuthorStore) { return w.a, w.b }
func (w authorStore) OnPrimary(ctx context.Context, call func(context.Context) error) error {
	return w.p.primary(ctx, call)
}
func (w authorStore) OnSecondary(ctx context.Context, op string, call func(context.Context) error) error {
	return w.p.onSecondary(ctx, op, call)
}

func (w entryStore) Models() (ports.EntryStore, ports.EntryStore) { return w.a, w.b }
func (w entryStore) OnPrimary(ctx context.Context, call func(context.Context) error) error {
	return w.p.primary(ctx, call)
}
func (w entryStore) OnSecondary(ctx context.Context, op string, call func(context.Context) error) error {
	return w.p.onSecondary(ctx, op, call)
}

func (w tagIndex) Models() (ports.TagIndex, ports.TagIndex) { return w.a, w.b }
func (w tagIndex) OnPrimary(ctx context.Context, call func(context.Context) error) error {
	return w.p.primary(ctx, call)
}
func (w tagIndex) OnSecondary(ctx context.Context, op string, call func(context.Context) error) error {
	return w.p.onSecondary(ctx, op, call)
}

func (w commentStore) Models() (ports.CommentStore, ports.CommentStore) { return w.a, w.b }
func (w commentStore) OnPrimary(ctx context.Context, call func(context.Context) error) error {
	return w.p.primary(ctx, call)
}
func (w commentStore) OnSecondary(ctx context.Context, op string, call func(context.Context) error) error {
	return w.p.onSecondary(ctx, op, call)
}

var (
	_ ports.Twin[ports.AuthorStore]  = authorStore{}
	_ ports.Twin[ports.EntryStore]   = entryStore{}
	_ ports.Twin[ports.TagIndex]     = tagIndex{}
	_ ports.Twin[ports.CommentStore] = commentStore{}
)
