package teach

import (
	"context"
	"slices"
	"sync"
	"time"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// ClassBook keeps the classes and their learners' activity (teaching.ClassBook) in maps, for as
// long as the process lives.
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
	return nil
}

// Members implements teaching.ClassBook.
func (b *ClassBook) Members(ctx context.Context, class string) ([]string, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.classes[class]), nil
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
	return nil
}

// Activity implements teaching.ClassBook.
func (b *ClassBook) Activity(ctx context.Context, learner string) (teaching.Activity, error) {
	if err := done(ctx); err != nil {
		return teaching.Activity{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
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
	return nil
}
