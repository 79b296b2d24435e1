package engine

// StorageFigures are what the node's storage reports of itself, from Pebble's metrics and the
// engine's row cache: the write path (the write-ahead log, the memtables, the table files per
// level, the flushes and compactions) and the read path (the block cache, the bloom filters,
// the table cache, the row cache). The counts (flushes, compactions, hits, misses, WAL bytes
// in) only grow while the node is open.
type StorageFigures struct {
	// WALFiles and WALBytes are the live write-ahead log files and their size; WALBytesIn is
	// every byte of every commit appended to the log since the node opened. Pebble keeps one
	// log for the whole store: every column family of every keyspace writes to it.
	WALFiles   int64
	WALBytes   uint64
	WALBytesIn uint64
	// MemTables is the number of memtables (the mutable one and any waiting for their flush),
	// MemTableBytes their size.
	MemTables     int64
	MemTableBytes uint64
	// MemTableSize is the size at which the mutable memtable is flushed (Options.MemTableSize).
	MemTableSize uint64
	// Levels are the table files of each of Pebble's seven levels (L0 to L6).
	Levels [7]LevelFigures
	// Flushes and Compactions count the memtables written to a table file and the compactions
	// that rewrote table files (Pebble's, automatic or asked for by Compact).
	Flushes, Compactions int64
	// BlockCacheHits and BlockCacheMisses count the reads of a table block (data, index or
	// filter) found in, or missing from, the block cache.
	BlockCacheHits, BlockCacheMisses int64
	// FilterHits counts the reads a table's bloom filter spared (the key was not in the table),
	// FilterMisses those it could not.
	FilterHits, FilterMisses int64
	// TableCacheHits and TableCacheMisses count the opens of a table file found in, or missing
	// from, the cache of open tables.
	TableCacheHits, TableCacheMisses int64
	// RowCache is the row cache of the column families with RowsCached.
	RowCache RowCacheStats
}

// LevelFigures are the table files of one level.
type LevelFigures struct {
	Files int64
	Bytes int64
}

// TableFiles is the number of table files in every level.
func (f StorageFigures) TableFiles() int64 {
	var n int64
	for _, l := range f.Levels {
		n += l.Files
	}
	return n
}

// StorageFigures reads the node's storage figures now.
func (n *Node) StorageFigures() StorageFigures {
	m := n.db.Metrics()
	f := StorageFigures{
		WALFiles: m.WAL.Files, WALBytes: m.WAL.Size, WALBytesIn: m.WAL.BytesIn,
		MemTables: m.MemTable.Count, MemTableBytes: m.MemTable.Size, MemTableSize: n.memTableSize,
		Flushes: m.Flush.Count, Compactions: m.Compact.Count,
		BlockCacheHits: m.BlockCache.Hits, BlockCacheMisses: m.BlockCache.Misses,
		FilterHits: m.Filter.Hits, FilterMisses: m.Filter.Misses,
		TableCacheHits: m.TableCache.Hits, TableCacheMisses: m.TableCache.Misses,
		RowCache: n.rows.snapshot(),
	}
	for i := range f.Levels {
		f.Levels[i] = LevelFigures{Files: m.Levels[i].NumFiles, Bytes: m.Levels[i].Size}
	}
	return f
}

// TableFile is one of the node's table files (Pebble's sstables).
type TableFile struct {
	Level int
	Num   uint64 // its file number: a new file gets a new, larger one
	Bytes uint64
}

// TableFiles lists the node's table files, level by level.
func (n *Node) TableFiles() ([]TableFile, error) {
	levels, err := n.db.SSTables()
	if err != nil {
		return nil, err
	}
	var out []TableFile
	for l, ts := range levels {
		for _, t := range ts {
			out = append(out, TableFile{Level: l, Num: uint64(t.FileNum), Bytes: t.Size})
		}
	}
	return out, nil
}
