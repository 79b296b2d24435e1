package teach

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// The primer's rows and the simulated replicas of the lab: a column written by hand into a
// standard row and into seed 004's AddressBook, and a deletion that one of two replicas missed.

// primerKey is the session's primer row key: apart from the comparator rows, so that a column
// written in the primer never shows in the comparators' table.
func primerKey(session string) (string, error) {
	key, err := labKey(session)
	return key + primerSuffix, err
}

const primerSuffix = "/primer"

// Put implements teaching.ColumnLab.
func (l *Lab) Put(ctx context.Context, session string, p teaching.LabPut) (teaching.LabStored, error) {
	key, err := primerKey(session)
	if err != nil {
		return teaching.LabStored{}, err
	}
	if err := checkPut(p); err != nil {
		return teaching.LabStored{}, err
	}
	cf := teaching.PrimerStandard
	if p.SuperColumn != "" {
		cf = teaching.PrimerSuper
	}
	var out teaching.LabStored
	err = l.with(1, func(n *engine.Node) error {
		parent := engine.ColumnParent{ColumnFamily: cf}
		held, err := n.GetCount(ctx, labKeyspace, key, parent, engine.ONE)
		if err == nil && p.SuperColumn != "" && held < LabMaxNames {
			parent.SuperColumn = []byte(p.SuperColumn)
			held, err = n.GetCount(ctx, labKeyspace, key, parent, engine.ONE)
		}
		if err != nil {
			return widerow.Wrap("lab", err)
		}
		if held >= LabMaxNames {
			return domain.Invalid("row", "your primer row holds %d columns (or super columns) here and takes at most %d: clear it first", held, LabMaxNames)
		}
		ts := l.now()
		path := engine.ColumnPath{ColumnFamily: cf, Column: []byte(p.Name)}
		if p.SuperColumn != "" {
			path.SuperColumn = []byte(p.SuperColumn)
		}
		if err := n.Insert(ctx, labKeyspace, key, path, []byte(p.Value), ts, engine.ONE); err != nil {
			if errors.Is(err, engine.ErrInvalidRequest) {
				return domain.Invalid("", "%s", strings.TrimPrefix(err.Error(), "InvalidRequestException: "))
			}
			return widerow.Wrap("lab", err)
		}
		if out, err = l.primerRow(ctx, n, key, cf); err != nil {
			return err
		}
		sc := ""
		if p.SuperColumn != "" {
			sc = ", super_column=" + strconv.Quote(p.SuperColumn)
		}
		out.Call = fmt.Sprintf("insert(keyspace='%s', key='%s', column_path=ColumnPath(column_family='%s'%s, column=%s), value=%s, timestamp=%d, consistency_level=ONE)",
			labKeyspace, key, cf, sc, strconv.Quote(p.Name), strconv.Quote(p.Value), ts)
		return nil
	})
	return out, err
}

// checkPut refuses a put Put would refuse.
func checkPut(p teaching.LabPut) error {
	for _, f := range []struct{ field, v string }{{"super column", p.SuperColumn}, {"name", p.Name}, {"value", p.Value}} {
		if len(f.v) > LabMaxName {
			return domain.Invalid(f.field, "must be at most %d bytes", LabMaxName)
		}
	}
	if p.Name == "" {
		return domain.Invalid("name", "a column needs a name")
	}
	return nil
}

// TryPuts implements teaching.ColumnLab: on a primer row of its own (the session's, with a
// run's number, as LastWriteWins's rows), one batch_mutate of the puts, one get_slice of the
// row, one remove of the row.
func (l *Lab) TryPuts(ctx context.Context, session string, puts []teaching.LabPut) (teaching.LabStored, error) {
	base, err := primerKey(session)
	if err != nil {
		return teaching.LabStored{}, err
	}
	if len(puts) == 0 || len(puts) > teaching.LabMaxPuts {
		return teaching.LabStored{}, domain.Invalid("puts", "give 1 to %d columns", teaching.LabMaxPuts)
	}
	super := puts[0].SuperColumn != ""
	for _, p := range puts {
		if err := checkPut(p); err != nil {
			return teaching.LabStored{}, err
		}
		if (p.SuperColumn != "") != super {
			return teaching.LabStored{}, domain.Invalid("super column", "the columns go into one row: all in super columns, or none")
		}
	}
	cf := teaching.PrimerStandard
	if super {
		cf = teaching.PrimerSuper
	}
	key := fmt.Sprintf("%s/try-%d", base, l.runs.Add(1))
	var out teaching.LabStored
	err = l.with(len(puts)+1, func(n *engine.Node) error {
		muts := make([]engine.Mutation, len(puts))
		for i, p := range puts {
			c := engine.Column{Name: []byte(p.Name), Value: []byte(p.Value), Timestamp: l.now()}
			muts[i].ColumnOrSuperColumn = &engine.ColumnOrSuperColumn{Column: &c}
			if super {
				muts[i].ColumnOrSuperColumn = &engine.ColumnOrSuperColumn{SuperColumn: &engine.SuperColumn{Name: []byte(p.SuperColumn), Columns: []engine.Column{c}}}
			}
		}
		if err := n.BatchMutate(ctx, labKeyspace, map[string]map[string][]engine.Mutation{key: {cf: muts}}, engine.ONE); err != nil {
			if errors.Is(err, engine.ErrInvalidRequest) {
				return domain.Invalid("", "%s", strings.TrimPrefix(err.Error(), "InvalidRequestException: "))
			}
			return widerow.Wrap("lab", err)
		}
		var err error
		if out, err = l.primerRow(ctx, n, key, cf); err != nil {
			return err
		}
		out.Call = fmt.Sprintf("batch_mutate(keyspace='%s', mutation_map={'%s': {'%s': [%d mutations]}}, consistency_level=ONE)", labKeyspace, key, cf, len(muts))
		return widerow.Wrap("lab", n.Remove(context.WithoutCancel(ctx), labKeyspace, key, engine.ColumnPath{ColumnFamily: cf}, l.now(), engine.ONE))
	})
	return out, err
}

// Primer implements teaching.ColumnLab.
func (l *Lab) Primer(ctx context.Context, session string) ([]teaching.LabStored, error) {
	key, err := primerKey(session)
	if err != nil {
		return nil, err
	}
	var out []teaching.LabStored
	err = l.with(0, func(n *engine.Node) error {
		for _, cf := range []string{teaching.PrimerStandard, teaching.PrimerSuper} {
			row, err := l.primerRow(ctx, n, key, cf)
			if err != nil {
				return err
			}
			out = append(out, row)
		}
		return nil
	})
	return out, err
}

// primerRow reads a primer row whole, as get_slice returns it.
func (l *Lab) primerRow(ctx context.Context, n *engine.Node, key, cfName string) (teaching.LabStored, error) {
	def, err := (&Inspector{node: n}).cf(labKeyspace, cfName)
	if err != nil {
		return teaching.LabStored{}, err
	}
	cols, err := n.GetSlice(ctx, labKeyspace, key, engine.ColumnParent{ColumnFamily: cfName}, all(LabMaxRow), engine.ONE)
	if err != nil {
		return teaching.LabStored{}, widerow.Wrap("lab", err)
	}
	out := teaching.LabStored{Keyspace: labKeyspace, ColumnFamily: cfName, Super: def.Super, Comparator: def.CompareWith.String(), Key: key, Columns: wideColumns(def, cols)}
	if out.Super {
		out.SubComparator = def.CompareSubcolumnsWith.String()
	}
	return out, nil
}

// replicaColumn is the column the simulated replicas hold.
const replicaColumn = "phone"

// maxReplicaGrace bounds GCGrace: ten years.
const maxReplicaGrace = 10 * 365 * 86400

// Replicas implements teaching.ColumnLab. Two rows of Scratch.Bytes stand for two replicas of
// one row, whose clock is the scenario's: the delete reaches A at its time (the tombstone's
// localDeletionTime, engine.ReceivedAt), and the lab's compaction is the engine's CompactRow
// with gc_before = Compacted minus GCGrace, in seconds.
func (l *Lab) Replicas(ctx context.Context, session string, s teaching.ReplicaScenario) (teaching.ReplicaRun, error) {
	key, err := labKey(session)
	if err != nil {
		return teaching.ReplicaRun{}, err
	}
	if err := checkReplicaScenario(s); err != nil {
		return teaching.ReplicaRun{}, err
	}
	run := fmt.Sprintf("%s/replicas-%d", key, l.runs.Add(1))
	res := teaching.ReplicaRun{Keys: [2]string{run + "/A", run + "/B"}, Column: replicaColumn}
	err = l.with(8, func(n *engine.Node) error {
		r := replicaPlay{n: n, ctx: ctx, run: &res}
		r.step(s.Written, "write", func() error {
			return errors.Join(r.insert(0, s.Value, s.Written), r.insert(1, s.Value, s.Written))
		})
		r.step(s.Deleted, "delete", func() error { return r.remove(0, s.Deleted, time.UnixMicro(s.Deleted)) })
		repair := func() {
			r.step(s.Repaired, "repair", func() error { return r.exchange(true) })
		}
		if s.Repaired != 0 && s.Repaired <= s.Compacted {
			repair()
		}
		gcBefore := s.Compacted/1_000_000 - s.GCGrace
		r.step(s.Compacted, "compaction", func() error {
			for i := range 2 {
				got, err := n.CompactRow(ctx, labKeyspace, replicaCF, res.Keys[i], gcBefore)
				if err != nil {
					return widerow.Wrap("lab", err)
				}
				r.dropped[i] = got.Purged
				r.calls = append(r.calls, fmt.Sprintf("compaction of %s on replica %s: gc_before = %d - %d = %d s; %d %s dropped",
					replicaCF, replicaName(i), s.Compacted/1_000_000, s.GCGrace, gcBefore, got.Purged, plural(got.Purged, "tombstone", "tombstones")))
			}
			return nil
		})
		if s.Repaired > s.Compacted {
			repair()
		}
		r.step(s.Read, "read", func() error {
			cells, err := r.cells()
			if err != nil {
				return err
			}
			for i := range 2 {
				r.calls = append(r.calls, fmt.Sprintf("get(key='%s', column_path=ColumnPath('%s', column='%s'), consistency_level=ALL): replica %s answers %s",
					res.Keys[i], replicaCF, replicaColumn, replicaName(i), describeCell(cells[i])))
			}
			w := newest(cells[0], cells[1])
			if w != nil && !w.Tombstone {
				res.Found, res.Value, res.TS = true, string(w.Value), w.Timestamp
			}
			// The read repair: the newest version goes to the replica that lacks it.
			return r.exchange(false)
		})
		return r.err
	})
	return res, err
}

const replicaCF = "Bytes"

func replicaName(i int) string { return string(rune('A' + i)) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func checkReplicaScenario(s teaching.ReplicaScenario) error {
	switch {
	case len(s.Value) > LabMaxName:
		return domain.Invalid("value", "must be at most %d bytes", LabMaxName)
	case s.Written < 0:
		return domain.Invalid("write", "its time must not be negative")
	case s.Deleted <= s.Written:
		return domain.Invalid("delete", "must come after the write")
	case s.Compacted < s.Deleted:
		return domain.Invalid("compaction", "must not come before the delete")
	case s.Read <= s.Compacted:
		return domain.Invalid("read", "must come after the compaction")
	case s.Repaired != 0 && (s.Repaired <= s.Deleted || s.Repaired >= s.Read):
		return domain.Invalid("repair", "must come after the delete and before the read")
	case s.GCGrace < 0 || s.GCGrace > maxReplicaGrace:
		return domain.Invalid("gc_grace", "must be from 0 to %d seconds", maxReplicaGrace)
	}
	return nil
}

// replicaPlay runs the steps of a Replicas run, stopping at the first error.
type replicaPlay struct {
	n       *engine.Node
	ctx     context.Context
	run     *teaching.ReplicaRun
	calls   []string
	dropped [2]int
	err     error
}

func (r *replicaPlay) step(at int64, what string, fn func() error) {
	if r.err != nil {
		return
	}
	r.calls, r.dropped = nil, [2]int{}
	if r.err = fn(); r.err != nil {
		return
	}
	st := teaching.ReplicaStep{At: at, What: what, Calls: r.calls, Dropped: r.dropped}
	in := Inspector{node: r.n}
	for i, dst := range []*[]teaching.WideColumn{&st.A, &st.B} {
		cols, err := in.StoredRow(r.ctx, labKeyspace, replicaCF, r.run.Keys[i], 10)
		if err != nil {
			r.err = err
			return
		}
		*dst = cols
	}
	r.run.Steps = append(r.run.Steps, st)
}

func (r *replicaPlay) path() engine.ColumnPath {
	return engine.ColumnPath{ColumnFamily: replicaCF, Column: []byte(replicaColumn)}
}

func (r *replicaPlay) insert(i int, value string, ts int64) error {
	r.calls = append(r.calls, fmt.Sprintf("insert(key='%s', column_path=ColumnPath('%s', column='%s'), value=%s, timestamp=%d) on replica %s",
		r.run.Keys[i], replicaCF, replicaColumn, strconv.Quote(value), ts, replicaName(i)))
	return widerow.Wrap("lab", r.n.Insert(r.ctx, labKeyspace, r.run.Keys[i], r.path(), []byte(value), ts, engine.ONE))
}

// remove deletes the column on replica i with timestamp ts, the tombstone's receipt time
// (localDeletionTime) being received.
func (r *replicaPlay) remove(i int, ts int64, received time.Time) error {
	r.calls = append(r.calls, fmt.Sprintf("remove(key='%s', column_path=ColumnPath('%s', column='%s'), timestamp=%d) on replica %s",
		r.run.Keys[i], replicaCF, replicaColumn, ts, replicaName(i)))
	ctx := engine.ReceivedAt(r.ctx, received)
	return widerow.Wrap("lab", r.n.Remove(ctx, labKeyspace, r.run.Keys[i], r.path(), ts, engine.ONE))
}

// cells reads what each replica stores of the column, its tombstone included (nil: nothing),
// as a replica answers a coordinator.
func (r *replicaPlay) cells() ([2]*engine.StoredCell, error) {
	var out [2]*engine.StoredCell
	for i := range 2 {
		cells, err := r.n.StoredCells(r.ctx, labKeyspace, replicaCF, r.run.Keys[i], 10)
		if err != nil {
			return out, widerow.Wrap("lab", err)
		}
		for j := range cells {
			if string(cells[j].Name) == replicaColumn {
				out[i] = &cells[j]
			}
		}
	}
	return out, nil
}

// exchange gives the newest version of the column the two replicas hold to the one whose
// version is older or missing: what a repair (repair) and a read repair both do for one
// column. A tombstone travels as a remove with its timestamp and its receipt time, a value as
// an insert with its timestamp: a 0.6 repair or read repair sends the column whole, its
// localDeletionTime included, so both replicas drop the tombstone on the same day.
func (r *replicaPlay) exchange(repair bool) error {
	cells, err := r.cells()
	if err != nil {
		return err
	}
	w := newest(cells[0], cells[1])
	if w == nil {
		if repair {
			r.calls = append(r.calls, "neither replica holds anything of the column: nothing to send")
		}
		return nil
	}
	sent := false
	for i := range 2 {
		if c := cells[i]; c != nil && c.Timestamp == w.Timestamp && c.Tombstone == w.Tombstone && string(c.Value) == string(w.Value) {
			continue
		}
		sent = true
		if w.Tombstone {
			err = r.remove(i, w.Timestamp, time.Unix(w.DeletedAt, 0))
		} else {
			err = r.insert(i, string(w.Value), w.Timestamp)
		}
		if err != nil {
			return err
		}
	}
	if !sent {
		r.calls = append(r.calls, "both replicas hold the same version: nothing to send")
	}
	return nil
}

// newest is the version of a column a read keeps of two: the higher timestamp, a tombstone on a
// tie, then the larger value (nil when neither replica holds anything).
func newest(a, b *engine.StoredCell) *engine.StoredCell {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.Timestamp != b.Timestamp:
		if a.Timestamp > b.Timestamp {
			return a
		}
		return b
	case a.Tombstone != b.Tombstone:
		if a.Tombstone {
			return a
		}
		return b
	case string(b.Value) > string(a.Value):
		return b
	}
	return a
}

func describeCell(c *engine.StoredCell) string {
	switch {
	case c == nil:
		return "nothing"
	case c.Tombstone:
		return fmt.Sprintf("a tombstone deleted at %d", c.Timestamp)
	}
	return fmt.Sprintf("%s at timestamp %d", strconv.Quote(string(c.Value)), c.Timestamp)
}
