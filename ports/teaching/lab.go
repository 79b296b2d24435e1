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
	// Clear deletes the session's rows (a row tombstone in each column family), its primer
	// rows included.
	Clear(ctx context.Context, session string) error
	// Slice runs get_slice on the session's row under comparator. A bound the comparator
	// cannot read, an unknown comparator, a bad count or bounds out of traversal order is
	// domain.ErrInvalid.
	Slice(ctx context.Context, session, comparator string, s Slice) (LabSlice, error)
	// InsertSlice stores each name, with value, in the session's row of comparator's column
	// family only (one batch_mutate), then runs get_slice s on that row: Insert then Slice for
	// one comparator, without writing and reading back the five other rows, for a caller that
	// reads one slice (an exercise's grader). It returns the slice, and why the comparator
	// refused each name it could not read. It holds the row to Insert's bounds, and refuses
	// bad names, a bad slice or an unknown comparator as Insert and Slice do
	// (domain.ErrInvalid).
	InsertSlice(ctx context.Context, session, comparator string, names []string, value string, s Slice) (LabSlice, []string, error)
	// LastWriteWins applies writes to one column of a fresh row of the session in the order
	// given, and to a second fresh row in the reverse order, as two replicas might receive
	// them, and reads both back.
	LastWriteWins(ctx context.Context, session string, writes []LabWrite) (forward, reverse LabCell, err error)

	// Put writes one column, at the lab's clock, into the session's primer row of a standard
	// column family (PrimerStandard, p.SuperColumn empty) or of the super column family
	// PrimerSuper (as a subcolumn of p.SuperColumn), and reads that row back whole. An empty or
	// too long name or value, or a full row, is domain.ErrInvalid.
	Put(ctx context.Context, session string, p LabPut) (LabStored, error)
	// TryPuts writes puts, in the order given and each at a lab timestamp of its own, into a
	// fresh primer row of the session's (one batch_mutate; all of them in PrimerStandard, or
	// all, each with its SuperColumn, in PrimerSuper), reads the row back whole, and deletes
	// it: Put after Put then Clear, in three calls, for a caller that wants the row the puts
	// leave (an exercise's grader). At most LabMaxPuts puts; a bad put is refused as Put
	// refuses it, a mix of both column families too (domain.ErrInvalid).
	TryPuts(ctx context.Context, session string, puts []LabPut) (LabStored, error)
	// ClearRow deletes the session's row of comparator's column family alone (a row
	// tombstone): Clear for a caller that wrote that row only (InsertSlice's). An unknown
	// comparator is domain.ErrInvalid.
	ClearRow(ctx context.Context, session, comparator string) error
	// Primer reads the session's two primer rows whole: the standard one, then the super one.
	Primer(ctx context.Context, session string) ([]LabStored, error)
	// Replicas plays, on two rows of the scratch keyspace standing for two replicas of one row,
	// a deletion one of them missed, with the times the caller chose: the column written to
	// both, deleted on the first only, optionally repaired (anti-entropy: each replica sends
	// the other what it holds), compacted on both with s.GCGrace, then read from both with a
	// read repair. Bad times or values are domain.ErrInvalid.
	Replicas(ctx context.Context, session string, s ReplicaScenario) (ReplicaRun, error)
}

// LabMaxRow is the most names one session's row of the lab holds: a count that a slice may
// ask for and that reads the whole row.
const LabMaxRow = 200

// LabMaxPuts is the most puts of one TryPuts.
const LabMaxPuts = 20

// The column families of the primer rows, in the keyspace Scratch: a standard one, and the
// super column family of seed 004's AddressBook.
const (
	PrimerStandard = "UTF8s"
	PrimerSuper    = "AddressBook"
)

// LabPut is a column to write in a primer row: Name = Value, inside SuperColumn when it is set.
type LabPut struct {
	SuperColumn string
	Name        string
	Value       string
}

// LabStored is a primer row as get_slice reads it: every column with its timestamp, a super
// column with its subcolumns. Call is the Thrift call that wrote the last column (Put only).
type LabStored struct {
	Keyspace      string
	ColumnFamily  string
	Super         bool
	Comparator    string // CompareWith
	SubComparator string // CompareSubcolumnsWith, for a super column family
	Key           string
	Columns       []WideColumn
	Call          string
}

// ReplicaScenario is a deletion one of two replicas missed: times in microseconds, on a clock
// of the caller's choosing, each also the timestamp of what happens then.
type ReplicaScenario struct {
	Value    string
	Written  int64 // the column is written to both replicas
	Deleted  int64 // the delete reaches replica A; B is down
	Repaired int64 // an anti-entropy repair between the two (0: none), after Deleted
	// Compacted is when both replicas compact, dropping the tombstones deleted more than
	// GCGrace seconds before.
	Compacted int64
	GCGrace   int64 // seconds (GCGraceSeconds; 0.6's default is 864000, ten days)
	Read      int64 // a read from both replicas, and its read repair, after Compacted
}

// ReplicaStep is one moment of a ReplicaRun: what happened, the calls it took, and what each
// replica stores afterwards (tombstones included).
type ReplicaStep struct {
	At    int64
	What  string // "write", "delete", "repair", "compaction", "read"
	Calls []string
	A, B  []WideColumn
	// Dropped counts, for a compaction, the tombstones each replica dropped.
	Dropped [2]int
}

// ReplicaRun is what Replicas did, and what the read returned at the end.
type ReplicaRun struct {
	Keys   [2]string // the rows standing for replicas A and B
	Column string
	Steps  []ReplicaStep
	Found  bool // the read returned the column
	Value  string
	TS     int64
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
