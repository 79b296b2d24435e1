// Package parallel runs indexed operations on a bounded pool where the first error cancels the
// rest. It is golang.org/x/sync/errgroup with its loop written once, for the cql3 adapter's
// fan-outs and the seed tool alike (an adapter may import internal/, never tools/).
package parallel

import (
	"context"

	"golang.org/x/sync/errgroup"
)

// For runs op(ctx, i) for each i in [0, n), at most limit at once (a limit below 1 counts as
// 1). The first error cancels the context the others see, no op starts after it, and it is what
// For returns. Otherwise, if ctx ended before or while the ops ran (some may have been
// skipped), For returns ctx's cause; else nil. A single op runs on the caller's goroutine and
// its error alone is returned.
func For(ctx context.Context, n, limit int, op func(ctx context.Context, i int) error) error {
	switch n {
	case 0:
		return nil
	case 1:
		return op(ctx, 0)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(limit, 1))
	for i := range n {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if gctx.Err() != nil {
				// Go waited for a free slot, and an error or the caller ended the run
				// meanwhile: start nothing more.
				return nil
			}
			return op(gctx, i)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return context.Cause(ctx)
}
