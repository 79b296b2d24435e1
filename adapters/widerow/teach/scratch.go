package teach

import (
	"errors"
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
	pool      *ScratchPool // the pool it goes back to, if any
	uses      int          // runs served, in a pool
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

// Close closes the scratch node, or gives a pooled one back to its pool emptied; either way
// what it held is gone.
func (s *Scratch) Close() error {
	if s.pool != nil {
		return s.pool.put(s)
	}
	return s.node.Close()
}

// ScratchPool keeps scratch nodes for reuse: opening a node (its store, its schema) costs more
// than most runs on it, so a run takes an emptied node from the pool when one is there, and
// gives it back when done, emptied at once (engine.Node.Reset): no run ever sees another's
// rows. The pool keeps at most its size of idle nodes, and closes a node for good after
// ScratchReuses runs, so that what Pebble keeps of its deleted rows stays bounded. It is safe
// for concurrent use: each node serves one run at a time.
type ScratchPool struct {
	idle chan *Scratch
}

// ScratchReuses is how many runs one pooled node serves before it is closed.
const ScratchReuses = 32

// NewScratchPool makes a pool that keeps at most size idle nodes (at least one).
func NewScratchPool(size int) *ScratchPool {
	return &ScratchPool{idle: make(chan *Scratch, max(size, 1))}
}

// Open takes an idle node, or opens a new one when none is idle. Close gives it back.
func (p *ScratchPool) Open() (*Scratch, error) {
	select {
	case s := <-p.idle:
		return s, nil
	default:
	}
	s, err := OpenScratch()
	if err != nil {
		return nil, err
	}
	s.pool = p
	return s, nil
}

// put empties s and keeps it, or closes it when it has served its runs, cannot be emptied,
// or the pool is full.
func (p *ScratchPool) put(s *Scratch) error {
	s.uses++
	if s.uses >= ScratchReuses {
		return s.node.Close()
	}
	if err := s.node.Reset(); err != nil {
		return errors.Join(err, s.node.Close())
	}
	select {
	case p.idle <- s:
		return nil
	default:
		return s.node.Close()
	}
}

// Close closes the idle nodes; a node in use is closed when its run gives it back.
func (p *ScratchPool) Close() error {
	var errs []error
	for {
		select {
		case s := <-p.idle:
			errs = append(errs, s.node.Close())
		default:
			return errors.Join(errs...)
		}
	}
}
