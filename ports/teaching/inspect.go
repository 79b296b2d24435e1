package teaching

import (
	"context"
	"time"
)

// Slice bounds a read of one row or partition, as get_slice's SliceRange bounded a row: Start
// and Finish as the learner types them (the store parses them by the comparator or clustering
// type; "" is open), in the order the columns come back, at most Count of them.
type Slice struct {
	Start    string
	Finish   string
	Reversed bool
	Count    int
}

// WideRowInspector reads the rows of the 0.6 model (the widerow engine) for the storage
// inspector, names and values already decoded by their comparators and secrets hidden.
type WideRowInspector interface {
	// SchemaXML is the running engine's storage-conf.xml.
	SchemaXML() string
	// Compaction is how the engine drops tombstones: its GCGraceSeconds, and how often it
	// compacts by itself (0: never).
	Compaction() (gcGraceSeconds int64, every time.Duration)
	// Keyspaces describes the keyspaces and their column families.
	Keyspaces() []WideKeyspace
	// ReadRow slices one row of keyspace.cf. Bad bounds are domain.ErrInvalid.
	ReadRow(ctx context.Context, keyspace, cf, key string, s Slice) ([]WideColumn, error)
	// StoredRow lists up to limit cells of one row as the engine stores them, before a read
	// reconciles anything: live columns, and tombstones (Deleted) with their deletion time. A
	// deletion of a whole row or super column has no Name.
	StoredRow(ctx context.Context, keyspace, cf, key string, limit int) ([]WideColumn, error)
	// UserRowKey reads Twissandra.Username[username]['id'], the row key of the user's rows;
	// domain.ErrNotFound when the name is not taken.
	UserRowKey(ctx context.Context, username string) (string, error)
	// RowKeys lists up to limit keys of rows of keyspace.cf holding a live column.
	RowKeys(ctx context.Context, keyspace, cf string, limit int) ([]string, error)
}

// WideKeyspace is a keyspace of the 0.6 model.
type WideKeyspace struct {
	Name           string
	ColumnFamilies []WideCF
}

// WideCF is a column family: Definition is its storage-conf.xml element, BoundHelp what a
// slice bound of its comparator looks like.
type WideCF struct {
	Name       string
	Super      bool
	Comparator string
	Definition string
	BoundHelp  string
}

// WideColumn is a column as the seeds write one, name, value and timestamp, the name decoded by
// its comparator (Note: the date a LongType or TimeUUIDType name stands for); a super column
// has Columns and no value. Deleted marks a tombstone: Timestamp is then its deletion time, and
// Received, when known, the time the node received the delete (0.6's localDeletionTime, in
// seconds since 1970), from which GCGraceSeconds counts.
type WideColumn struct {
	Name      string
	Note      string
	Value     string
	Timestamp int64
	Deleted   bool
	Received  int64
	Columns   []WideColumn
}

// CQLInspector reads the tables of the CQL3 model for the storage inspector, values rendered in
// CQL's literal syntax and secrets hidden.
type CQLInspector interface {
	// InspectTables describes the tables of the keyspace.
	InspectTables(ctx context.Context) ([]CQLTable, error)
	// ReadPartition reads one partition of table, sliced on its first clustering column; key
	// holds the partition key's values as text. Bad input is domain.ErrInvalid, an unknown
	// table domain.ErrNotFound.
	ReadPartition(ctx context.Context, table string, key []string, s Slice) ([][]CQLCell, error)
	// PartitionKeys lists up to limit partition keys of table, as the text ReadPartition takes.
	PartitionKeys(ctx context.Context, table string, limit int) ([][]string, error)
}

// CQLColumn is one column of a table: its name, its CQL type as system_schema spells it, and
// whether a clustering column is in descending order (ReversedType in 1.2-2.x).
type CQLColumn struct {
	Name string
	Type string
	Desc bool
}

// CQLTable describes a table: its key columns in key order, then its static and regular columns.
type CQLTable struct {
	Keyspace     string
	Name         string
	PartitionKey []CQLColumn
	Clustering   []CQLColumn
	Static       []CQLColumn
	Regular      []CQLColumn
}

// CQLCell is one column of a row, its value in CQL's literal syntax (text in quotes, UUIDs
// plain, timestamps in RFC 3339, blobs as 0x hex, collections in braces or brackets).
type CQLCell struct {
	Name  string
	Value string
	Null  bool
	// Timestamp is the cell's write time in microseconds (WRITETIME), and TTL the seconds it
	// has left (0: none); both 0 for key columns and collections, which have none or many.
	Timestamp int64
	TTL       int
}
