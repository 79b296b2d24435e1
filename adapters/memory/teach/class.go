package teach

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
)

// ClassBook keeps the classes and their learners' activity (teaching.ClassBook) in maps, for as
// long as the process lives. Each call is one operation in the request's log, as the memory
// store's are: "slice classes class1 -> 30 members", "put activity user:ann".
type ClassBook struct {
	mu       sync.Mutex
	classes  map[string][]string // sorted
	activity map[string]teaching.Activity
	clock    domain.Clock
}

// NewClassBook returns a book of no class; clock nil is the wall clock.
func NewClassBook(clock domain.Clock) *ClassBook {
	if clock == nil {
		clock = domain.SystemClock{}
	}
	return &ClassBook{classes: map[string][]string{}, activity: map[string]teaching.Activity{}, clock: clock}
}

// Enrol implements teaching.ClassBook.
func (b *ClassBook) Enrol(ctx context.Context, class string, users []string) error {
	if err := done(ctx); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	m := slices.Clone(b.classes[class])
	for _, u := range users {
		if i, found := slices.BinarySearch(m, u); !found {
			m = slices.Insert(m, i, u)
		}
	}
	if len(m) > teaching.ClassMax {
		return domain.Invalid("class", "holds at most %d accounts", teaching.ClassMax)
	}
	b.classes[class] = m
	record(ctx, oplog.Write, "put", "classes", "put classes "+class+" +"+strconv.Itoa(len(users))+" members")
	return nil
}

// Members implements teaching.ClassBook.
func (b *ClassBook) Members(ctx context.Context, class string) ([]string, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	m := slices.Clone(b.classes[class])
	record(ctx, oplog.Read, "slice", "classes", "slice classes "+class+" -> "+strconv.Itoa(len(m))+" members")
	return m, nil
}

// Touch implements teaching.ClassBook.
func (b *ClassBook) Touch(ctx context.Context, learner, kind string) error {
	if err := done(ctx); err != nil {
		return err
	}
	if !teaching.Recorded(learner) {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	a := b.activity[learner]
	a.Last, a.At = teaching.ActionKind(kind), b.clock.Now().Truncate(time.Millisecond)
	if teaching.IsConsole(kind) {
		a.Statements++
	}
	b.activity[learner] = a
	record(ctx, oplog.Write, "put", "activity", "put activity "+learner)
	return nil
}

// Activity implements teaching.ClassBook.
func (b *ClassBook) Activity(ctx context.Context, learner string) (teaching.Activity, error) {
	if err := done(ctx); err != nil {
		return teaching.Activity{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	record(ctx, oplog.Read, "get", "activity", "get activity "+learner)
	return b.activity[learner], nil
}

// ForgetActivity implements teaching.ClassBook.
func (b *ClassBook) ForgetActivity(ctx context.Context, learner string) error {
	if err := done(ctx); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.activity, learner)
	record(ctx, oplog.Write, "delete", "activity", "delete activity "+learner)
	return nil
}

// record counts a call in the request's operation log, with its text where the log wants it.
func record(ctx context.Context, kind oplog.Kind, call, family, text string) {
	r := oplog.From(ctx)
	if r == nil {
		return
	}
	op := oplog.Op{Model: "memory", Kind: kind, Call: call}
	if oplog.Detailed(ctx) {
		op.Family, op.Text = family, text
	}
	r.Record(op)
}
