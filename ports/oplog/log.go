package oplog

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Log collects the storage operations of one request (the pages' footer, the Storage-Ops
// header): it is the Recorder the web layer puts in each request's context. Every model's
// storage records into it; in compare mode the second model's operations go to its shadow.

// MaxRecordedOps bounds the operations kept per request; later ones are only counted.
const MaxRecordedOps = 200

// Log collects the storage operations of one request. It is safe for concurrent use, as a
// fan-out may record from several goroutines.
type Log struct {
	mu  sync.Mutex
	ops []Op
	// kinds and counts are parallel, in order of first appearance: a request has a handful of
	// kinds, so a linear search beats a map and costs nothing until the first Record.
	kinds  []string
	counts []int
	// notes is parallel to kinds: the verb is a note or a divergence, no storage call (isNote).
	notes   []bool
	dropped int
	// elapsed is the time its model's calls took, when a compare mode times them.
	elapsed time.Duration
	// shadow holds the operations of a compare mode's second model (oplog.Shadow); read
	// without the lock on every response, so an atomic pointer, set once under the lock.
	shadowModel string
	shadow      atomic.Pointer[Log]
	// brief: the request wants the counts only (see Detailer).
	brief bool
	// summary is the last Summary, of summaryOf operations: a response asks for it a few
	// times (its headers, a page's footer), and nothing has happened in between.
	summary   string
	summaryOf int
}

// NewLog returns an empty Log; a brief one keeps only the counts of its operations (see
// Detailer).
func NewLog(brief bool) *Log { return &Log{brief: brief} }

// SetBrief makes the log keep only counts (before anything is recorded).
func (l *Log) SetBrief(brief bool) { l.brief = brief }

// Detailed reports whether the request shows its operations in full (a page, or an API
// request that asks for its record), not only their counts.
func (l *Log) Detailed() bool { return !l.brief }

// Shadow returns the log of the second model's operations, made on first use.
func (l *Log) Shadow(model string) Recorder {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s := l.shadow.Load(); s != nil {
		return s
	}
	s := &Log{brief: l.brief}
	l.shadowModel = model
	l.shadow.Store(s)
	return s
}

// Shadowed returns the second model's name and log, or "" and nil outside compare mode.
func (l *Log) Shadowed() (model string, log *Log) {
	if l == nil {
		return "", nil
	}
	s := l.shadow.Load()
	if s == nil {
		return "", nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.shadowModel, s
}

// AddTime adds the duration of one of its model's calls.
func (l *Log) AddTime(d time.Duration) {
	l.mu.Lock()
	l.elapsed += d
	l.mu.Unlock()
}

// Elapsed is the time its model's calls took, as far as a compare mode timed them.
func (l *Log) Elapsed() time.Duration {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.elapsed
}

// LogFrom returns the context's Log, or nil when its recorder is none or another.
func LogFrom(ctx context.Context) *Log {
	l, _ := From(ctx).(*Log)
	return l
}

// Record adds one operation.
func (l *Log) Record(op Op) {
	kind := op.Verb()
	l.mu.Lock()
	defer l.mu.Unlock()
	if i := slices.Index(l.kinds, kind); i >= 0 {
		l.counts[i]++
	} else {
		l.kinds = append(l.kinds, kind)
		l.counts = append(l.counts, 1)
		l.notes = append(l.notes, isNote(op.Kind))
	}
	// A brief log keeps the counts only: nothing ever reads its operations (a request that asks
	// for them is not brief), and copying each one in costs every API response.
	if len(l.ops) < MaxRecordedOps && !l.brief {
		if l.ops == nil {
			l.ops = make([]Op, 0, 8) // a page's handful, in one allocation
		}
		l.ops = append(l.ops, op)
	} else {
		l.dropped++
	}
}

// Ops returns the operations recorded so far, in order, and how many more were only counted
// (all of them in a brief log).
func (l *Log) Ops() (ops []Op, dropped int) {
	if l == nil {
		return nil, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Op(nil), l.ops...), l.dropped
}

// Len is the number of operations recorded, counted ones included.
func (l *Log) Len() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.ops) + l.dropped
}

// NoOps is the summary of a request that touched no store.
const NoOps = "0 ops"

// Summary is the header form: "3 ops: slice=1 multiget=2", or "0 ops".
func (l *Log) Summary() string {
	if l == nil {
		return NoOps
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.ops) + l.dropped
	if n == 0 {
		return NoOps
	}
	if n == l.summaryOf {
		return l.summary
	}
	b := make([]byte, 0, 16+24*len(l.kinds))
	b = append(strconv.AppendInt(b, int64(n), 10), " ops:"...)
	for i, k := range l.kinds {
		b = append(append(append(b, ' '), k...), '=')
		b = strconv.AppendInt(b, int64(l.counts[i]), 10)
	}
	l.summary, l.summaryOf = string(b), n
	return l.summary
}

// isNote reports whether an operation of kind k is no storage call: a note of the layer above
// (a cache's hit, a fan-out's size) or a compare mode's divergence.
func isNote(k Kind) bool { return k == Note || k == Divergence }

// Headline is what a page says a request cost: the storage calls it made, counted by verb, and
// apart from them the notes, which are listed and never counted as calls: "5 storage calls:
// get_slice=2 batch_mutate=3; 5 notes, not calls: cache=4 fan-out=1", or "no storage call".
// Summary, the Storage-Ops header's form, counts every record.
func (l *Log) Headline() string {
	if l == nil {
		return "no storage call"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var calls, notes []byte
	nCalls, nNotes := 0, 0
	for i, k := range l.kinds {
		b := &calls
		if l.notes[i] {
			b, nNotes = &notes, nNotes+l.counts[i]
		} else {
			nCalls += l.counts[i]
		}
		*b = append(append(append(*b, ' '), k...), '=')
		*b = strconv.AppendInt(*b, int64(l.counts[i]), 10)
	}
	var h []byte
	switch nCalls {
	case 0:
		h = append(h, "no storage call"...)
	case 1:
		h = append(h, "1 storage call:"...)
	default:
		h = append(strconv.AppendInt(h, int64(nCalls), 10), " storage calls:"...)
	}
	h = append(h, calls...)
	if nNotes > 0 {
		h = strconv.AppendInt(append(h, "; "...), int64(nNotes), 10)
		if nNotes == 1 {
			h = append(h, " note, not a call:"...)
		} else {
			h = append(h, " notes, not calls:"...)
		}
		h = append(h, notes...)
	}
	return string(h)
}
