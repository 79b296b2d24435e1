package ports

import (
	"context"

	"github.com/google/uuid"

	"twissandra/domain"
)

// The inspection ports: what the teaching views need to show a store in its own model's terms.
// They are optional (the use cases never inspect), plain data in and out, so that the web layer
// shows any store without importing an adapter.

// Locator says where records live in a store: every row, column, partition or map entry one
// record occupies, read from the store now. Every adapter implements it; the contract suite
// checks it on each.
type Locator interface {
	// Locate returns the places of each locus in the order asked (a locus may occupy several:
	// a user is a User row and a Username column on the 0.6 model). A place the record should
	// occupy but does not is returned with Present false; an unknown user or entry is not an
	// error, its places are simply absent.
	Locate(ctx context.Context, loci []Locus) ([]Placement, error)
}

// LocusKind names what a Locus points at.
type LocusKind string

// The loci of Twissandra and of the blog.
const (
	LocusUser      LocusKind = "user"       // User: the user's record (and its index)
	LocusTweet     LocusKind = "tweet"      // Tweet: the tweet's record
	LocusLineEntry LocusKind = "line entry" // Line, Time, Tweet: one entry of a line
	LocusFollow    LocusKind = "follow"     // User follows Other: both sides
	LocusAuthor    LocusKind = "author"     // Name: a blog author's profile
	LocusEntry     LocusKind = "entry"      // Slug: a blog entry's record
	LocusTagRef    LocusKind = "tag ref"    // Tag, ID, Slug: an entry's place in a tag's index
	LocusComment   LocusKind = "comment"    // Slug, ID: one comment of an entry
)

// Locus is one record to locate. Role says what it is to the learner ("bob's timeline").
type Locus struct {
	Kind  LocusKind
	Role  string
	User  string // the user (a follow's follower)
	Other string // a follow's followed user
	Line  domain.LineKey
	Time  int64 // a line entry's time, microseconds
	Tweet uuid.UUID
	Name  string // a blog author's name
	Slug  string // a blog entry's slug
	Tag   string // a tag ("" for the __notag__ row of every entry)
	ID    uuid.UUID
}

// Placement is one place a record occupies in one model.
type Placement struct {
	Locus Locus
	// Model names the store's model: "widerow", "cql3" or "memory".
	Model string
	// Container is the column family ("Twissandra.Timeline"), table ("twissandra.timeline") or
	// map that holds the place.
	Container string
	// Key is the row key or partition key, as text.
	Key string
	// Address is the place in the model's own notation, e.g.
	// Twissandra.Timeline['<uuid>'][1273651200000000] or
	// timeline WHERE username = 'bob' AND time = 1273651200000000.
	Address string
	// Cells are what is stored there, in the model's order: columns of a row, or the cells
	// of a CQL row with its key columns marked.
	Cells []Cell
	// Present reports whether the place holds the record now.
	Present bool
	// Table describes the CQL table of a cql3 placement (nil on the other models), so that a
	// page can show the row as CQL and as the composite cells of Cassandra 1.2 to 2.2.
	Table *CQLTable
	// Inspect is the query of the storage inspector that shows the row or partition
	// ("cf_path=Twissandra.Timeline&key=..." or "table=timeline&k.username=bob"), "" for none.
	Inspect string
}

// Cell is one stored column or cell: its name, its value as text (secrets already hidden), and
// its write timestamp in microseconds (0 when the model keeps none).
type Cell struct {
	Name      string
	Value     string
	Timestamp int64
	// TTL is the seconds a cell has left to live (0: none; 0.6 had no TTL).
	TTL int
	// Key marks a CQL key column: "K" for the partition key, "C↑" or "C↓" for a clustering
	// column in ascending or descending order, "S" for a static column.
	Key string
}

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
// has Columns and no value. Deleted marks a tombstone: Timestamp is then its deletion time.
type WideColumn struct {
	Name      string
	Note      string
	Value     string
	Timestamp int64
	Deleted   bool
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
