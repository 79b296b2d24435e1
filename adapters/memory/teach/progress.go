package teach

import (
	"context"
	"slices"
	"sync"

	"twissandra/ports/teaching"
)

// Progress keeps learners' progress through the course (teaching.ProgressStore) in a map, for
// as long as the process lives.
type Progress struct {
	mu sync.Mutex
	m  map[string]*teaching.Progress
}

// NewProgress returns a store in which nobody has done anything yet.
func NewProgress() *Progress { return &Progress{m: map[string]*teaching.Progress{}} }

// RecordVisit implements teaching.ProgressStore.
func (p *Progress) RecordVisit(ctx context.Context, user, lesson string) error {
	return p.record(ctx, user, lesson, func(pr *teaching.Progress) *[]string { return &pr.Visited })
}

// RecordPass implements teaching.ProgressStore.
func (p *Progress) RecordPass(ctx context.Context, user, exercise string) error {
	return p.record(ctx, user, exercise, func(pr *teaching.Progress) *[]string { return &pr.Passed })
}

func (p *Progress) record(ctx context.Context, user, item string, list func(*teaching.Progress) *[]string) error {
	if err := done(ctx); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	pr := p.m[user]
	if pr == nil {
		pr = &teaching.Progress{}
		p.m[user] = pr
	}
	if l := list(pr); !slices.Contains(*l, item) {
		*l = append(*l, item)
	}
	return nil
}

// Progress implements teaching.ProgressStore.
func (p *Progress) Progress(ctx context.Context, user string) (teaching.Progress, error) {
	if err := done(ctx); err != nil {
		return teaching.Progress{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	pr := p.m[user]
	if pr == nil {
		return teaching.Progress{}, nil
	}
	return teaching.Progress{Visited: slices.Clone(pr.Visited), Passed: slices.Clone(pr.Passed)}, nil
}

// ForgetProgress implements teaching.ProgressStore.
func (p *Progress) ForgetProgress(ctx context.Context, user string) error {
	if err := done(ctx); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.m, user)
	return nil
}
