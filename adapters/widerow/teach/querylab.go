package teach

import (
	"context"

	"twissandra/ports/teaching"
)

// TryKey implements teaching.QueryLab: Cassandra 0.6 has no primary key to choose and no query
// to refuse, so the lab is not available here, and says what 0.6 would have done instead.
func (in *Inspector) TryKey(_ context.Context, _ string, k teaching.KeyChoice) (teaching.KeyTrial, error) {
	if _, err := k.Validate(); err != nil {
		return teaching.KeyTrial{}, err
	}
	return teaching.KeyTrial{}, teaching.NoQueryLab("Cassandra 0.6 has no CQL and no primary key: a column family has a row key and a comparator, " +
		"and the only reads are a slice of one row (get_slice), of rows known by key (multiget_slice), or of every row in token order (get_range_slices), " +
		"which the client filters itself; nothing refuses a scan. Run the server with --backend cql3, or --compare cql3, to try keys on a real node")
}

// TryDesign implements teaching.QueryLab: as TryKey, no table to make.
func (in *Inspector) TryDesign(ctx context.Context, learner string, d teaching.TableDesign) (teaching.DesignTrial, error) {
	t, err := in.TryKey(ctx, learner, d.Key)
	return teaching.DesignTrial{KeyTrial: t}, err
}
