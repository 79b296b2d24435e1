package teach

import (
	"fmt"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
)

// Scratch is an empty engine node of its own in memory, apart from the application's data and
// from every other scratch node, with Twissandra's store on it (the domain's ports) and an
// inspector of its rows: a sandbox on which a lab runs the use cases themselves (the celebrity
// lesson's fan-out sandbox), one per run. Close drops it and all it holds.
type Scratch struct {
	node      *engine.Node
	Store     *widerow.Store
	Inspector *Inspector
}

// OpenScratch opens a Scratch. Its node is small (a 1 MiB block cache and memtable, no row
// cache): a sandbox holds a few dozen rows.
func OpenScratch() (*Scratch, error) {
	n, err := engine.Open(engine.Options{CacheSize: 1 << 20, MemTableSize: 1 << 20, RowCacheSize: -1})
	if err != nil {
		return nil, fmt.Errorf("scratch node: %w", err)
	}
	return &Scratch{node: n, Store: widerow.NewStore(n), Inspector: NewInspector(n)}, nil
}

// Close closes the scratch node; what it held is gone.
func (s *Scratch) Close() error { return s.node.Close() }
