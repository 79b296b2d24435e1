package engine

import (
	"errors"
	"fmt"
)

// ConsistencyLevel is the Thrift ConsistencyLevel of Cassandra 0.6. On one
// emulated node every level behaves alike, except that reads at ZERO or ANY
// are rejected, as 0.6 rejected them.
type ConsistencyLevel int32

// The consistency levels of Cassandra 0.6, with their Thrift values.
const (
	ZERO         ConsistencyLevel = 0
	ONE          ConsistencyLevel = 1
	QUORUM       ConsistencyLevel = 2
	DCQUORUM     ConsistencyLevel = 3
	DCQUORUMSYNC ConsistencyLevel = 4
	ALL          ConsistencyLevel = 5
	ANY          ConsistencyLevel = 6
)

var consistencyNames = [...]string{"ZERO", "ONE", "QUORUM", "DCQUORUM", "DCQUORUMSYNC", "ALL", "ANY"}

func (c ConsistencyLevel) String() string {
	if c >= 0 && int(c) < len(consistencyNames) {
		return consistencyNames[c]
	}
	return fmt.Sprintf("ConsistencyLevel(%d)", int32(c))
}

// ParseConsistencyLevel parses "ONE", "QUORUM", ... (as a shell would).
func ParseConsistencyLevel(s string) (ConsistencyLevel, error) {
	for i, n := range consistencyNames {
		if n == s {
			return ConsistencyLevel(i), nil
		}
	}
	return 0, fmt.Errorf("unknown consistency level %q", s)
}

// DefaultCount is the Thrift default of SliceRange.count and KeyRange.count.
// Go has no "unset" for ints, so callers pass it explicitly: a Count of 0
// really means zero columns, as it does in Cassandra.
const DefaultCount = 100

// MaxNameLength is the longest column, super column or row key, in bytes.
const MaxNameLength = 65535

// Column is a name, a value and a client-supplied timestamp (pycassa uses
// microseconds since the epoch; the engine never interprets it).
type Column struct {
	Name      []byte
	Value     []byte
	Timestamp int64
}

// SuperColumn is a named, sorted list of columns inside a super column family row.
type SuperColumn struct {
	Name    []byte
	Columns []Column
}

// ColumnOrSuperColumn holds exactly one of Column or SuperColumn.
type ColumnOrSuperColumn struct {
	Column      *Column
	SuperColumn *SuperColumn
}

// ColumnPath addresses one column (Column set), one super column (only
// SuperColumn set, super CFs), or a whole row (neither set; Remove only).
type ColumnPath struct {
	ColumnFamily string
	SuperColumn  []byte
	Column       []byte
}

// ColumnParent addresses the columns of a row (standard CF), the super
// columns of a row (super CF, SuperColumn empty) or the subcolumns of one
// super column (super CF, SuperColumn set).
type ColumnParent struct {
	ColumnFamily string
	SuperColumn  []byte
}

// SliceRange selects the columns between Start and Finish, both inclusive.
// An empty bound is open. With Reversed, Start is the high end and the walk
// goes down. Count limits the number of live columns returned. Slicing a
// super CF row, it counts super columns as 0.6 did, which is not quite those
// returned: see sliceSupers.
type SliceRange struct {
	Start    []byte
	Finish   []byte
	Reversed bool
	Count    int32
}

// SlicePredicate selects columns by name (ColumnNames) or by range
// (SliceRange). Exactly one must be set.
type SlicePredicate struct {
	ColumnNames [][]byte
	SliceRange  *SliceRange
}

// KeyRange selects rows in partitioner order: either by key (StartKey,
// EndKey, both inclusive, empty = open) or by token (StartToken exclusive,
// EndToken inclusive, as Cassandra's Range(start, end]). Count limits rows.
type KeyRange struct {
	StartKey   string
	EndKey     string
	StartToken string
	EndToken   string
	Count      int32
}

// KeySlice is one row of a get_range_slices result.
type KeySlice struct {
	Key     string
	Columns []ColumnOrSuperColumn
}

// Deletion removes, at Timestamp: the whole row (SuperColumn and Predicate
// empty), a whole super column (SuperColumn set, no Predicate), or the
// columns named by Predicate.ColumnNames (inside SuperColumn when set; in a
// super CF without SuperColumn the names are super column names). As in
// 0.6, a SliceRange predicate is rejected.
type Deletion struct {
	Timestamp   int64
	SuperColumn []byte
	Predicate   *SlicePredicate
}

// Mutation is one element of a BatchMutate: exactly one of
// ColumnOrSuperColumn (an insert) or Deletion.
type Mutation struct {
	ColumnOrSuperColumn *ColumnOrSuperColumn
	Deletion            *Deletion
}

// InvalidRequestError is Thrift's InvalidRequestException: the request was
// malformed or named something that is not configured. Why carries
// Cassandra's message.
//
// errors.Is(err, ErrInvalidRequest) matches any InvalidRequestError;
// errors.Is(err, &InvalidRequestError{Why: "..."}) matches that message.
type InvalidRequestError struct {
	Why string
}

func (e *InvalidRequestError) Error() string { return "InvalidRequestException: " + e.Why }

// Is reports whether target is an *InvalidRequestError with an empty or equal Why.
func (e *InvalidRequestError) Is(target error) bool {
	t, ok := target.(*InvalidRequestError)
	return ok && (t.Why == "" || t.Why == e.Why)
}

// NotFoundError is Thrift's NotFoundException: Get found nothing live.
type NotFoundError struct{}

func (*NotFoundError) Error() string { return "NotFoundException" }

// Is makes every *NotFoundError match ErrNotFound.
func (*NotFoundError) Is(target error) bool {
	_, ok := target.(*NotFoundError)
	return ok
}

// UnavailableError and TimedOutError exist in the 0.6 API; a single
// in-process node never returns them.
type UnavailableError struct{}

func (*UnavailableError) Error() string { return "UnavailableException" }

// TimedOutError: see UnavailableError.
type TimedOutError struct{}

func (*TimedOutError) Error() string { return "TimedOutException" }

// Sentinels for errors.Is.
var (
	ErrInvalidRequest error = &InvalidRequestError{}
	ErrNotFound       error = &NotFoundError{}
)

// Errors returned by Open.
var (
	// ErrForeignDir: the data directory is not empty and was not written by this engine.
	ErrForeignDir = errors.New("widerow: data directory is not a widerow store")
	// ErrLocked: another Node (in this or another process) has the directory open.
	ErrLocked = errors.New("widerow: data directory is locked by another open store")
	// ErrCorrupt: the directory claims to be a widerow store but cannot be opened or read.
	ErrCorrupt = errors.New("widerow: data store is corrupt or unreadable")
	// ErrIncompatible: the store was written with another format version,
	// partitioner, or column family comparators.
	ErrIncompatible = errors.New("widerow: data store is incompatible with this configuration")
	// ErrClosed: the Node has been closed.
	ErrClosed = errors.New("widerow: node is closed")
)

var errCorruptKey = fmt.Errorf("%w: malformed key", ErrCorrupt)

func invalidf(format string, args ...any) error {
	return &InvalidRequestError{Why: fmt.Sprintf(format, args...)}
}
