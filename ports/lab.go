package ports

import "context"

// ColumnLab is the comparator and slice lab of the teaching views: a scratch keyspace of the
// 0.6 model, apart from the application's data, where a learner's names are stored under each
// of the six comparators and sliced, and one column is written with chosen timestamps.
// Identical input writes the same row again (writes are idempotent), so the lab needs no
// clean-up and two learners never see each other's rows unless they typed the same names.
type ColumnLab interface {
	// Order stores names in one row of each comparator's column family and reads every row
	// back whole: the names in each comparator's order, and those it refused.
	Order(ctx context.Context, names []string) ([]LabRow, error)
	// Slice stores names under comparator and runs get_slice on the row. A bound the
	// comparator cannot read, or an unknown comparator, is domain.ErrInvalid.
	Slice(ctx context.Context, names []string, comparator string, s Slice) (LabSlice, error)
	// LastWriteWins applies writes to one column of a fresh row in the order given, and to a
	// second row in the reverse order, as two replicas might receive them, and reads both.
	LastWriteWins(ctx context.Context, writes []LabWrite) (forward, reverse LabCell, err error)
}

// LabRow is one comparator's row.
type LabRow struct {
	Comparator   string
	ColumnFamily string
	Names        []LabName
	Rejected     []string // why each refused name was refused
}

// LabName is a stored column name: as the comparator reads it, and its bytes in hex.
type LabName struct {
	Name    string
	Encoded string
}

// LabSlice is a get_slice: the call in Thrift's words, and the names it returned.
type LabSlice struct {
	Call  string
	Names []LabName
}

// LabWrite is an insert of Value, or a delete, at Timestamp (microseconds).
type LabWrite struct {
	Value     string
	Timestamp int64
	Delete    bool
}

// LabCell is what one row ends with: what get returns (Found false when the column reads as
// deleted or absent), and every cell it stores, tombstones included.
type LabCell struct {
	Found  bool
	Value  string
	TS     int64
	Stored []WideColumn
}
