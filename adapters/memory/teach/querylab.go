package teach

import (
	"context"

	"twissandra/ports/teaching"
)

// TryKey implements teaching.QueryLab: the memory store's maps have no tables, partitions or
// queries to try a key on.
func (l Locator) TryKey(_ context.Context, _ string, k teaching.KeyChoice) (teaching.KeyTrial, error) {
	if _, err := k.Validate(); err != nil {
		return teaching.KeyTrial{}, err
	}
	return teaching.KeyTrial{}, teaching.NoQueryLab("the memory backend keeps Go maps: there are no tables, partitions or CQL queries to try a key on. " +
		"Run the server with --backend cql3, or --compare cql3, to try keys on a real node")
}

// TryDesign implements teaching.QueryLab: as TryKey, no table to make.
func (l Locator) TryDesign(ctx context.Context, learner string, d teaching.TableDesign) (teaching.DesignTrial, error) {
	t, err := l.TryKey(ctx, learner, d.Key)
	return teaching.DesignTrial{KeyTrial: t}, err
}
