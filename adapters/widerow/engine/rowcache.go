package engine

import (
	"bytes"
	"container/list"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble"
)

// The row cache is Cassandra 0.6's RowsCached: a column family with RowsCached="N" keeps up to
// N whole rows in memory, most recently used first, and serves reads of a cached row from
// there instead of from the storage engine. Twissandra's Followers rows are the case it is
// for: every tweet reads its author's whole Followers row to fan out, and follows are rare.
//
// What this emulation adds to the 0.6 behaviour, and why:
//   - A row is cached only by a read that starts at the row's first column and asks for at
//     least a quarter of the cells it finds (populateFactor): filling the cache then costs
//     at most a constant times what the read itself costs, so a slice stays O(log n + k)
//     however wide the row (0.6 read the whole row into the cache on any read of it).
//   - Rows beyond a share of the node's byte budget (Options.RowCacheSize) are not cached.
//   - A write to a cached row drops it (0.6 updated it in place); the next whole-row read
//     caches it again. The rows this cache is for are read often and written seldom.
//
// Coherence: every write drops the rows it touched after its batch is committed, and bumps
// the cache's generation. A reader notes the generation before it opens its storage iterator
// and caches what it read only if the generation has not moved since, so a row read from a
// snapshot that a later write made stale is never cached.

const (
	// populateFactor bounds the cells a read may scan to fill the cache: that many times the
	// cells it asked for.
	populateFactor = 4
	// populateMinCells lets small reads cache small rows.
	populateMinCells = 1024
	// rowCacheEntryOverhead approximates the memory of one cached cell besides its bytes.
	rowCacheEntryOverhead = 48
	// DefaultRowCacheSize is the byte budget of the row cache when Options.RowCacheSize is 0.
	DefaultRowCacheSize = 32 << 20
)

// kvIter is what a reader walks: Pebble's iterator, or a cached row.
type kvIter interface {
	SeekGE(key []byte) bool
	SeekLT(key []byte) bool
	Next() bool
	Prev() bool
	Key() []byte
	Value() []byte
	Error() error
}

var _ kvIter = (*pebble.Iterator)(nil)

// cachedRow is every stored key of one row (its tombstone marker and its cells, including
// dead ones: the read paths apply the deletion rules as they do on Pebble), in key order.
type cachedRow struct {
	cf     *cfInfo
	key    string
	prefix []byte // the row prefix of every key (token and escaped key): no MD5 to read it again
	del    int64  // the row's deletion time (its tombstone marker's), or noDeletion
	// live is a standard row's live columns, decoded, in comparator order (nil for a super
	// row), and liveList the same as a read's result: a read of the row from its first
	// column takes them as they are, shared and read-only.
	live       []Column
	liveList   []ColumnOrSuperColumn
	keys, vals [][]byte
	size       int // its memory, roughly
	payload    int // the bytes of its names (as stored) and values: what reading it all copies
	elem       *list.Element
	used       atomic.Bool // hit since it was filled or last given a second chance
	// named is the rows of another column family its column names name (RowsNamedBy), built
	// at the first call after the fill, and namedSize their memory, counted in size.
	named     atomic.Pointer[RowSet]
	namedSize int
}

// rowIter walks a cached row like a Pebble iterator; i is -1 before the first key and
// len(keys) after the last.
type rowIter struct {
	row *cachedRow
	i   int
}

func (it *rowIter) valid() bool { return it.i >= 0 && it.i < len(it.row.keys) }

func (it *rowIter) search(key []byte) int {
	return sort.Search(len(it.row.keys), func(i int) bool { return bytes.Compare(it.row.keys[i], key) >= 0 })
}

func (it *rowIter) SeekGE(key []byte) bool { it.i = it.search(key); return it.valid() }
func (it *rowIter) SeekLT(key []byte) bool { it.i = it.search(key) - 1; return it.valid() }

func (it *rowIter) Next() bool {
	if it.i < len(it.row.keys) {
		it.i++
	}
	return it.valid()
}

func (it *rowIter) Prev() bool {
	if it.i >= 0 {
		it.i--
	}
	return it.valid()
}

func (it *rowIter) Key() []byte   { return it.row.keys[it.i] }
func (it *rowIter) Value() []byte { return it.row.vals[it.i] }
func (it *rowIter) Error() error  { return nil }

type rowCacheKey struct {
	cf  *cfInfo
	key string
}

// RowCacheStats counts the row cache's work since the node opened.
type RowCacheStats struct {
	Hits, Misses, Fills, Drops int64
	Rows, Bytes                int
}

// rowCacheStripes spread the hit and miss counts over cache lines, so that cores counting at
// once rarely write the same line (a hit picks its stripe at random).
const rowCacheStripes = 32

type rowCacheStripe struct {
	hits, misses atomic.Int64
	_            [48]byte // a stripe per 64-byte line
}

// A row cache hit is the hot path of every read of a cached row, so it writes nothing shared:
// the index is a sync.Map per column family (cfInfo.cached), whose loads take no lock, the
// counts are striped, and recency is kept CLOCK-style (second chance): a hit marks its row
// used, and eviction, under the cache's own lock, walks from the least recently filled end and
// moves a row marked used to the front, clearing its mark, instead of evicting it. The order
// is LRU's as far as eviction can tell; hits no longer reorder a shared list.
type rowCache struct {
	stripes [rowCacheStripes]rowCacheStripe
	gen     atomic.Uint64 // read without the lock by every reader; moved under it

	mu sync.Mutex // below; taken by fills, drops and evictions, and by misses for wide
	// wide remembers rows a read found too wide to cache, with the cells it had seen: reads
	// asking for fewer than a quarter of that do not scan them again. Writes leave it be (a
	// row rarely shrinks a lot); it is forgotten whole when it grows past maxWide entries.
	wide         map[rowCacheKey]int
	lru          list.List // of *cachedRow, most recently filled or given a second chance first
	perCF        map[*cfInfo]int
	rows, bytes  int
	maxBytes     int
	fills, drops int64
}

func newRowCache(maxBytes int) *rowCache {
	return &rowCache{wide: map[rowCacheKey]int{}, perCF: map[*cfInfo]int{}, maxBytes: maxBytes}
}

func (c *rowCache) stripe() *rowCacheStripe { return &c.stripes[rand.Uint32()%rowCacheStripes] }

func (c *rowCache) generation() uint64 { return c.gen.Load() }

// maxWide bounds rowCache.wide.
const maxWide = 4096

// get returns the cached row, or nil and the cells a read found the row to hold at least
// when it was too wide to cache (0 when unknown). It counts misses; a read counts its hits
// with hit, once for all the rows it found: a page's multiget of 40 rows then writes the shared
// counts once, not 40 times (even striped, a count per row cost a multiget on two cores half
// of what a second core added).
func (c *rowCache) get(cf *cfInfo, key string) (*cachedRow, int) {
	row := c.peek(cf, key)
	if row == nil {
		c.stripe().misses.Add(1)
		c.mu.Lock()
		defer c.mu.Unlock()
		return nil, c.wide[rowCacheKey{cf, key}]
	}
	return row, 0
}

// peek returns the cached row (cf, key), marked used, or nil, counting nothing: for a caller
// that reads the row itself when it is not cached, whose read counts the miss.
func (c *rowCache) peek(cf *cfInfo, key string) *cachedRow {
	v, ok := cf.cached.Load(key)
	if !ok {
		return nil
	}
	row := v.(*cachedRow)
	if !row.used.Load() { // a hot row's mark is read, not written, by every hit
		row.used.Store(true)
	}
	return row
}

// hit counts n hits of one read.
func (c *rowCache) hit(n int) {
	if n > 0 {
		c.stripe().hits.Add(int64(n))
	}
}

// tooWide notes that a read saw at least cells cells in (cf, key) and gave up caching it.
func (c *rowCache) tooWide(cf *cfInfo, key string, cells int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.wide) >= maxWide {
		clear(c.wide)
	}
	c.wide[rowCacheKey{cf, key}] = cells
}

// put caches row unless a write has dropped anything since generation gen was noted, or the
// row is too big; it evicts the least recently used rows past the column family's RowsCached
// and the byte budget.
func (c *rowCache) put(row *cachedRow, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen.Load() != gen || row.size > c.maxBytes/4 {
		return
	}
	if _, loaded := row.cf.cached.LoadOrStore(row.key, row); loaded {
		return
	}
	row.elem = c.lru.PushFront(row)
	c.perCF[row.cf]++
	c.rows++
	c.bytes += row.size
	c.fills++
	c.evict(row.cf, func() bool { return c.perCF[row.cf] > row.cf.rowsCached })
	c.evict(nil, func() bool { return c.bytes > c.maxBytes })
}

// evict removes rows of cf (of any column family when cf is nil) from the least recently used
// end while over() holds. A row marked used since its last chance is moved to the front with
// its mark cleared instead, which the walk reaches again; at most c.rows chances are given per
// call, so it ends even while readers mark rows as it walks.
func (c *rowCache) evict(cf *cfInfo, over func() bool) {
	chances := c.rows
	for e := c.lru.Back(); e != nil && over(); {
		prev := e.Prev()
		if row := e.Value.(*cachedRow); cf == nil || row.cf == cf {
			if chances > 0 && row.used.Load() {
				row.used.Store(false)
				c.lru.MoveToFront(e)
				chances--
			} else {
				c.remove(row)
			}
		}
		if prev == nil {
			prev = c.lru.Back() // the front was reached: walk again, over the rows spared
		}
		e = prev
	}
}

func (c *rowCache) remove(row *cachedRow) {
	row.cf.cached.Delete(row.key)
	c.lru.Remove(row.elem)
	c.perCF[row.cf]--
	c.rows--
	c.bytes -= row.size
}

// drop forgets the given rows after a write to them.
func (c *rowCache) drop(touched []rowCacheKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen.Add(1)
	for _, k := range touched {
		if v, ok := k.cf.cached.Load(k.key); ok {
			c.remove(v.(*cachedRow))
			c.drops++
		}
	}
}

// attach keeps set with row, and counts its memory (size) as the row's while the row is
// cached. A row dropped meanwhile takes the set with it.
func (c *rowCache) attach(row *cachedRow, set *RowSet, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	row.named.Store(set)
	if v, ok := row.cf.cached.Load(row.key); !ok || v.(*cachedRow) != row {
		return
	}
	row.size += size - row.namedSize
	c.bytes += size - row.namedSize
	row.namedSize = size
	c.evict(nil, func() bool { return c.bytes > c.maxBytes })
}

func (c *rowCache) snapshot() RowCacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := RowCacheStats{Fills: c.fills, Drops: c.drops, Rows: c.rows, Bytes: c.bytes}
	for i := range c.stripes {
		s.Hits += c.stripes[i].hits.Load()
		s.Misses += c.stripes[i].misses.Load()
	}
	return s
}

// RowCacheStats reports the row cache's counters.
func (n *Node) RowCacheStats() RowCacheStats { return n.rows.snapshot() }

// decodeLive fills row.live from the row's cells: what every read of the row from its start
// would otherwise parse and decode again.
func (row *cachedRow) decodeLive() error {
	P := len(row.prefix) + 1 // prefix | kindColumns
	var names []byte
	type span struct{ n0, n1, i int }
	spans := make([]span, 0, len(row.keys))
	for i, k := range row.keys {
		if len(k) <= len(row.prefix) || k[len(row.prefix)] != kindColumns {
			continue // the row's tombstone marker
		}
		c, ok := parseCell(row.vals[i])
		if !ok {
			return fmt.Errorf("%w: short cell at %q", ErrCorrupt, k)
		}
		if !live(c, row.del) {
			continue
		}
		n0 := len(names)
		var err error
		if names, _, err = DecodeName(names, row.cf.cmp, k[P:], false); err != nil {
			return err
		}
		spans = append(spans, span{n0, len(names), i})
	}
	row.live = make([]Column, len(spans))
	row.liveList = make([]ColumnOrSuperColumn, len(spans))
	for j, sp := range spans {
		c, _ := parseCell(row.vals[sp.i])
		row.live[j] = Column{Name: names[sp.n0:sp.n1:sp.n1], Value: c.value, Timestamp: c.ts}
		row.liveList[j].Column = &row.live[j]
	}
	return nil
}

// head is the result of a read of the row's first n live columns: the cache's own list, capped
// so that an append by the caller copies it.
func (row *cachedRow) head(n int) []ColumnOrSuperColumn {
	n = min(n, len(row.liveList))
	return row.liveList[:n:n]
}

// cachedRowFor returns the row (cf, key) from the cache, or fills the cache from Pebble when
// the read may: want is the number of cells the read asks for from the row's start (0 when it
// reads anything else). It returns nil when the read should go to Pebble.
func (r *reader) cachedRowFor(cf *cfInfo, key string, want int) (*cachedRow, error) {
	row, wide := r.n.rows.get(cf, key)
	if row != nil {
		r.n.rows.hit(1)
		return row, nil
	}
	return r.fillRow(cf, key, want, wide)
}

// fillRow is cachedRowFor after a miss: wide is what the cache knew of the row's width.
func (r *reader) fillRow(cf *cfInfo, key string, want, wide int) (*cachedRow, error) {
	limit := max(want, populateMinCells/populateFactor) * populateFactor
	if want <= 0 || limit <= wide {
		return nil, nil
	}
	prefix := r.n.appendRowPrefix(r.row[:0], cf, key)
	r.row = prefix
	row := &cachedRow{cf: cf, key: key}
	var arena []byte
	type span struct{ k0, k1, v1 int }
	var spans []span
	it := r.pit
	for valid := it.SeekGE(prefix); valid; valid = it.Next() {
		k := it.Key()
		if !bytes.HasPrefix(k, prefix) {
			break
		}
		if len(spans) == limit {
			r.n.rows.tooWide(cf, key, limit)
			return nil, it.Error() // too wide to cache from this read
		}
		k0 := len(arena)
		arena = append(arena, k...)
		k1 := len(arena)
		arena = append(arena, it.Value()...)
		spans = append(spans, span{k0, k1, len(arena)})
	}
	if err := it.Error(); err != nil {
		return nil, err
	}
	row.keys, row.vals = make([][]byte, len(spans)), make([][]byte, len(spans))
	for i, s := range spans {
		row.keys[i] = arena[s.k0:s.k1:s.k1]
		row.vals[i] = arena[s.k1:s.v1:s.v1]
	}
	row.prefix = append([]byte(nil), prefix...)
	row.del = noDeletion
	if len(row.keys) > 0 && len(row.keys[0]) == len(prefix)+1 && row.keys[0][len(prefix)] == kindRowTombstone {
		c, ok := parseCell(row.vals[0])
		if !ok {
			return nil, fmt.Errorf("%w: short cell at %q", ErrCorrupt, row.keys[0])
		}
		row.del = c.ts
	}
	if !cf.super {
		if err := row.decodeLive(); err != nil {
			return nil, err
		}
	}
	row.size = len(arena) + len(spans)*rowCacheEntryOverhead
	row.payload = len(arena) - len(spans)*len(prefix)
	r.n.rows.put(row, r.gen)
	return row, nil
}
