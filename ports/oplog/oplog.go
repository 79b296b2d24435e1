// Package oplog carries a request's storage-operations recorder in its context, so that the
// storages below the ports (the widerow engine, the CQL driver) can say what each request cost
// them in their own model's words, without importing the web layer that shows it.
package oplog

import "context"

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
