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

	"go.uber.org/fx"

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
	),
)

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
