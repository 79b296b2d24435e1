// Package engine is an in-process emulation of Apache Cassandra 0.6's
// Thrift data model, stored in Pebble. It is what the widerow adapter and
// the cassandra-cli-style shell are built on.
//
// # The model
//
// A Node holds the keyspaces of a storage-conf.xml (DefaultSchemaXML, or
// Options.Schema). A keyspace holds column families; a standard column
// family maps a row key to a sorted list of columns (name, value,
// timestamp); a super column family maps a row key to a sorted list of
// super columns, each a sorted list of subcolumns. CompareWith orders the
// (super) column names and CompareSubcolumnsWith the subcolumns: BytesType,
// AsciiType, UTF8Type, LongType, LexicalUUIDType or TimeUUIDType.
//
// The API mirrors the 0.6 Thrift calls: Get, GetSlice, MultigetSlice,
// GetCount, GetRangeSlices, Insert, Remove, BatchMutate, DescribeKeyspaces
// and DescribeKeyspace, with the same structs (ColumnPath, ColumnParent,
// SlicePredicate, SliceRange, KeyRange, Mutation, Deletion...) and errors
// (*InvalidRequestError with Cassandra's messages, *NotFoundError).
//
// Timestamps are the client's; the newest version of a column wins, a tie
// goes to a tombstone, then to the larger value. A deletion of a column,
// super column or row is a tombstone that hides everything it covers with
// a timestamp at or before its own, including writes that arrive later
// carrying older timestamps.
//
// # Which 0.6
//
// The engine follows Cassandra 0.6.6, read in the 0.6 branch's source as of
// October 2010; 0.6's releases differ in a few rules. 0.6.0 to 0.6.3 ordered
// UTF8Type names by their UTF-16 code units and took any bytes (from 0.6.4 they
// compare as bytes and must be valid UTF-8, CASSANDRA-1232); 0.6.0 to 0.6.2
// refused reads at ALL and a Deletion of a whole row, and took a super column's
// Deletion in a standard column family (CASSANDRA-1152, 1027, 1139); 0.6.0 to
// 0.6.4 trimmed batch row keys (String.trim, CASSANDRA-1235). The refusals carry
// 0.6.6's messages (validate.go), and a super-column slice counts its super
// columns as 0.6's SliceQueryFilter does (sliceSupers).
//
// InsertIfAbsent and CompareAndSet are extensions: Cassandra 0.6 had no
// conditional write (see InsertIfAbsent). RowsNamedBy and BatchMutateRows are
// calls 0.6 did not have either, but no extension of its model: a get_slice of
// a cached index row and a batch_mutate of the rows it names, with each row's
// token computed once and kept with the cached row (see RowSet).
//
// # Key layout
//
// Everything lives in one Pebble keyspace with Pebble's default byte-wise
// ordering. Keys are built so that byte order is the order Cassandra
// defines, which turns every slice into one seek plus one step per column:
//
//	0x00 "widerow/format"                      store format and partitioner
//	0x00 "widerow/cf/" ks "/" cf                column family definition and id
//	'd' id(2) token(16) key 0x00 0x01 0x00      row tombstone
//	'd' id(2) token(16) key 0x00 0x01 0x01 N    column N (standard CF)
//	'd' id(2) token(16) key 0x00 0x01 0x01 S 0x00     super column S tombstone
//	'd' id(2) token(16) key 0x00 0x01 0x01 S 0x01 N   subcolumn N of S
//
// where:
//
//   - id: a number given to each column family when the store first sees
//     it (never reused), so keys do not repeat keyspace and CF names.
//   - token: under RandomPartitioner, abs(signed 128-bit MD5 of the key),
//     16 bytes big-endian, so rows are stored, and get_range_slices returns
//     them, in token order. Absent under OrderPreservingPartitioner.
//   - key: the row key with 0x00 escaped as 0x00 0xFF, ended by 0x00 0x01
//     (a key that is a prefix of another sorts first, as in byte order).
//   - N, S: names in an order-preserving encoding of their comparator
//     (AppendName): byte types as is (escaped and terminated when more
//     follows, as S is); LongType with the sign bit flipped; LexicalUUIDType
//     with the sign bits of both halves flipped (java.util.UUID.compareTo);
//     TimeUUIDType as the 60-bit timestamp (8 bytes) followed by the 16 raw
//     bytes.
//
// The value of every cell, tombstones included, is
// flags(1: bit 0 = tombstone) | timestamp(8, big-endian) | value; a
// tombstone's value is the time the node received the delete, in seconds
// (4 bytes, big-endian), or empty in a store written before it was kept.
//
// # Reads and writes
//
// Writes are blind: every cell is written with Pebble's Merge, and a merge
// operator keeps the winning version, so versions are reconciled when read
// and when compacted, much like Cassandra's memtables and SSTables. A
// BatchMutate is one Pebble batch (one WAL record), so it is atomic;
// Cassandra 0.6 only promised atomicity per row.
//
// A slice seeks to its start (SeekGE, or SeekLT when reversed) and steps.
// Because count counts live columns, tombstones and shadowed columns
// inside the range are stepped over: a slice costs O(log n + k + d) where
// d is the number of dead cells it crosses.
//
// # Compaction
//
// Pebble's own compactions merge the versions of a cell and keep every
// tombstone, as 0.6's minor compactions do. Tombstones go as in 0.6's major
// compaction (ColumnFamilyStore.removeDeleted), in Purge (every row; the
// node runs it every Options.CompactionInterval) and CompactRow (one row):
// a tombstone's value is the time the node received the delete (0.6's
// localDeletionTime, the node's clock in seconds, not the client's
// timestamp), and once that is GCGraceSeconds old (the schema's
// <GCGraceSeconds>, ten days, or Options.GCGrace) the tombstone goes, with
// every cell it hides; a row or super column tombstone stays while a newer
// column of it remains. Cells a row or super column tombstone hides go at
// any compaction.
//
// # Storage
//
// With Options.Dir empty the store lives in memory. Otherwise the
// directory holds a marker file (WIDEROW-FORMAT), a lock file and the
// Pebble files. CommitLogSync "batch" syncs the WAL before a write
// returns; "periodic" syncs it every CommitLogSyncPeriod. Open refuses,
// with a distinct error, a directory that is not ours (ErrForeignDir), is
// open elsewhere (ErrLocked), is unreadable (ErrCorrupt), or was written
// with another format, partitioner or comparator (ErrIncompatible).
package engine
