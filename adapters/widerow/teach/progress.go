package teach

import (
	"context"
	"encoding/binary"
	"fmt"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// Progress keeps the learners' progress through the course (teaching.ProgressStore) in the
// column family Progress of the Sessions keyspace, the server's own (storage-conf.xml), one row
// per learner:
//
//	Sessions.Progress['<username>'][<first done: 8-byte µs><'v' or 'p'><lesson slug or exercise id>] = ''
//
// The comparator is BytesType and each name starts with the time it was first done, big-endian,
// so one get_slice of the row returns the lessons visited and the exercises passed in the order
// first done. A record reads the row first and writes a column only for what the row lacks, so
// recording again writes nothing; two servers recording one item at once may both write it
// (0.6 had no compare-and-set), and the read keeps the first of each. The row stays as small as
// the course: a column per lesson and per exercise.
type Progress struct {
	node  *engine.Node
	stamp *domain.Stamper
}

// NewProgress keeps the progress on node.
func NewProgress(node *engine.Node) *Progress {
	return &Progress{node: node, stamp: domain.NewStamper(domain.SystemClock{})}
}

const (
	progressCF = "Progress"
	// progressMax bounds a row's read: far more columns than the course has lessons and
	// exercises, so that a row nobody could fill by hand is never read whole.
	progressMax = 4096
	kindVisit   = 'v'
	kindPass    = 'p'
)

// RecordVisit implements teaching.ProgressStore.
func (p *Progress) RecordVisit(ctx context.Context, user, lesson string) error {
	return p.record(ctx, user, kindVisit, lesson)
}

// RecordPass implements teaching.ProgressStore.
func (p *Progress) RecordPass(ctx context.Context, user, exercise string) error {
	return p.record(ctx, user, kindPass, exercise)
}

// record is get_slice of the learner's row, then, for an item it lacks, insert of its column.
func (p *Progress) record(ctx context.Context, user string, kind byte, item string) error {
	have, err := p.read(ctx, user)
	if err != nil {
		return err
	}
	if have[progressItem{kind, item}] {
		return nil
	}
	// The column's timestamp is the time it names.
	ts := p.stamp.Next()
	name := binary.BigEndian.AppendUint64(make([]byte, 0, 9+len(item)), uint64(ts))
	name = append(append(name, kind), item...)
	err = p.node.Insert(ctx, widerow.KeyspaceSessions, user, engine.ColumnPath{ColumnFamily: progressCF, Column: name}, nil, ts, engine.QUORUM)
	return widerow.Wrap("record progress", err)
}

type progressItem struct {
	kind byte
	item string
}

// read slices user's row, appending each item to the list of its kind the first time it comes:
// the row's order is the order first done.
func (p *Progress) read(ctx context.Context, user string, lists ...*[]string) (map[progressItem]bool, error) {
	cols, err := p.node.GetSlice(ctx, widerow.KeyspaceSessions, user, engine.ColumnParent{ColumnFamily: progressCF},
		engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: progressMax}}, engine.QUORUM)
	if err != nil {
		return nil, widerow.Wrap("read progress", err)
	}
	seen := make(map[progressItem]bool, len(cols))
	for _, c := range cols {
		name := c.Column.Name
		if len(name) < 9 || (name[8] != kindVisit && name[8] != kindPass) {
			return nil, fmt.Errorf("widerow: the Progress row of %q holds a column %x that no record writes", user, name)
		}
		it := progressItem{name[8], string(name[9:])}
		if seen[it] {
			continue
		}
		seen[it] = true
		if len(lists) == 2 {
			l := lists[0]
			if it.kind == kindPass {
				l = lists[1]
			}
			*l = append(*l, it.item)
		}
	}
	return seen, nil
}

// Progress implements teaching.ProgressStore: one get_slice of the learner's row.
func (p *Progress) Progress(ctx context.Context, user string) (teaching.Progress, error) {
	var out teaching.Progress
	if _, err := p.read(ctx, user, &out.Visited, &out.Passed); err != nil {
		return teaching.Progress{}, err
	}
	return out, nil
}

// ForgetProgress implements teaching.ProgressStore: remove of the learner's row, a row
// tombstone newer than every column recorded before it.
func (p *Progress) ForgetProgress(ctx context.Context, user string) error {
	err := p.node.Remove(ctx, widerow.KeyspaceSessions, user, engine.ColumnPath{ColumnFamily: progressCF}, p.stamp.Next(), engine.QUORUM)
	return widerow.Wrap("forget progress", err)
}
