// Package oplog carries a request's storage-operations recorder in its context, so that the
// storages below the ports (the widerow engine, the CQL driver) can say what each request cost
// them in their own model's words, without importing the web layer that shows it.
package oplog

import (
	"context"
	"time"
)

// Recorder receives one line per storage operation.
type Recorder interface {
	Record(op string)
}

type key struct{}

// With returns ctx carrying r.
func With(ctx context.Context, r Recorder) context.Context {
	return context.WithValue(ctx, key{}, r)
}

// From returns the context's recorder, or nil.
func From(ctx context.Context) Recorder {
	if ctx == nil {
		return nil
	}
	r, _ := ctx.Value(key{}).(Recorder)
	return r
}

// Enabled reports whether anything records ctx's operations; callers check it before they
// spend time describing an operation.
func Enabled(ctx context.Context) bool { return From(ctx) != nil }

// Record adds op to ctx's recorder, if any.
func Record(ctx context.Context, op string) {
	if r := From(ctx); r != nil {
		r.Record(op)
	}
}

// Shadower is a Recorder that keeps the operations of a second model apart from its own: in
// compare mode one request runs on two models, and a page shows each model's operations side by
// side.
type Shadower interface {
	Recorder
	// Shadow returns the recorder of model's operations (made on first use).
	Shadow(model string) Recorder
}

// Timer is a Recorder that also adds up how long its model's operations took.
type Timer interface {
	AddTime(d time.Duration)
}

// Shadow returns ctx recording into the shadow recorder of model: the operations a compare
// mode's second model makes for this request. Without a recorder that keeps a shadow, the
// returned ctx records nothing (never into the first model's list).
func Shadow(ctx context.Context, model string) context.Context {
	if s, ok := From(ctx).(Shadower); ok {
		return With(ctx, s.Shadow(model))
	}
	if From(ctx) == nil {
		return ctx
	}
	return context.WithValue(ctx, key{}, nil)
}

// AddTime adds d to ctx's recorder's time, if it keeps one.
func AddTime(ctx context.Context, d time.Duration) {
	if t, ok := From(ctx).(Timer); ok {
		t.AddTime(d)
	}
}
