package teach

import (
	"context"
	"fmt"

	"twissandra/ports/teaching"
)

// PlaceKey implements teaching.Ring: the memory store's maps have no partitioner, so a key
// has no token and no replicas.
func (l Locator) PlaceKey(_ context.Context, key string, _ teaching.RingSim) (teaching.KeyRing, error) {
	if key == "" || len(key) > teaching.MaxKeyBytes {
		return teaching.KeyRing{}, fmt.Errorf("%w: a key of 1 to %d bytes, please", teaching.ErrBadRing, teaching.MaxKeyBytes)
	}
	return teaching.KeyRing{}, fmt.Errorf("%w: the memory backend keeps Go maps: a key has no token and no replicas. "+
		"Run the server with --backend widerow (a simulated ring of 0.6) or --backend cql3 (the cluster's ring) to place keys", teaching.ErrNoRing)
}

// Tokens implements teaching.Ring: no partitioner, no tokens.
func (l Locator) Tokens(context.Context, string, [][]string) ([]string, error) {
	return nil, fmt.Errorf("%w: the memory backend keeps Go maps: a key has no token", teaching.ErrNoRing)
}
