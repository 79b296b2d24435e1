// Package compare runs the application on two storage models at once, for teaching: the
// primary store answers every call; every write is applied to the secondary as well, and every
// read is shadowed on it, so that one request shows what the same action costs in both models
// (each model's operations are recorded apart, see oplog.Shadow). The two answers of a read are
// compared, and a disagreement is reported, never hidden.
//
// The secondary can never harm the application: its calls run under their own deadline, their
// errors and answers are only reported, and a write the primary refused is not made on it.
// Data written before compare mode started exists on the primary only; reads of it diverge,
// and the report says so.
package compare

import (
	"context"
	"errors"
	"fmt"
	"time"

	"twissandra/domain"
	"twissandra/ports/oplog"
)

// DefaultTimeout bounds each call on the secondary.
const DefaultTimeout = 2 * time.Second

// Observer is told of every divergence and secondary failure (metrics count them).
type Observer interface {
	Divergence(op string)
	SecondaryFailure(op string)
}

// Pair is the two models of one compare mode.
type Pair struct {
	// Primary and Secondary name the models ("widerow", "cql3") in the reports.
	Primary, Secondary string
	// Timeout bounds each secondary call; 0 means DefaultTimeout.
	Timeout time.Duration
	// Observer may be nil.
	Observer Observer
}

// primary runs a primary call, timing it into the request's record.
func (p *Pair) primary(ctx context.Context, call func(context.Context) error) error {
	start := time.Now()
	err := call(ctx)
	oplog.AddTime(ctx, time.Since(start))
	return err
}

// secondary runs call on the secondary under its deadline, its operations recorded apart; its
// error is reported, never returned.
func (p *Pair) secondary(ctx context.Context, op string, call func(context.Context) error) (ok bool) {
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(oplog.Shadow(ctx, p.Secondary)), timeout)
	defer cancel()
	start := time.Now()
	err := call(sctx)
	oplog.AddTime(sctx, time.Since(start))
	if err != nil && !errors.Is(err, domain.ErrNotFound) && !errors.Is(err, domain.ErrAlreadyExists) {
		p.report(ctx, op, fmt.Sprintf("the secondary (%s) failed: %v", p.Secondary, err), false)
		return false
	}
	return true
}

// onSecondary is secondary for a call that handles the answers it expects itself: every error
// it returns is reported, and returned.
func (p *Pair) onSecondary(ctx context.Context, op string, call func(context.Context) error) error {
	var err error
	if p.secondary(ctx, op, func(ctx context.Context) error { err = call(ctx); return err }) && err != nil {
		p.report(ctx, op, fmt.Sprintf("the secondary (%s) failed: %v", p.Secondary, err), false)
	}
	return err
}

// report records a divergence or a failure in the request's operations (the page shows them)
// and tells the observer.
func (p *Pair) report(ctx context.Context, op, what string, divergence bool) {
	word := "DIVERGENCE"
	if divergence {
		if p.Observer != nil {
			p.Observer.Divergence(op)
		}
	} else {
		word = "SECONDARY FAILED"
		if p.Observer != nil {
			p.Observer.SecondaryFailure(op)
		}
	}
	if oplog.Enabled(ctx) {
		oplog.Record(ctx, oplog.Op{Kind: oplog.Divergence, Call: word, Touched: op, Text: fmt.Sprintf("%s %s: %s", word, op, what)})
	}
}

// write applies a write to the primary, then, if it succeeded, to the secondary. A secondary
// that refuses what the primary accepted (a taken name, a taken slug) diverges.
func (p *Pair) write(ctx context.Context, op string, call func(context.Context, bool) error) error {
	if err := p.primary(ctx, func(ctx context.Context) error { return call(ctx, true) }); err != nil {
		return err
	}
	var serr error
	if p.secondary(ctx, op, func(ctx context.Context) error { serr = call(ctx, false); return serr }) && serr != nil {
		p.report(ctx, op, fmt.Sprintf("%s accepted it, %s answered %v", p.Primary, p.Secondary, serr), true)
	}
	return nil
}

// read answers from the primary and shadows the read on the secondary, comparing the answers
// by their keys (what each model must agree on: no store-specific cursors or time zones).
func read[T any](ctx context.Context, p *Pair, op string, call func(context.Context, bool) (T, error), key func(T) string) (T, error) {
	var got T
	err := p.primary(ctx, func(ctx context.Context) error {
		var err error
		got, err = call(ctx, true)
		return err
	})
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return got, err
	}
	var other T
	var serr error
	if !p.secondary(ctx, op, func(ctx context.Context) error { other, serr = call(ctx, false); return serr }) {
		return got, err
	}
	switch {
	case (err == nil) != (serr == nil):
		p.report(ctx, op, fmt.Sprintf("%s: %s, %s: %s", p.Primary, found(err), p.Secondary, found(serr)), true)
	case err == nil:
		if a, b := key(got), key(other); a != b {
			p.report(ctx, op, fmt.Sprintf("%s answered %s, %s answered %s", p.Primary, a, p.Secondary, b), true)
		}
	}
	return got, err
}

func found(err error) string {
	if err == nil {
		return "found"
	}
	return "not found"
}
