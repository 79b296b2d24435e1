// Package oplog is the operation log: the record of what each request cost the storage, in the
// storage's own words. A request's context carries a Recorder (the web layer puts a Log there),
// and every storage records into it as it works: the widerow engine its Thrift calls, the cql3
// adapter the CQL statements the driver sent, the memory store its port calls. The layers above
// add notes (a fan-out's size) and compare mode its divergences. The pages' footer and the
// Storage-Ops header show the Log; nothing here imports the web layer that shows it.
package oplog

import (
	"context"
	"strings"
	"time"
)

// Kind says what an operation does to the storage.
type Kind string

// The kinds of operation.
const (
	Read  Kind = "read"
	Write Kind = "write"
	// LWT is a lightweight transaction: a read and a conditional write in one step (INSERT
	// ... IF NOT EXISTS, the engine's insert_if_absent).
	LWT Kind = "lwt"
	// Note is no storage call: what the layer above says of the calls (a fan-out's size, a
	// cache's hits).
	Note Kind = "note"
	// Divergence is compare mode's report that the two models answered one read differently,
	// or that the second model failed a call the first made (its Call says which: DIVERGENCE or
	// SECONDARY FAILED). A page shows these at the top.
	Divergence Kind = "divergence"
)

// Op is one storage operation, as the model below the ports made it.
type Op struct {
	// Model is the storage model that made the operation: "widerow", "cql3" or "memory"; ""
	// for a note of the layer above.
	Model string `json:"model,omitempty"`
	Kind  Kind   `json:"kind"`
	// Call is the operation's verb: get_slice, batch_mutate, SELECT, INSERT, BATCH, ...
	Call string `json:"call"`
	// Family is the column family or table ("Twissandra.Timeline", "timeline").
	Family string `json:"family,omitempty"`
	// Keys are the row or partition keys it addressed (a bounded few, with KeyCount all).
	Keys     []string `json:"keys,omitempty"`
	KeyCount int      `json:"key_count,omitempty"`
	// Tokens are the partitioner's tokens of Keys, in their order, where the model computes
	// them as it goes (widerow: RandomPartitioner's, in decimal).
	Tokens []string `json:"tokens,omitempty"`
	// Predicate is what it asked of the rows: a slice, column names, a WHERE clause.
	Predicate string `json:"predicate,omitempty"`
	// Touched is what it read or wrote: "40 columns", "3 rows", "applied".
	Touched string `json:"touched,omitempty"`
	// Took is how long it took (0 when not timed).
	Took time.Duration `json:"took_ns,omitempty"`
	// Consistency is the consistency level the call ran at, in its model's words: the Thrift
	// ConsistencyLevel the widerow emulation applied (ONE, QUORUM, ...), the one the cql3 driver
	// sent (LOCAL_QUORUM, and the serial level of a lightweight transaction:
	// "LOCAL_QUORUM/LOCAL_SERIAL"); "" where the model has none (memory, a note).
	Consistency string `json:"consistency,omitempty"`
	// Coordinator is the node that answered the call as its coordinator (host:port), on cql3
	// from the driver; "" where there is no cluster.
	Coordinator string `json:"coordinator,omitempty"`
	// Text is the whole operation in the model's own notation, as the pages show it.
	Text string `json:"text"`
}

// Verb is the operation's call, or the first word of its text.
func (o Op) Verb() string {
	if o.Call != "" {
		return o.Call
	}
	verb, _, _ := strings.Cut(o.Text, " ")
	return verb
}

// Recorder receives one record per storage operation.
type Recorder interface {
	Record(op Op)
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

// Detailer is a Recorder that may only count operations: when Detailed is false, an operation
// needs its Model, Kind and Call only (an API response's Storage-Ops header counts calls; its
// whole record is sent on request), and describing its keys, predicate and text is waste.
type Detailer interface {
	Detailed() bool
}

// Detailed reports whether ctx's recorder wants each operation described in full: false
// without a recorder, true unless the recorder is a Detailer that says otherwise. Recorders of
// costly descriptions check it, and record the brief Op (model, kind, call) when it is false.
func Detailed(ctx context.Context) bool {
	r := From(ctx)
	if r == nil {
		return false
	}
	if d, ok := r.(Detailer); ok {
		return d.Detailed()
	}
	return true
}

// Record adds op to ctx's recorder, if any.
func Record(ctx context.Context, op Op) {
	if r := From(ctx); r != nil {
		r.Record(op)
	}
}

// MaxKeys bounds the keys an Op lists; KeyCount says how many there were.
const MaxKeys = 8

// KeysOf returns at most MaxKeys of keys, for Op.Keys.
func KeysOf(keys []string) []string {
	return append([]string(nil), keys[:min(len(keys), MaxKeys)]...)
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
