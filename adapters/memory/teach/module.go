// Package teach is the memory adapter's part of the teaching room (ports/teaching): where a
// record lives in the maps (Locator), how many entries their rows hold (RowSizer), the uniqueness
// race's sandbox (NameClaims), the learners' progress (Progress), the classes and their learners' activity (ClassBook), and a query lab and a ring that say the maps have neither. The
// product's stores (package memory) serve the domain's ports without it.
package teach

import (
	"go.uber.org/fx"

	"twissandra/adapters/memory"
	"twissandra/ports/teaching"
)

// Module provides the memory adapter's teaching collaborators on the Store and BlogStore that
// memory.Module provides: optional beside it, as a backend's teaching is.
var Module = fx.Module("memory-teach",
	fx.Provide(
		fx.Annotate(NewNameClaims, fx.As(new(teaching.NameClaims))),
		fx.Annotate(NewProgress, fx.As(new(teaching.ProgressStore))),
		fx.Annotate(func() *ClassBook { return NewClassBook(nil) }, fx.As(new(teaching.ClassBook))),
		fx.Annotate(func(s *memory.Store, b *memory.BlogStore) Locator { return Locator{Store: s, Blog: b} }, fx.As(new(teaching.Locator)), fx.As(new(teaching.RowSizer)), fx.As(new(teaching.QueryLab)), fx.As(new(teaching.Ring))),
	),
)
