package teaching

import "context"

// RowSizer measures a store's rows or partitions for the partition lessons of the teaching
// views: which grow widest, and how the public line is laid out.
type RowSizer interface {
	// WidestRows returns the limit widest rows (column families) or partitions (tables) of
	// the store, widest first, from a bounded scan: at most DefaultSizeScan cells, rows or
	// entries of each container are read, and CappedIn names the containers cut short. A
	// limit below 1 is domain.ErrInvalid.
	WidestRows(ctx context.Context, limit int) (RowSizes, error)
	// PublicLine lays out the public line: its rows or partitions, newest first, and the
	// entries each holds.
	PublicLine(ctx context.Context) (PublicLayout, error)
}

// DefaultSizeScan is how many cells, rows or entries of one container (a column family, a
// table, a map) WidestRows reads at most, so that a page measuring the store stays cheap
// however large it grows.
const DefaultSizeScan = 10_000

// RowSizes is a scan's widest rows.
type RowSizes struct {
	// Unit is what a row holds: "columns" (0.6), "rows" (a CQL partition), "entries" (a map).
	Unit string
	Rows []RowSize
	// Scanned counts the cells, rows or entries read, over every container.
	Scanned int
	// PerContainer is the scan's bound: at most this many read in each container.
	PerContainer int
	// CappedIn are the containers whose scan stopped at PerContainer (their last row's
	// figures and the rows after it are missing), in scan order.
	CappedIn []string
}

// Capped says the scan stopped before the end of some container.
func (r RowSizes) Capped() bool { return len(r.CappedIn) > 0 }

// RowSize is one row or partition: where it is, what it holds, and how large it is.
type RowSize struct {
	Container  string // "Twissandra.Timeline", "twissandra.timeline", "lines"
	Key        string
	Label      string // who the key stands for, when it is a UUID ("@bob"), else ""
	Cells      int
	Tombstones int   // cells that are tombstones (0.6), counted in Cells
	Bytes      int64 // names and values, about
	// Inspect is the storage inspector's query for it, "" for none.
	Inspect string
}

// PublicLayout is the public line in one model.
type PublicLayout struct {
	// Rows are the rows or partitions holding it, newest first (one on 0.6: !PUBLIC!).
	Rows  []RowSize
	Total int
	// Bounded says no row of it grows without bound (a partition per day).
	Bounded bool
}
