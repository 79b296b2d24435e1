package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"
)

// Options configure Open. The zero value opens an in-memory node with the
// embedded schema.
type Options struct {
	// Dir is the data directory. Empty means in memory (nothing survives Close).
	Dir string
	// Schema overrides the embedded storage-conf.xml (DefaultSchemaXML).
	Schema *Schema
	// CommitLogSync overrides the schema's CommitLogSync ("batch" by default):
	// SyncBatch syncs the write-ahead log before each write returns;
	// SyncPeriodic returns at once and syncs every CommitLogSyncPeriod, so
	// a crash may lose up to one period of acknowledged writes.
	CommitLogSync SyncMode
	// CommitLogSyncPeriod overrides the schema's CommitLogSyncPeriodInMS (10s by default).
	CommitLogSyncPeriod time.Duration
	// CacheSize is Pebble's block cache size in bytes (default 64 MiB), for blocks: the cache
	// is made that much larger than the memtables Pebble reserves in it.
	CacheSize int64
	// MemTableSize is Pebble's memtable size in bytes (default 64 MiB).
	MemTableSize uint64
	// RowCacheSize is the byte budget of the row cache of the column families with
	// RowsCached (default DefaultRowCacheSize, 32 MiB); negative turns the row cache off.
	RowCacheSize int
	// GCGrace overrides the schema's GCGraceSeconds (ten days by default) when positive: how
	// long a tombstone stays after the node received its delete before a compaction drops it.
	GCGrace time.Duration
	// ManualCompactionsOnly stops Pebble's own compactions (of a level grown too large, of a
	// file read often): files are merged only by Compact. For a node whose figures must move
	// with its caller's steps alone (a lesson's rehearsal, a test); a store kept so would grow
	// its level 0 without bound.
	ManualCompactionsOnly bool
	// CompactionInterval, when positive, runs Purge (the tombstone-dropping part of a major
	// compaction) on a background loop that often. Zero runs none: tombstones then go only
	// when Purge, Compact or CompactRow is called.
	CompactionInterval time.Duration
	// Now is the node's clock (time.Now by default): a delete's receipt time and a compaction's
	// now. ReceivedAt overrides it for one call.
	Now func() time.Time
	// Logger receives Pebble's error messages (informational ones are dropped), and the errors
	// of the background compactions. Nil discards them.
	Logger interface {
		Errorf(format string, args ...any)
	}
}

// Node is one emulated Cassandra 0.6 node: every keyspace of its schema,
// stored in one Pebble database. A Node is safe for concurrent use.
type Node struct {
	db          *pebble.DB
	schema      *Schema
	partitioner Partitioner
	cfs         map[string]map[string]*cfInfo
	writeOpts   *pebble.WriteOptions
	fileLock    io.Closer
	dir         string

	rows *rowCache // see rowcache.go
	// memTableSize is Pebble's memtable size: a memtable this full is flushed.
	memTableSize uint64
	// gate orders commits and compaction: every commit holds it shared; a compaction holds it
	// alone while it checks that the cells it drops are still the versions it read, and
	// deletes them (see compaction.go).
	gate sync.RWMutex
	// now is the node's clock, grace the GCGraceSeconds in seconds.
	now   func() time.Time
	grace int64
	// compactEvery is Options.CompactionInterval; stopCompact and compactDone stop the loop
	// that runs it.
	compactEvery time.Duration
	stopCompact  chan struct{}
	compactDone  chan struct{}
	logger       pebbleLogger
	// commits counts the commits to db; iters keeps the iterators of reads done since the
	// last one (see iterpool.go).
	commits  atomic.Uint64
	iters    iterPool
	rowLocks [rowLockStripes]sync.Mutex
	seed     maphash.Seed

	closeOnce sync.Once
	closeErr  error
	stopSync  chan struct{}
	syncDone  chan struct{}
	syncErr   error
	syncMu    sync.Mutex
}

const rowLockStripes = 256

// cfInfo is the resolved definition of one column family.
type cfInfo struct {
	keyspace string
	def      *ColumnFamilyDef
	name     string
	super    bool
	cmp      Comparator // CompareWith
	sub      Comparator // CompareSubcolumnsWith (super CFs)
	prefix   []byte     // 'd' | 2-byte column family id
	// rowsCached is RowsCached: how many of its rows the row cache may hold (0: none).
	rowsCached int
	// cached is the row cache's index of this column family's rows: row key → *cachedRow,
	// stored and deleted under the cache's lock, loaded without it (see rowcache.go). Keyed by
	// the row key alone, a hit hashes a string instead of a (column family, key) pair: a
	// multiget of 40 cached rows took 1.46-1.55 us instead of 1.81-1.89.
	cached sync.Map
	// rowDeletes is set once a row of this column family has been deleted whole (a row
	// tombstone written), and stays set: until then no read looks for a row's tombstone, a
	// seek saved on every read (see reader.rowDeletion). Persisted under metaRowDelPrefix.
	rowDeletes atomic.Bool
}

const (
	markerFile = "WIDEROW-FORMAT"
	lockFile   = "WIDEROW-LOCK"
)

// Open opens (creating it when needed) the store described by opts.
//
// An on-disk directory must be missing, empty, or a store this engine
// wrote: a non-empty directory without the engine's marker file is
// refused with ErrForeignDir; a directory another Node has open (in this
// process or another) with ErrLocked; a store that cannot be read with
// ErrCorrupt; one written with another format, partitioner or comparators
// with ErrIncompatible. Open never resets existing data.
func Open(opts Options) (*Node, error) {
	schema := opts.Schema
	if schema == nil {
		schema = DefaultSchema()
	}
	mode := schema.CommitLogSync
	if opts.CommitLogSync != "" {
		mode = opts.CommitLogSync
	}
	if mode != SyncBatch && mode != SyncPeriodic {
		return nil, fmt.Errorf("widerow: CommitLogSync %q: want batch or periodic", mode)
	}
	period := schema.CommitLogSyncPeriod
	if opts.CommitLogSyncPeriod > 0 {
		period = opts.CommitLogSyncPeriod
	}
	if period <= 0 {
		period = 10 * time.Second
	}

	n := &Node{
		schema:      schema,
		partitioner: schema.Partitioner,
		cfs:         map[string]map[string]*cfInfo{},
		seed:        maphash.MakeSeed(),
		dir:         opts.Dir,
		now:         opts.Now,
		grace:       int64(schema.GCGraceSeconds),
		logger:      pebbleLogger{opts.Logger},
	}
	if n.now == nil {
		n.now = time.Now
	}
	if opts.GCGrace > 0 && int64(opts.GCGrace/time.Second) != n.grace {
		n.grace = int64(opts.GCGrace / time.Second)
		n.schema = schema.withGCGrace(int(n.grace))
	}
	n.compactEvery = max(opts.CompactionInterval, 0)
	rowCacheSize := opts.RowCacheSize
	if rowCacheSize == 0 {
		rowCacheSize = DefaultRowCacheSize
	}
	n.rows = newRowCache(max(rowCacheSize, 0))
	for ki := range schema.Keyspaces {
		ks := &schema.Keyspaces[ki]
		m := map[string]*cfInfo{}
		for ci := range ks.ColumnFamilies {
			def := &ks.ColumnFamilies[ci]
			// prefix is set by checkMeta, from the store's id for this CF.
			m[def.Name] = &cfInfo{keyspace: ks.Name, def: def, name: def.Name, super: def.Super,
				cmp: def.CompareWith, sub: def.CompareSubcolumnsWith}
			if rowCacheSize > 0 {
				m[def.Name].rowsCached = def.RowsCached
			}
		}
		n.cfs[ks.Name] = m
	}

	cacheSize := opts.CacheSize
	if cacheSize <= 0 {
		cacheSize = 64 << 20
	}
	memTable := opts.MemTableSize
	if memTable == 0 {
		memTable = 64 << 20
	}
	// Pebble reserves each memtable's memory in the block cache: a cache of CacheSize beside
	// a full 64 MiB memtable would hold no block at all, and every read would decompress its
	// index and data blocks again (BenchmarkReversedSlice40 saw 7 misses and no hit a read).
	// The cache is CacheSize of blocks on top of the most memtables Pebble keeps before it
	// stalls writes: the mutable one and MemTableStopWritesThreshold (2) waiting for a flush.
	n.memTableSize = memTable
	cache := pebble.NewCache(cacheSize + 3*int64(memTable))
	defer cache.Unref()
	popts := &pebble.Options{
		Cache:        cache,
		MemTableSize: memTable,
		Merger:       lwwMerger,
		Logger:       pebbleLogger{opts.Logger},

		DisableAutomaticCompactions: opts.ManualCompactionsOnly,
	}

	fresh := true
	if opts.Dir == "" {
		popts.FS = vfs.NewMem()
		n.writeOpts = pebble.NoSync
	} else {
		var err error
		fresh, err = checkDataDir(opts.Dir)
		if err != nil {
			return nil, err
		}
		l, err := vfs.Default.Lock(filepath.Join(opts.Dir, lockFile))
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrLocked, opts.Dir, err)
		}
		n.fileLock = l
		if fresh {
			if err := writeMarkerFile(opts.Dir); err != nil {
				l.Close()
				return nil, err
			}
		} else {
			popts.ErrorIfNotExists = true
		}
		n.writeOpts = pebble.Sync
		if mode == SyncPeriodic {
			n.writeOpts = pebble.NoSync
		}
	}

	dirName := opts.Dir
	if dirName == "" {
		dirName = "mem"
	}
	db, err := pebble.Open(dirName, popts)
	if err != nil {
		n.releaseLock()
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, opts.Dir, err)
	}
	n.db = db
	if err := n.checkMeta(fresh); err != nil {
		db.Close()
		n.releaseLock()
		return nil, err
	}
	if opts.Dir != "" && mode == SyncPeriodic {
		n.stopSync = make(chan struct{})
		n.syncDone = make(chan struct{})
		go n.syncLoop(period)
	}
	if opts.CompactionInterval > 0 {
		n.stopCompact = make(chan struct{})
		n.compactDone = make(chan struct{})
		go n.compactionLoop(opts.CompactionInterval)
	}
	return n, nil
}

// checkDataDir reports whether dir is new (missing or empty, apart from
// our own marker and lock files) and refuses directories that are not ours.
func checkDataDir(dir string) (fresh bool, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("widerow: create data dir: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("widerow: read data dir: %w", err)
	}
	hasMarker, others := false, 0
	for _, e := range entries {
		switch e.Name() {
		case markerFile:
			hasMarker = true
		case lockFile:
		default:
			others++
		}
	}
	if others == 0 {
		return true, nil
	}
	if !hasMarker {
		return false, fmt.Errorf("%w: %s is not empty and has no %s file; refusing to use it", ErrForeignDir, dir, markerFile)
	}
	b, err := os.ReadFile(filepath.Join(dir, markerFile))
	if err != nil {
		return false, fmt.Errorf("%w: %s: %v", ErrCorrupt, dir, err)
	}
	if got := string(bytes.TrimSpace(b)); got != formatVersion {
		return false, fmt.Errorf("%w: %s holds %q, this engine writes %q", ErrIncompatible, dir, got, formatVersion)
	}
	return false, nil
}

func writeMarkerFile(dir string) error {
	p := filepath.Join(dir, markerFile)
	f, err := os.Create(p)
	if err != nil {
		return fmt.Errorf("widerow: write marker: %w", err)
	}
	if _, err := f.WriteString(formatVersion + "\n"); err != nil {
		f.Close()
		return fmt.Errorf("widerow: write marker: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("widerow: write marker: %w", err)
	}
	return f.Close()
}

type storeMeta struct {
	Format      string `json:"format"`
	Partitioner string `json:"partitioner"`
}

// checkMeta writes (fresh store) or verifies the in-store marker and the
// definition of every column family the schema shares with the store:
// the key encoding depends on the comparators, so changing one would
// silently misread data.
func (n *Node) checkMeta(fresh bool) error {
	want := storeMeta{Format: formatVersion, Partitioner: n.partitioner.String()}
	wantB, _ := json.Marshal(want)
	b := n.db.NewBatch()
	defer b.Close()
	got, closer, err := n.db.Get([]byte(metaFormatKey))
	switch {
	case errors.Is(err, pebble.ErrNotFound):
		if !fresh {
			return fmt.Errorf("%w: %s: the store has no format marker", ErrCorrupt, n.dir)
		}
		if err := b.Set([]byte(metaFormatKey), wantB, nil); err != nil {
			return err
		}
	case err != nil:
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, n.dir, err)
	default:
		var m storeMeta
		uerr := json.Unmarshal(got, &m)
		closer.Close()
		if uerr != nil {
			return fmt.Errorf("%w: %s: bad format marker: %v", ErrCorrupt, n.dir, uerr)
		}
		if m.Format != want.Format {
			return fmt.Errorf("%w: store format %q, engine format %q", ErrIncompatible, m.Format, want.Format)
		}
		if m.Partitioner != want.Partitioner {
			return fmt.Errorf("%w: the store was written with %s but the configuration says %s (changing partitioner is not supported)",
				ErrIncompatible, m.Partitioner, want.Partitioner)
		}
	}
	// Column families are numbered in the order they first appear; a
	// number is never reused, even when a CF leaves the schema.
	ids := map[string]uint16{}
	descs := map[string]string{}
	var maxID uint16
	it, err := n.db.NewIter(&pebble.IterOptions{LowerBound: []byte(metaCFPrefix), UpperBound: prefixSuccessor(nil, []byte(metaCFPrefix))})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	for valid := it.First(); valid; valid = it.Next() {
		name := string(it.Key()[len(metaCFPrefix):])
		desc, idStr, ok := strings.Cut(string(it.Value()), " id=")
		id, perr := strconv.ParseUint(idStr, 10, 16)
		if !ok || perr != nil || id == 0 {
			it.Close()
			return fmt.Errorf("%w: bad column family record %q", ErrCorrupt, name)
		}
		ids[name], descs[name] = uint16(id), desc
		maxID = max(maxID, uint16(id))
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	for _, ks := range n.sortedKeyspaces() {
		for _, cf := range ks.ColumnFamilies {
			name := ks.Name + "/" + cf.Name
			desc := cf.ColumnType() + " " + cf.CompareWith.String()
			if cf.Super {
				desc += " " + cf.CompareSubcolumnsWith.String()
			}
			id, ok := ids[name]
			switch {
			case !ok:
				if maxID == math.MaxUint16 {
					return fmt.Errorf("widerow: too many column families")
				}
				maxID++
				id = maxID
				if err := b.Set([]byte(metaCFPrefix+name), fmt.Appendf(nil, "%s id=%d", desc, id), nil); err != nil {
					return err
				}
			case descs[name] != desc:
				return fmt.Errorf("%w: column family %s.%s was created as %q and is now configured as %q; comparators cannot change",
					ErrIncompatible, ks.Name, cf.Name, descs[name], desc)
			}
			info := n.cfs[ks.Name][cf.Name]
			info.prefix = []byte{dataPrefix, byte(id >> 8), byte(id)}
			deleted, err := n.hasRowDeletes(info, fresh)
			if err != nil {
				return err
			}
			info.rowDeletes.Store(deleted)
		}
	}
	if fresh {
		// A store made by this version records each column family's first row deletion; one
		// made before did not, so all its column families are taken to have some.
		if err := b.Set([]byte(metaRowDelTracked), nil, nil); err != nil {
			return err
		}
	}
	if b.Empty() {
		return nil
	}
	return n.db.Apply(b, pebble.Sync)
}

// hasRowDeletes reports whether a row of cf may have been deleted whole: its marker is there, or
// the store predates the markers.
func (n *Node) hasRowDeletes(cf *cfInfo, fresh bool) (bool, error) {
	if fresh {
		return false, nil
	}
	for _, k := range []string{metaRowDelPrefix + string(cf.prefix), metaRowDelTracked} {
		_, closer, err := n.db.Get([]byte(k))
		switch {
		case err == nil:
			closer.Close()
			if k != metaRowDelTracked {
				return true, nil
			}
		case errors.Is(err, pebble.ErrNotFound):
			if k == metaRowDelTracked {
				return true, nil
			}
		default:
			return false, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
	}
	return false, nil
}

func (n *Node) sortedKeyspaces() []KeyspaceDef {
	kss := append([]KeyspaceDef(nil), n.schema.Keyspaces...)
	sort.Slice(kss, func(i, j int) bool { return kss[i].Name < kss[j].Name })
	return kss
}

// syncLoop implements CommitLogSync periodic: writes go to the WAL without
// fsync and this loop makes them durable every period.
func (n *Node) syncLoop(period time.Duration) {
	defer close(n.syncDone)
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-n.stopSync:
			return
		case <-t.C:
			if err := n.db.LogData(nil, pebble.Sync); err != nil {
				n.syncMu.Lock()
				n.syncErr = err
				n.syncMu.Unlock()
			}
		}
	}
}

// Sync makes every acknowledged write durable now (useful in periodic mode).
func (n *Node) Sync() error {
	if n.dir == "" {
		return nil
	}
	return n.db.LogData(nil, pebble.Sync)
}

// Flush writes the memtable to an SSTable (nodetool flush). The idle iterators are closed
// first: they would keep the flushed memtable in memory.
func (n *Node) Flush() error {
	n.iters.release()
	return n.db.Flush()
}

// Compact has Pebble compact the whole store into its last level: the versions of each cell
// are merged into one, and the room of the cells deleted (by Purge, CompactRow) is given back.
// Like 0.6's minor compactions it keeps every tombstone: Purge is what drops them.
func (n *Node) Compact(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := n.Flush(); err != nil {
		return err
	}
	// Iterators opened during the compaction (no commit retires them) would keep its inputs on
	// disk: closed once it is done.
	defer n.iters.release()
	return n.db.Compact([]byte{metaPrefix}, []byte{0xFF}, true)
}

// ErrRowCache is Reset's refusal on a node with a row cache.
var ErrRowCache = errors.New("widerow: reset: the node has a row cache")

// Reset drops every row of every keyspace, tombstones and all, as a node opened anew on no
// data would hold: the schema and the node's metadata stay. It is for a scratch node reused
// run after run (0.6 has no such call: truncate came in 0.7), costing one range deletion
// instead of a node's opening, and is refused on a node with a row cache (ErrRowCache), whose
// rows it would have to forget too. The caller runs nothing else on the node meanwhile.
func (n *Node) Reset() error {
	if n.rows.maxBytes > 0 {
		return ErrRowCache
	}
	n.gate.Lock()
	defer n.gate.Unlock()
	if err := n.db.DeleteRange([]byte{dataPrefix}, []byte{dataPrefix + 1}, n.writeOpts); err != nil {
		return fmt.Errorf("widerow: reset: %w", err)
	}
	n.committed()
	return nil
}

// TruncateKeyspace drops every row of every column family of one keyspace, tombstones and all,
// as Reset drops those of the node: one range deletion a column family, after which the
// keyspace holds nothing, not even a range ghost. It is for a scratch keyspace handed from one
// user to the next (0.7's truncate did it per column family; 0.6 had none), and is refused for a
// keyspace with a cached column family (ErrRowCache). The caller writes nothing to the keyspace
// meanwhile.
func (n *Node) TruncateKeyspace(keyspace string) error {
	cfs, ok := n.cfs[keyspace]
	if !ok {
		return invalidf("Keyspace %s does not exist in this schema.", keyspace)
	}
	for _, cf := range cfs {
		if cf.rowsCached > 0 {
			return ErrRowCache
		}
	}
	n.gate.Lock()
	defer n.gate.Unlock()
	b := n.db.NewBatch()
	defer b.Close()
	for _, cf := range cfs {
		if err := b.DeleteRange(cf.prefix, cfUpperBound(cf.prefix), nil); err != nil {
			return fmt.Errorf("widerow: truncate %s: %w", keyspace, err)
		}
	}
	if err := b.Commit(n.writeOpts); err != nil {
		return fmt.Errorf("widerow: truncate %s: %w", keyspace, err)
	}
	n.committed()
	return nil
}

// cfUpperBound is the first key after every key of the column family whose prefix is p
// ('d' | 2-byte id): the next id's prefix, carried (id 255's bound is id 256's prefix).
func cfUpperBound(p []byte) []byte {
	id := uint16(p[1])<<8 | uint16(p[2])
	if id == math.MaxUint16 {
		return []byte{p[0] + 1}
	}
	id++
	return []byte{p[0], byte(id >> 8), byte(id)}
}

// Close syncs, stops the periodic sync loop, and closes the store. It is
// safe to call more than once.
func (n *Node) Close() error {
	n.closeOnce.Do(func() {
		if n.stopCompact != nil {
			close(n.stopCompact)
			<-n.compactDone
		}
		if n.stopSync != nil {
			close(n.stopSync)
			<-n.syncDone
		}
		var errs []error
		if n.dir != "" {
			errs = append(errs, n.db.LogData(nil, pebble.Sync))
		}
		n.syncMu.Lock()
		errs = append(errs, n.syncErr)
		n.syncMu.Unlock()
		errs = append(errs, n.iters.close())
		errs = append(errs, n.db.Close())
		errs = append(errs, n.releaseLock())
		n.closeErr = errors.Join(errs...)
	})
	return n.closeErr
}

func (n *Node) releaseLock() error {
	if n.fileLock == nil {
		return nil
	}
	err := n.fileLock.Close()
	n.fileLock = nil
	return err
}

// CompactionInterval is how often the node runs Purge by itself (0: never).
func (n *Node) CompactionInterval() time.Duration { return n.compactEvery }

// Schema returns the parsed schema (do not modify it).
func (n *Node) Schema() *Schema { return n.schema }

// Partitioner returns the configured partitioner.
func (n *Node) Partitioner() Partitioner { return n.partitioner }

// DescribeKeyspaces lists the keyspace names, sorted (describe_keyspaces).
func (n *Node) DescribeKeyspaces(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(n.schema.Keyspaces))
	for _, ks := range n.schema.Keyspaces {
		names = append(names, ks.Name)
	}
	sort.Strings(names)
	return names, nil
}

// DescribeKeyspace returns, as 0.6's describe_keyspace did, a map from
// column family name to its properties: "Type" (Standard or Super),
// "CompareWith" and, for super CFs, "CompareSubcolumnsWith" (Java class
// names), and "Desc" (the comment).
func (n *Node) DescribeKeyspace(ctx context.Context, keyspace string) (map[string]map[string]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ks, ok := n.schema.Keyspace(keyspace)
	if !ok {
		return nil, &NotFoundError{}
	}
	out := make(map[string]map[string]string, len(ks.ColumnFamilies))
	for _, cf := range ks.ColumnFamilies {
		m := map[string]string{
			"Type":        cf.ColumnType(),
			"CompareWith": cf.CompareWith.ClassName(),
			"Desc":        cf.Comment,
		}
		if cf.Super {
			m["CompareSubcolumnsWith"] = cf.CompareSubcolumnsWith.ClassName()
		}
		out[cf.Name] = m
	}
	return out, nil
}

// columnFamily resolves a keyspace and column family or returns
// Cassandra's InvalidRequest.
func (n *Node) columnFamily(keyspace, cf string) (*cfInfo, error) {
	m, ok := n.cfs[keyspace]
	if !ok {
		return nil, invalidf("Keyspace %s does not exist in this schema.", keyspace)
	}
	info, ok := m[cf]
	if !ok {
		return nil, invalidf("unconfigured columnfamily %s", cf)
	}
	return info, nil
}

// rowLock returns the stripe guarding one row of one column family.
func (n *Node) rowLock(cf *cfInfo, key string) *sync.Mutex {
	var h maphash.Hash
	h.SetSeed(n.seed)
	h.Write(cf.prefix)
	h.WriteString(key)
	return &n.rowLocks[h.Sum64()%rowLockStripes]
}

// pebbleLogger drops Pebble's informational messages.
type pebbleLogger struct {
	l interface{ Errorf(string, ...any) }
}

func (p pebbleLogger) Infof(string, ...any) {}
func (p pebbleLogger) Errorf(format string, args ...any) {
	if p.l != nil {
		p.l.Errorf(format, args...)
	}
}
func (p pebbleLogger) Fatalf(format string, args ...any) {
	p.Errorf(format, args...)
	panic(fmt.Sprintf(format, args...))
}
