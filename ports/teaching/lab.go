package teaching

import "context"

// ColumnLab is the comparator and slice lab of the teaching views: a scratch keyspace of the
// 0.6 model, apart from the application's data, where a learner's names are stored under each
// of the six comparators and sliced, and one column is written with chosen timestamps.
//
// Every learner has a lab of their own, named by session: an opaque id the caller keeps (the
// pages keep a random one in the browser's session cookie). Two sessions never see each
// other's rows. The lab is bounded: a session's row holds at most a fixed number of names, and
// the scratch keyspace starts over empty when it has stored too much; a session that lost its
// rows that way simply finds them empty.
type ColumnLab interface {
	// Comparators are the six comparators, in the order the lab shows them.
	Comparators() []string
	// Insert stores each name, with value, in the session's row of every comparator's column
	// family (one batch_mutate per column family), and reads every row back whole: the names
	// in each comparator's order, and why it refused those of this insert it cannot read.
	// Too many names, an empty or too long one, or a full row is domain.ErrInvalid.
	Insert(ctx context.Context, session string, names []string, value string) ([]LabRow, error)
	// Rows reads the session's row of every comparator's column family.
	Rows(ctx context.Context, session string) ([]LabRow, error)
	// Clear deletes the session's rows (a row tombstone in each column family).
	Clear(ctx context.Context, session string) error
	// Slice runs get_slice on the session's row under comparator. A bound the comparator
	// cannot read, an unknown comparator, a bad count or bounds out of traversal order is
	// domain.ErrInvalid.
	Slice(ctx context.Context, session, comparator string, s Slice) (LabSlice, error)
	// LastWriteWins applies writes to one column of a fresh row of the session in the order
	// given, and to a second fresh row in the reverse order, as two replicas might receive
	// them, and reads both back.
	LastWriteWins(ctx context.Context, session string, writes []LabWrite) (forward, reverse LabCell, err error)
}

// LabRow is one comparator's row.
type LabRow struct {
	Comparator   string
	ColumnFamily string
	Key          string // the row key, as a Thrift call names it
	Names        []LabName
	Rejected     []string // why each refused name of the last insert was refused
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

// LabCell is what one row ends with: the calls applied in order, what get returns (Found
// false when the column reads as deleted or absent), and every cell the row stores,
// tombstones included.
type LabCell struct {
	Key    string // the row key
	Calls  []string
	Found  bool
	Value  string
	TS     int64
	Stored []WideColumn
}
