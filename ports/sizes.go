package ports

import "context"

// RowSizer measures a store's rows or partitions for the partition lessons of the teaching
// views: which grow widest, and how the public line is laid out.
type RowSizer interface {
	// WidestRows returns the limit widest rows (column families) or partitions (tables) of
	// the store, widest first, from a bounded scan: Capped says the scan stopped before the end.
	WidestRows(ctx context.Context, limit int) (RowSizes, error)
	// PublicLine lays out the public line: its rows or partitions, newest first, and the
	// entries each holds.
	PublicLine(ctx context.Context) (PublicLayout, error)
}

// RowSizes is a scan's widest rows.
type RowSizes struct {
	// Unit is what a row holds: "columns" (0.6), "rows" (a CQL partition), "entries" (a map).
	Unit    string
	Rows    []RowSize
	Scanned int // cells, rows or entries read
	Capped  bool
}

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
