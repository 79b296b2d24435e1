package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"twissandra/ports/oplog"

	"github.com/cockroachdb/pebble"
)

// writer encodes mutations into one pebble.Batch with reusable buffers.
type writer struct {
	n     *Node
	b     *pebble.Batch
	row   []byte
	key   []byte
	value []byte

	// With staged set, cells are collected in buf/ents and added to the
	// batch in key order at commit. Pebble inserts a batch into its
	// memtable skiplist entry by entry, reusing the previous insert
	// position, so sorted input is much cheaper for big fan-out batches
	// whose row keys (MD5 tokens) are otherwise random.
	staged bool
	buf    []byte
	ents   []stagedCell
	order  []sortKey // scratch of sortedOrder
	tmp    []sortKey

	// touched are the rows of row-cached column families this write changes: dropped from
	// the row cache once it is committed.
	touched []rowCacheKey
	// cf is the column family of the current row; firstRowDeletes the column families whose
	// first row deletion this write is.
	cf              *cfInfo
	firstRowDeletes []*cfInfo

	// ctx is the call's, for the node's clock; deletedAt is the value of its tombstones, the
	// receipt time of its deletes (see appendDeletionTime), made at the first one.
	ctx       context.Context
	deletedAt []byte

	// BatchMutate's place: rows applied, and the column family the last one named.
	rows     int
	lastName string
	lastCF   *cfInfo

	// The cells of the last mutation list applied, relative to its row: when the next row
	// of the batch brings the very same list (a fan-out writes one column to thousands of
	// rows from one shared list), its cells are replayed under the new row's prefix instead
	// of being validated and encoded again.
	shared sharedCells
}

// sharedCells are the cells one mutation list produced: each a key suffix (everything after
// the row prefix) and an encoded cell, cells[i][0]:cells[i][1] and cells[i][1]:cells[i][2] of buf.
type sharedCells struct {
	list  *Mutation // &muts[0] of the list, with its length and column family
	n     int
	cf    *cfInfo
	buf   []byte
	cells [][3]int
	rec   bool // recording the list now being applied
}

// applyRow applies one row's mutations of one column family (w.setRow done).
func (w *writer) applyRow(cf *cfInfo, muts []Mutation) error {
	if len(muts) == 0 {
		return nil
	}
	sh := &w.shared
	if sh.list == &muts[0] && sh.n == len(muts) && sh.cf == cf {
		for _, c := range sh.cells {
			w.key = append(append(w.key[:0], w.row...), sh.buf[c[0]:c[1]]...)
			if err := w.mergeCell(sh.buf[c[1]:c[2]]); err != nil {
				return err
			}
		}
		return nil
	}
	sh.list, sh.n, sh.cf, sh.buf, sh.cells, sh.rec = nil, 0, nil, sh.buf[:0], sh.cells[:0], true
	for mi := range muts {
		if err := w.mutation(cf, &muts[mi]); err != nil {
			sh.rec = false
			return err
		}
	}
	sh.list, sh.n, sh.cf, sh.rec = &muts[0], len(muts), cf, false
	return nil
}

// batchHeaderLen is the size of a Pebble batch's header (sequence number and count).
const batchHeaderLen = 12

// stagedCellGuess is the room a staged batch reserves per row: a Twissandra Timeline cell
// (a 66-byte key and a 46-byte cell) and a little more.
const stagedCellGuess = 128

// stageThreshold is the batch size from which staging and sorting pays.
const stageThreshold = 256

var writerPool = sync.Pool{New: func() any { return new(writer) }}

func (n *Node) newWriter(ctx context.Context) *writer {
	w := writerPool.Get().(*writer)
	w.n, w.b, w.ctx = n, n.db.NewBatch(), ctx
	return w
}

// tombstone is the value of the write's tombstones: the time the node received the delete
// (0.6's localDeletionTime), the same for every tombstone of one write.
func (w *writer) tombstone() []byte {
	if w.deletedAt == nil {
		w.deletedAt = appendDeletionTime(make([]byte, 0, deletionTimeLen), w.n.clock(w.ctx))
	}
	return w.deletedAt
}

func (w *writer) release() {
	if w.b != nil {
		w.b.Close()
	}
	w.n, w.b, w.ctx, w.deletedAt = nil, nil, nil, nil
	w.staged, w.buf, w.ents, w.order, w.tmp = false, w.buf[:0], w.ents[:0], w.order[:0], w.tmp[:0]
	w.shared = sharedCells{buf: w.shared.buf[:0], cells: w.shared.cells[:0]}
	clear(w.touched)
	w.touched = w.touched[:0]
	w.rows, w.lastName, w.lastCF = 0, "", nil
	clear(w.firstRowDeletes)
	w.cf, w.firstRowDeletes = nil, w.firstRowDeletes[:0]
	if cap(w.row)+cap(w.key)+cap(w.value)+cap(w.buf) < 4<<20 && cap(w.ents) < 1<<16 {
		writerPool.Put(w)
	}
}

func (w *writer) commit() error {
	if w.staged {
		buf := w.buf
		if w.b.Empty() {
			// Size the batch once: each record is its bytes plus a kind and two varint lengths.
			w.b.Close()
			w.b = w.n.db.NewBatchWithSize(batchHeaderLen + len(buf) + len(w.ents)*(1+2*binary.MaxVarintLen32))
		}
		for _, o := range w.sortedOrder() {
			e := w.ents[o.i]
			if err := w.b.Merge(buf[e.k0:e.k1], buf[e.k1:e.v1], nil); err != nil {
				return err
			}
		}
	}
	for _, cf := range w.firstRowDeletes {
		// The first row deletion of a column family: its marker goes in the same batch, and
		// the flag is raised before the batch commits, so a reader that finds it down opened
		// its snapshot before the tombstone existed.
		if err := w.b.Set([]byte(metaRowDelPrefix+string(cf.prefix)), nil, nil); err != nil {
			return err
		}
		cf.rowDeletes.Store(true)
	}
	w.n.gate.RLock()
	err := w.b.Commit(w.n.writeOpts)
	w.n.gate.RUnlock()
	w.n.committed()
	if len(w.touched) > 0 {
		w.n.rows.drop(w.touched) // after the commit: see rowcache.go
	}
	return err
}

func (w *writer) empty() bool { return w.b.Empty() && len(w.ents) == 0 }

func (w *writer) merge(value []byte, ts int64, tombstone bool) error {
	w.value = appendCell(w.value[:0], value, ts, tombstone)
	if sh := &w.shared; sh.rec {
		s0 := len(sh.buf)
		sh.buf = append(sh.buf, w.key[len(w.row):]...)
		s1 := len(sh.buf)
		sh.buf = append(sh.buf, w.value...)
		sh.cells = append(sh.cells, [3]int{s0, s1, len(sh.buf)})
	}
	return w.mergeCell(w.value)
}

// mergeCell adds the encoded cell under w.key, to the stage or to the batch.
func (w *writer) mergeCell(cell []byte) error {
	if w.staged {
		k0 := len(w.buf)
		w.buf = append(w.buf, w.key...)
		k1 := len(w.buf)
		w.buf = append(w.buf, cell...)
		w.ents = append(w.ents, stagedCell{k0, k1, len(w.buf)})
		return nil
	}
	return w.b.Merge(w.key, cell, nil)
}

func (w *writer) setRow(cf *cfInfo, key string) {
	w.cf = cf
	w.row = w.n.appendRowPrefix(w.row[:0], cf, key)
	if cf.rowsCached > 0 {
		w.touched = append(w.touched, rowCacheKey{cf, key})
	}
}

// columnKey sets w.key to the key of a column of the current row: a
// standard column (sc empty) or a subcolumn of sc.
func (w *writer) columnKey(cf *cfInfo, sc, name []byte) {
	k := append(append(w.key[:0], w.row...), kindColumns)
	if len(sc) > 0 {
		k = AppendName(k, cf.cmp, sc, true)
		k = append(k, kindSubcolumn)
		k = AppendName(k, cf.sub, name, false)
	} else {
		k = AppendName(k, cf.cmp, name, false)
	}
	w.key = k
}

func (w *writer) putColumn(cf *cfInfo, sc []byte, c *Column) error {
	w.columnKey(cf, sc, c.Name)
	return w.merge(c.Value, c.Timestamp, false)
}

func (w *writer) deleteColumn(cf *cfInfo, sc, name []byte, ts int64) error {
	w.columnKey(cf, sc, name)
	return w.merge(w.tombstone(), ts, true)
}

func (w *writer) deleteSuper(cf *cfInfo, sc []byte, ts int64) error {
	k := append(append(w.key[:0], w.row...), kindColumns)
	k = AppendName(k, cf.cmp, sc, true)
	w.key = append(k, kindSuperTombstone)
	return w.merge(w.tombstone(), ts, true)
}

func (w *writer) deleteRow(ts int64) error {
	if !w.cf.rowDeletes.Load() && !slices.Contains(w.firstRowDeletes, w.cf) {
		w.firstRowDeletes = append(w.firstRowDeletes, w.cf)
	}
	w.key = append(append(w.key[:0], w.row...), kindRowTombstone)
	return w.merge(w.tombstone(), ts, true)
}

func (n *Node) prepareWrite(ctx context.Context, keyspace, cfName, key string, cl ConsistencyLevel) (*cfInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := validateConsistency(cl, false); err != nil {
		return nil, err
	}
	cf, err := n.columnFamily(keyspace, cfName)
	if err != nil {
		return nil, err
	}
	return cf, validateKey(key)
}

// validateInsertPath checks the path of a column to be written: 0.6's validateColumnPath,
// and then a column inside the super column of a super CF, which 0.6 did not check (its
// insert then failed an assertion in ColumnFamily.addColumn): the message is the engine's.
func validateInsertPath(cf *cfInfo, p *ColumnPath) error {
	if err := validateColumnPath(cf, p); err != nil {
		return err
	}
	if cf.super && len(p.Column) == 0 {
		return invalidf("insert into super CF %s requires both super_column and column", cf.name)
	}
	return nil
}

// Insert writes one column (a subcolumn when path.SuperColumn is set).
// Writes are blind: the stored version and this one are reconciled by
// timestamp whenever the cell is read or compacted.
func (n *Node) Insert(ctx context.Context, keyspace, key string, path ColumnPath, value []byte, timestamp int64, cl ConsistencyLevel) (err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() { n.recordPath(ctx, start, cl, "insert", keyspace, key, path, appliedWord(true, err)) }()
	}
	cf, err := n.prepareWrite(ctx, keyspace, path.ColumnFamily, key, cl)
	if err != nil {
		return err
	}
	if err := validateInsertPath(cf, &path); err != nil {
		return err
	}
	w := n.newWriter(ctx)
	defer w.release()
	w.setRow(cf, key)
	c := Column{Name: path.Column, Value: value, Timestamp: timestamp}
	if err := w.putColumn(cf, path.SuperColumn, &c); err != nil {
		return err
	}
	return w.commit()
}

// validateRemovePath checks the path of a remove as 0.6's
// ThriftValidation.validateColumnPathOrParent does. A column without its super column in a super
// CF passed 0.6's checks and then failed inside (a column where a super column belongs): the
// engine refuses it, with a message of its own.
func validateRemovePath(cf *cfInfo, p *ColumnPath) error {
	hasSC, hasCol := len(p.SuperColumn) > 0, len(p.Column) > 0
	if !cf.super && hasSC {
		return invalidf("supercolumn may not be specified for standard CF %s", cf.name)
	}
	if hasCol {
		if err := validateColumns(cf, p.SuperColumn, hasSC, p.Column); err != nil {
			return err
		}
	}
	if hasSC {
		if err := validateName(cf.cmp, p.SuperColumn); err != nil {
			return err
		}
	}
	if cf.super && hasCol && !hasSC {
		return invalidf("column parameter requires super_column in super CF %s", cf.name)
	}
	return nil
}

// Remove writes a tombstone at timestamp: for the whole row (path has only
// ColumnFamily), a whole super column (only SuperColumn set), or one
// column. A tombstone hides what it covers with a timestamp <= its own,
// including writes that arrive later with older timestamps.
func (n *Node) Remove(ctx context.Context, keyspace, key string, path ColumnPath, timestamp int64, cl ConsistencyLevel) (err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() { n.recordPath(ctx, start, cl, "remove", keyspace, key, path, appliedWord(true, err)) }()
	}
	cf, err := n.prepareWrite(ctx, keyspace, path.ColumnFamily, key, cl)
	if err != nil {
		return err
	}
	if err := validateRemovePath(cf, &path); err != nil {
		return err
	}
	w := n.newWriter(ctx)
	defer w.release()
	w.setRow(cf, key)
	switch {
	case len(path.Column) > 0:
		err = w.deleteColumn(cf, path.SuperColumn, path.Column, timestamp)
	case len(path.SuperColumn) > 0:
		err = w.deleteSuper(cf, path.SuperColumn, timestamp)
	default:
		err = w.deleteRow(timestamp)
	}
	if err != nil {
		return err
	}
	return w.commit()
}

// BatchMutate applies mutations: row key -> column family -> mutations.
// Everything is validated first; if anything is invalid nothing is
// applied. The whole batch is then committed as one Pebble batch, which
// is atomic and becomes visible at once; Cassandra 0.6 promised less
// (atomicity per row of one column family, no isolation across rows), so
// callers should rely only on that.
func (n *Node) BatchMutate(ctx context.Context, keyspace string, mutations map[string]map[string][]Mutation, cl ConsistencyLevel) (err error) {
	if oplog.Enabled(ctx) {
		start := time.Now()
		defer func() { n.recordBatch(ctx, start, cl, keyspace, mutations, err) }()
	}
	if err := n.prepareBatch(ctx, keyspace, cl); err != nil {
		return err
	}
	w := n.newWriter(ctx)
	defer w.release()
	if len(mutations) >= parallelThreshold {
		if err := n.stageInParallel(ctx, w, keyspace, mutations); err != nil {
			return err
		}
	} else {
		w.stage(len(mutations))
		for key, byCF := range mutations {
			if err := w.applyKey(ctx, keyspace, key, byCF); err != nil {
				return err
			}
		}
	}
	if w.empty() {
		return nil
	}
	return w.commit()
}

// prepareBatch checks what every batch checks before its rows: the context, the consistency
// level and the keyspace.
func (n *Node) prepareBatch(ctx context.Context, keyspace string, cl ConsistencyLevel) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := validateConsistency(cl, false); err != nil {
		return err
	}
	if _, ok := n.cfs[keyspace]; !ok {
		return invalidf("Keyspace %s does not exist in this schema.", keyspace)
	}
	return nil
}

// stage turns staging on for a batch of rows rows, when it is big enough to pay.
func (w *writer) stage(rows int) {
	if w.staged = rows >= stageThreshold; w.staged {
		// Room for one cell of about this size per row, so a fan-out rarely regrows the stage.
		w.buf = slices.Grow(w.buf[:0], rows*stagedCellGuess)
		w.ents = slices.Grow(w.ents[:0], rows)
	}
}

// applyKey validates and encodes one row's mutations of a BatchMutate.
func (w *writer) applyKey(ctx context.Context, keyspace, key string, byCF map[string][]Mutation) error {
	if w.rows++; w.rows%1024 == 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if err := validateKey(key); err != nil {
		return err
	}
	for cfName, muts := range byCF {
		if cfName != w.lastName || w.lastCF == nil { // rows of a fan-out name one column family
			cf, err := w.n.columnFamily(keyspace, cfName)
			if err != nil {
				return err
			}
			w.lastName, w.lastCF = cfName, cf
		}
		w.setRow(w.lastCF, key)
		if err := w.applyRow(w.lastCF, muts); err != nil {
			return err
		}
	}
	return nil
}

// parallelThreshold is the batch size from which BatchMutate encodes its rows on two
// goroutines: a fan-out to thousands of followers, whose encoding (validation, MD5 tokens,
// keys) is a fifth of its cost.
const parallelThreshold = 4096

// stageInParallel stages the rows of mutations into w, the second half encoded by a helper
// writer on another goroutine and appended to w's stage. The Pebble batch is still w's alone.
func (n *Node) stageInParallel(ctx context.Context, w *writer, keyspace string, mutations map[string]map[string][]Mutation) error {
	type row struct {
		key  string
		byCF map[string][]Mutation
	}
	rows := make([]row, 0, len(mutations))
	for key, byCF := range mutations {
		rows = append(rows, row{key, byCF})
	}
	half := len(rows) / 2
	helper := writerPool.Get().(*writer)
	helper.n = n // no batch: a staged writer only fills its stage
	helper.ctx, helper.deletedAt = ctx, w.tombstone()
	defer helper.release()
	helper.stage(len(rows) - half)
	done := make(chan error, 1)
	go func() {
		for _, r := range rows[half:] {
			if err := helper.applyKey(ctx, keyspace, r.key, r.byCF); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	w.stage(len(rows))
	var err error
	for _, r := range rows[:half] {
		if err = w.applyKey(ctx, keyspace, r.key, r.byCF); err != nil {
			break
		}
	}
	if herr := <-done; err == nil {
		err = herr
	}
	if err != nil {
		return err
	}
	base := len(w.buf)
	w.buf = append(w.buf, helper.buf...)
	for _, e := range helper.ents {
		w.ents = append(w.ents, stagedCell{e.k0 + base, e.k1 + base, e.v1 + base})
	}
	w.touched = append(w.touched, helper.touched...)
	for _, cf := range helper.firstRowDeletes {
		if !slices.Contains(w.firstRowDeletes, cf) {
			w.firstRowDeletes = append(w.firstRowDeletes, cf)
		}
	}
	return nil
}

// validateMutation checks one mutation of a batch as 0.6's ThriftValidation.validateMutation does.
func validateMutation(cf *cfInfo, m *Mutation) error {
	switch {
	case m.ColumnOrSuperColumn != nil && m.Deletion != nil:
		return invalidf("Mutation may have either a ColumnOrSuperColumn or a Deletion, but not both")
	case m.ColumnOrSuperColumn != nil:
		return validateColumnOrSuperColumn(cf, m.ColumnOrSuperColumn)
	case m.Deletion != nil:
		return validateDeletion(cf, m.Deletion)
	}
	return invalidf("Mutation must have one ColumnOrSuperColumn or one Deletion")
}

// validateColumnOrSuperColumn checks an insert of a batch as 0.6's
// ThriftValidation.validateColumnOrSuperColumn does: the column's path, then the path of each
// subcolumn of the super column (a super column with none is not checked, and writes nothing).
// Both may be given: 0.6 checks both and writes the column (see writer.mutation).
func validateColumnOrSuperColumn(cf *cfInfo, cs *ColumnOrSuperColumn) error {
	if cs.Column != nil {
		if err := validatePath(cf, nil, cs.Column.Name, false, true); err != nil {
			return err
		}
	}
	if sc := cs.SuperColumn; sc != nil {
		for ci := range sc.Columns {
			if err := validatePath(cf, sc.Name, sc.Columns[ci].Name, true, true); err != nil {
				return err
			}
		}
	}
	if cs.Column == nil && cs.SuperColumn == nil {
		return invalidf("ColumnOrSuperColumn must have one or both of Column or SuperColumn")
	}
	return nil
}

// validateDeletion checks a deletion of a batch as 0.6.6's ThriftValidation.validateDeletion
// does (0.6.3 on: before, a Deletion had to name a super column or a predicate, and a super
// column in a standard CF passed). A SliceRange naming a super column of a standard CF made
// 0.6 throw a NullPointerException; the engine answers that SliceRanges are not supported.
func validateDeletion(cf *cfInfo, d *Deletion) error {
	hasSC := len(d.SuperColumn) > 0
	if p := d.Predicate; p != nil {
		if p.ColumnNames == nil && p.SliceRange == nil {
			return invalidf("A SlicePredicate must be given a list of Columns, a SliceRange, or both")
		}
		if p.SliceRange != nil && (cf.super || !hasSC) {
			c := cf.cmp
			if hasSC {
				c = cf.sub
			}
			if err := validateRange(c, p.SliceRange); err != nil {
				return err
			}
		}
		if p.ColumnNames != nil {
			if err := validateColumns(cf, d.SuperColumn, hasSC, p.ColumnNames...); err != nil {
				return err
			}
		}
		if p.SliceRange != nil {
			return invalidf("Deletion does not yet support SliceRange predicates.")
		}
	}
	if !cf.super && hasSC {
		return invalidf("deletion of super_column is not possible on a standard ColumnFamily (KeySpace=%s ColumnFamily=%s Deletion=%s)", cf.keyspace, cf.name, thriftDeletion(d))
	}
	if hasSC {
		// 0.6 took any name here; the engine's keys need one its comparator can encode.
		return validateName(cf.cmp, d.SuperColumn)
	}
	return nil
}

// thriftDeletion writes a Deletion without a predicate as the toString of 0.6's generated
// Thrift class does: its super column's first 128 bytes in hex, upper case.
func thriftDeletion(d *Deletion) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Deletion(timestamp:%d", d.Timestamp)
	if d.SuperColumn != nil {
		sb.WriteString(", super_column:")
		for i, b := range d.SuperColumn[:min(len(d.SuperColumn), 128)] {
			if i > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprintf(&sb, "%02X", b)
		}
		if len(d.SuperColumn) > 128 {
			sb.WriteString(" ...")
		}
	}
	sb.WriteByte(')')
	return sb.String()
}

// mutation validates one mutation and writes it. Given both a column and a super column, it
// writes the column alone, as 0.6's RowMutation.getRowMutationFromMutations does.
func (w *writer) mutation(cf *cfInfo, m *Mutation) error {
	if err := validateMutation(cf, m); err != nil {
		return err
	}
	if cs := m.ColumnOrSuperColumn; cs != nil {
		if cs.Column != nil {
			return w.putColumn(cf, nil, cs.Column)
		}
		sc := cs.SuperColumn
		for ci := range sc.Columns {
			if err := w.putColumn(cf, sc.Name, &sc.Columns[ci]); err != nil {
				return err
			}
		}
		return nil
	}
	d := m.Deletion
	if d.Predicate == nil {
		if len(d.SuperColumn) > 0 {
			return w.deleteSuper(cf, d.SuperColumn, d.Timestamp)
		}
		return w.deleteRow(d.Timestamp)
	}
	for _, name := range d.Predicate.ColumnNames {
		var err error
		if cf.super && len(d.SuperColumn) == 0 {
			err = w.deleteSuper(cf, name, d.Timestamp)
		} else {
			err = w.deleteColumn(cf, d.SuperColumn, name, d.Timestamp)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// InsertIfAbsent writes col under parent only if no live column of that
// name exists, atomically: of many concurrent calls for one name exactly
// one applies. It returns applied=true when the column was written;
// otherwise the live column found (existing), or existing=nil when no live
// column exists but the write would itself be hidden by a newer tombstone
// (a column, super column or row deletion with timestamp >= col.Timestamp).
//
// Cassandra 0.6 had no such operation: its writes were blind and a
// read-then-insert raced, which is why Twissandra could not guarantee
// unique usernames. Conditional writes arrived only with lightweight
// transactions (Cassandra 2.0, INSERT ... IF NOT EXISTS, built on Paxos).
// Here a striped per-row lock serialises the conditional operations of one
// row. Plain Insert, Remove and BatchMutate do not take the lock: they are
// blind writes that can never be lost, only reconciled by timestamp, so a
// plain write racing with InsertIfAbsent is resolved by timestamp exactly
// as in Cassandra.
func (n *Node) InsertIfAbsent(ctx context.Context, keyspace, key string, parent ColumnParent, col Column, cl ConsistencyLevel) (applied bool, existing *Column, err error) {
	return n.CompareAndSet(ctx, keyspace, key, parent, nil, col, cl)
}

// CompareAndSet writes col under parent only if the live column of that
// name currently has the value expected (expected == nil: only if there is
// no live column, as InsertIfAbsent). It returns applied and, when not
// applied, the live column found (nil if none). Like InsertIfAbsent it is an
// extension Cassandra 0.6 did not have.
func (n *Node) CompareAndSet(ctx context.Context, keyspace, key string, parent ColumnParent, expected []byte, col Column, cl ConsistencyLevel) (ok bool, existing *Column, err error) {
	if oplog.Enabled(ctx) {
		op := "compare_and_set (an extension 0.6 lacked)"
		if expected == nil {
			op = "insert_if_absent (an extension 0.6 lacked)"
		}
		start := time.Now()
		defer func() {
			n.recordPath(ctx, start, cl, op, keyspace, key, ColumnPath{ColumnFamily: parent.ColumnFamily, SuperColumn: parent.SuperColumn, Column: col.Name}, appliedWord(ok, err))
		}()
	}
	cf, err := n.prepareWrite(ctx, keyspace, parent.ColumnFamily, key, cl)
	if err != nil {
		return false, nil, err
	}
	path := ColumnPath{ColumnFamily: parent.ColumnFamily, SuperColumn: parent.SuperColumn, Column: col.Name}
	if err := validateInsertPath(cf, &path); err != nil {
		return false, nil, err
	}
	mu := n.rowLock(cf, key)
	mu.Lock()
	defer mu.Unlock()

	cur, del, err := n.currentColumn(cf, key, parent.SuperColumn, col.Name)
	if err != nil {
		return false, nil, err
	}
	switch {
	case cur != nil && (expected == nil || string(cur.Value) != string(expected)):
		return false, cur, nil
	case cur == nil && expected != nil:
		return false, nil, nil
	case col.Timestamp <= del:
		// A tombstone at or after the new timestamp would hide it.
		return false, cur, nil
	case cur != nil && !cellWins(appendCell(nil, col.Value, col.Timestamp, false), appendCell(nil, cur.Value, cur.Timestamp, false)):
		// The swap would lose to the current version by timestamp.
		return false, cur, nil
	}
	w := n.newWriter(ctx)
	defer w.release()
	w.setRow(cf, key)
	if err := w.putColumn(cf, parent.SuperColumn, &col); err != nil {
		return false, nil, err
	}
	if err := w.commit(); err != nil {
		return false, nil, err
	}
	return true, nil, nil
}

// currentColumn reads the live value of one column and the newest
// deletion time that applies to it (row, super column or column
// tombstone): a new write is visible only with a later timestamp.
func (n *Node) currentColumn(cf *cfInfo, key string, sc, name []byte) (*Column, int64, error) {
	r, err := n.newReader()
	if err != nil {
		return nil, 0, err
	}
	col, del, err := r.currentColumn(cf, key, sc, name)
	return col, del, errors.Join(err, r.close())
}

func (r *reader) currentColumn(cf *cfInfo, key string, sc, name []byte) (*Column, int64, error) {
	del, err := r.rowDeletion(cf, key)
	if err != nil {
		return nil, 0, err
	}
	cmp := cf.cmp
	P := append(append(r.p[:0], r.row...), kindColumns)
	if len(sc) > 0 {
		if del, err = r.superPrefix(cf, sc, del); err != nil {
			return nil, 0, err
		}
		cmp = cf.sub
		P = append(append(P[:0], r.grp...), kindSubcolumn)
	}
	r.p = P
	r.k = AppendName(append(r.k[:0], P...), cmp, name, false)
	cell, ok, err := r.cellAt(r.k)
	if err != nil || !ok {
		return nil, del, err
	}
	if cell.tombstone {
		return nil, max(del, cell.ts), nil
	}
	if !live(cell, del) {
		return nil, del, nil
	}
	c := &Column{Name: append([]byte(nil), name...), Value: append([]byte(nil), cell.value...), Timestamp: cell.ts}
	return c, del, nil
}
