package web

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/ports/oplog"
)

// Storage operations of one request, for teaching: every storage call a request causes is
// recorded in words ("slice line timeline:bob before=0 limit=41 -> 40 entries") by whatever
// wraps the stores, then shown in the page footer and summarised in the Storage-Ops header, so
// one action shows its cost in each data model.

// StorageOpsHeader is the response header that summarises a request's storage operations.
const StorageOpsHeader = "Storage-Ops"

// StorageOpsDetailHeader, sent as "json" on a request, asks for its whole record: the response
// then carries it in the same header, as one line of JSON (OpsRecord).
const StorageOpsDetailHeader = "Storage-Ops-Detail"

// maxDetailBytes bounds the JSON record of one response; past it, the last operations are
// dropped (and counted).
const maxDetailBytes = 32 << 10

// OpsRecord is a request's storage operations as JSON: each model's operations, structured
// (model, kind, call, column family or table, keys, predicate, what it touched, how long it
// took) and as the model's own notation writes them (text), the first model's (the one that
// answered) and, in compare mode, the second's.
type OpsRecord struct {
	Summary   string     `json:"summary"`
	Ops       []oplog.Op `json:"ops"`
	Dropped   int        `json:"dropped"`
	Secondary *OpsRecord `json:"secondary,omitempty"`
	Model     string     `json:"model,omitempty"`
}

// Detail returns l as an OpsRecord.
func (l *OpLog) Detail() OpsRecord {
	ops, dropped := l.Ops()
	r := OpsRecord{Summary: l.Summary(), Ops: ops, Dropped: dropped}
	if r.Ops == nil {
		r.Ops = []oplog.Op{}
	}
	if model, shadow := l.Shadowed(); shadow != nil {
		s := shadow.Detail()
		s.Model = model
		r.Secondary = &s
	}
	return r
}

// detailJSON is the record as the header's one line, kept under maxDetailBytes.
func detailJSON(r OpsRecord) string {
	for {
		b, err := json.Marshal(r)
		if err != nil {
			return `{"error":"the record could not be encoded"}`
		}
		if len(b) <= maxDetailBytes || (len(r.Ops) == 0 && (r.Secondary == nil || len(r.Secondary.Ops) == 0)) {
			return string(b)
		}
		if r.Secondary != nil && len(r.Secondary.Ops) > len(r.Ops) {
			n := len(r.Secondary.Ops) / 2
			r.Secondary.Dropped += len(r.Secondary.Ops) - n
			r.Secondary.Ops = r.Secondary.Ops[:n]
			continue
		}
		n := len(r.Ops) / 2
		r.Dropped += len(r.Ops) - n
		r.Ops = r.Ops[:n]
	}
}

// MaxRecordedOps bounds the operations kept per request; later ones are only counted.
const MaxRecordedOps = 200

// OpLog collects the storage operations of one request. It is safe for concurrent use, as a
// fan-out may record from several goroutines.
type OpLog struct {
	mu  sync.Mutex
	ops []oplog.Op
	// kinds and counts are parallel, in order of first appearance: a request has a handful of
	// kinds, so a linear search beats a map and costs nothing until the first Record.
	kinds   []string
	counts  []int
	dropped int
	// elapsed is the time its model's calls took, when a compare mode times them.
	elapsed time.Duration
	// shadow holds the operations of a compare mode's second model (oplog.Shadow); read
	// without the lock on every response, so an atomic pointer, set once under the lock.
	shadowModel string
	shadow      atomic.Pointer[OpLog]
	// brief: the request wants the counts only (see oplog.Detailer).
	brief bool
}

// Detailed reports whether the request shows its operations in full (a page, or an API
// request that asks for its record), not only their counts.
func (l *OpLog) Detailed() bool { return !l.brief }

// Shadow returns the log of the second model's operations, made on first use.
func (l *OpLog) Shadow(model string) oplog.Recorder {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s := l.shadow.Load(); s != nil {
		return s
	}
	s := &OpLog{brief: l.brief}
	l.shadowModel = model
	l.shadow.Store(s)
	return s
}

// Shadowed returns the second model's name and log, or "" and nil outside compare mode.
func (l *OpLog) Shadowed() (model string, log *OpLog) {
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
func (l *OpLog) AddTime(d time.Duration) {
	l.mu.Lock()
	l.elapsed += d
	l.mu.Unlock()
}

// Elapsed is the time its model's calls took, as far as a compare mode timed them.
func (l *OpLog) Elapsed() time.Duration {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.elapsed
}

// WithOps returns a context carrying a fresh OpLog. It travels as the context's
// oplog.Recorder, so the storages below the ports record into it too.
func WithOps(ctx context.Context) context.Context {
	return oplog.With(ctx, &OpLog{})
}

// OpsFrom returns the context's OpLog, or nil when it has none.
func OpsFrom(ctx context.Context) *OpLog {
	l, _ := oplog.From(ctx).(*OpLog)
	return l
}

// RecordOp adds op to the context's OpLog; without one it does nothing. The op's verb is its
// kind in the summary.
func RecordOp(ctx context.Context, op oplog.Op) {
	if l := OpsFrom(ctx); l != nil {
		l.Record(op)
	}
}

// Record adds one operation.
func (l *OpLog) Record(op oplog.Op) {
	kind := op.Verb()
	l.mu.Lock()
	defer l.mu.Unlock()
	if i := slices.Index(l.kinds, kind); i >= 0 {
		l.counts[i]++
	} else {
		l.kinds = append(l.kinds, kind)
		l.counts = append(l.counts, 1)
	}
	// A brief log keeps the counts only: nothing ever reads its operations (a request that asks
	// for them is not brief), and copying each one in costs every API response.
	if len(l.ops) < MaxRecordedOps && !l.brief {
		l.ops = append(l.ops, op)
	} else {
		l.dropped++
	}
}

// Ops returns the operations recorded so far, in order, and how many more were only counted
// (all of them in a brief log).
func (l *OpLog) Ops() (ops []oplog.Op, dropped int) {
	if l == nil {
		return nil, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]oplog.Op(nil), l.ops...), l.dropped
}

// Len is the number of operations recorded, counted ones included.
func (l *OpLog) Len() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.ops) + l.dropped
}

// Summary is the header form: "3 ops: slice=1 multiget=2", or "0 ops".
func (l *OpLog) Summary() string {
	if l == nil {
		return noOps
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.ops) + l.dropped
	if n == 0 {
		return noOps
	}
	b := make([]byte, 0, 16+24*len(l.kinds))
	b = append(strconv.AppendInt(b, int64(n), 10), " ops:"...)
	for i, k := range l.kinds {
		b = append(append(append(b, ' '), k...), '=')
		b = strconv.AppendInt(b, int64(l.counts[i]), 10)
	}
	return string(b)
}

// SetOpsHeader writes the summary of the request's operations so far into the Storage-Ops
// header. Handlers call it just before they write a response; the StorageOps middleware calls
// it for responses written by others.
func SetOpsHeader(c *gin.Context) {
	if l := OpsFrom(c.Request.Context()); l != nil {
		if model, shadow := l.Shadowed(); shadow != nil {
			c.Writer.Header().Set(StorageOpsHeader+"-Secondary", model+": "+shadow.Summary())
		}
		if detailAsked(c.Request.Header) {
			c.Writer.Header().Set(StorageOpsDetailHeader, detailJSON(l.Detail()))
		}
		if sum := l.Summary(); sum == noOps {
			c.Writer.Header()[StorageOpsHeader] = noOpsValue // the common case, without an allocation
		} else {
			c.Writer.Header()[StorageOpsHeader] = []string{sum}
		}
	}
}

// noOps is the summary of a request that touched no store; noOpsValue is it as a header value,
// shared by every response (net/http never changes a header's value slice in place).
const noOps = "0 ops"

var noOpsValue = []string{noOps}

// StorageOps is the middleware that gives each request an OpLog and sets the Storage-Ops header
// when the response starts. It runs on every route, so the log and the writer wrapper share one
// allocation.
// detailAsked reports whether a request asks for its whole record of operations.
func detailAsked(h http.Header) bool {
	v := h[StorageOpsDetailHeader]
	return len(v) > 0 && v[0] == "json"
}

func StorageOps() gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := c.Request.Context()
		if OpsFrom(ctx) != nil { // installed already, further out
			c.Next()
			return
		}
		st := &opsState{w: opsWriter{ResponseWriter: c.Writer, c: c}}
		// An API response sends the counts in its header, and the whole record only when
		// asked (Storage-Ops-Detail: json): the storages then skip describing each call.
		st.log.brief = strings.HasPrefix(c.Request.URL.Path, "/api/") && !detailAsked(c.Request.Header)
		c.Request = c.Request.WithContext(oplog.With(ctx, &st.log))
		c.Writer = &st.w
		c.Next()
		// A response without a body (204, a bare status) is written by gin after the
		// handlers, past this wrapper: set the header while it can still go out.
		st.w.before()
	}
}

type opsState struct {
	log OpLog
	w   opsWriter
}

// opsWriter sets the header just before the first byte of the body goes out.
type opsWriter struct {
	gin.ResponseWriter
	c *gin.Context
}

func (w *opsWriter) before() {
	if !w.ResponseWriter.Written() {
		SetOpsHeader(w.c)
	}
}

func (w *opsWriter) WriteHeaderNow() { w.before(); w.ResponseWriter.WriteHeaderNow() }

func (w *opsWriter) Write(b []byte) (int, error) { w.before(); return w.ResponseWriter.Write(b) }

func (w *opsWriter) WriteString(s string) (int, error) {
	w.before()
	return w.ResponseWriter.WriteString(s)
}
