package teach

import (
	"context"
	"encoding/binary"
	"time"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// ClassBook keeps the classes and their learners' activity (teaching.ClassBook) in two column
// families of the Sessions keyspace (storage-conf.xml), the server's own, so that every server
// of the store shows one roster:
//
//	Sessions.Classes['<class>']['<username>'] = ''
//	Sessions.Activity['user:<name>']['last'] = '<kind>', ['at'] = <8-byte µs>, ['statements'] = <8-byte count>
//
// A class is one row, its members its columns in name order (BytesType), one get_slice;
// enrolling counts the row first (a get_slice of at most ClassMax+1 columns) and then writes the
// new names in one batch_mutate. A learner's activity is one row of three columns: an action
// is one batch_mutate of last and at, and a console statement reads statements first (0.6 had
// no counters), so two statements of one learner at the same instant on two servers count once.
type ClassBook struct {
	node  *engine.Node
	stamp *domain.Stamper
	clock domain.Clock
}

// NewClassBook keeps the classes on node.
func NewClassBook(node *engine.Node) *ClassBook {
	return &ClassBook{node: node, stamp: domain.NewStamper(domain.SystemClock{}), clock: domain.SystemClock{}}
}

const (
	classesCF  = "Classes"
	activityCF = "Activity"
)

var (
	colLast       = []byte("last")
	colAt         = []byte("at")
	colStatements = []byte("statements")
)

// Enrol implements teaching.ClassBook.
func (b *ClassBook) Enrol(ctx context.Context, class string, users []string) error {
	have, err := b.Members(ctx, class)
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(have)+len(users))
	for _, u := range have {
		seen[u] = true
	}
	ts := b.stamp.Next()
	var muts []engine.Mutation
	for _, u := range users {
		if seen[u] {
			continue
		}
		seen[u] = true
		muts = append(muts, engine.Mutation{ColumnOrSuperColumn: &engine.ColumnOrSuperColumn{Column: &engine.Column{Name: []byte(u), Value: []byte{}, Timestamp: ts}}})
	}
	if len(seen) > teaching.ClassMax {
		return domain.Invalid("class", "holds at most %d accounts", teaching.ClassMax)
	}
	if len(muts) == 0 {
		return nil
	}
	err = b.node.BatchMutate(ctx, widerow.KeyspaceSessions, map[string]map[string][]engine.Mutation{class: {classesCF: muts}}, engine.QUORUM)
	return widerow.Wrap("enrol", err)
}

// Members implements teaching.ClassBook: one get_slice of the class's row.
func (b *ClassBook) Members(ctx context.Context, class string) ([]string, error) {
	cols, err := b.node.GetSlice(ctx, widerow.KeyspaceSessions, class, engine.ColumnParent{ColumnFamily: classesCF},
		engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: teaching.ClassMax + 1}}, engine.QUORUM)
	if err != nil {
		return nil, widerow.Wrap("class members", err)
	}
	out := make([]string, 0, len(cols))
	for _, c := range cols {
		out = append(out, string(c.Column.Name))
	}
	return out, nil
}

// Touch implements teaching.ClassBook.
func (b *ClassBook) Touch(ctx context.Context, learner, kind string) error {
	if err := ctx.Err(); err != nil {
		return widerow.Wrap("touch", err)
	}
	if !teaching.Recorded(learner) {
		return nil
	}
	ts := b.stamp.Next()
	at := binary.BigEndian.AppendUint64(nil, uint64(b.clock.Now().UnixMicro()))
	cols := []engine.Column{{Name: colLast, Value: []byte(teaching.ActionKind(kind)), Timestamp: ts}, {Name: colAt, Value: at, Timestamp: ts}}
	if teaching.IsConsole(kind) {
		a, err := b.Activity(ctx, learner)
		if err != nil {
			return err
		}
		cols = append(cols, engine.Column{Name: colStatements, Value: binary.BigEndian.AppendUint64(nil, uint64(a.Statements+1)), Timestamp: ts})
	}
	muts := make([]engine.Mutation, len(cols))
	for i := range cols {
		muts[i] = engine.Mutation{ColumnOrSuperColumn: &engine.ColumnOrSuperColumn{Column: &cols[i]}}
	}
	err := b.node.BatchMutate(ctx, widerow.KeyspaceSessions, map[string]map[string][]engine.Mutation{learner: {activityCF: muts}}, engine.QUORUM)
	return widerow.Wrap("touch", err)
}

// Activity implements teaching.ClassBook: one get_slice of the learner's row.
func (b *ClassBook) Activity(ctx context.Context, learner string) (teaching.Activity, error) {
	cols, err := b.node.GetSlice(ctx, widerow.KeyspaceSessions, learner, engine.ColumnParent{ColumnFamily: activityCF},
		engine.SlicePredicate{ColumnNames: [][]byte{colAt, colLast, colStatements}}, engine.QUORUM)
	if err != nil {
		return teaching.Activity{}, widerow.Wrap("activity", err)
	}
	var a teaching.Activity
	for _, c := range cols {
		v := c.Column.Value
		switch string(c.Column.Name) {
		case string(colLast):
			a.Last = string(v)
		case string(colAt):
			if len(v) == 8 {
				a.At = time.UnixMicro(int64(binary.BigEndian.Uint64(v)))
			}
		case string(colStatements):
			if len(v) == 8 {
				a.Statements = int64(binary.BigEndian.Uint64(v))
			}
		}
	}
	return a, nil
}

// ForgetActivity implements teaching.ClassBook: remove of the learner's row.
func (b *ClassBook) ForgetActivity(ctx context.Context, learner string) error {
	err := b.node.Remove(ctx, widerow.KeyspaceSessions, learner, engine.ColumnPath{ColumnFamily: activityCF}, b.stamp.Next(), engine.QUORUM)
	return widerow.Wrap("forget activity", err)
}
