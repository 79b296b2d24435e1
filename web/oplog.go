package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/ports/oplog"
)

// The operation log of one request, for teaching: every storage call a request causes is
// recorded by the storage that made it, in its model's own words (package oplog), then shown in
// the page footer and summarised in the Storage-Ops header, so one action shows its cost in each
// data model.

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

// detailOf returns l as an OpsRecord.
func detailOf(l *oplog.Log) OpsRecord {
	ops, dropped := l.Ops()
	r := OpsRecord{Summary: l.Summary(), Ops: ops, Dropped: dropped}
	if r.Ops == nil {
		r.Ops = []oplog.Op{}
	}
	if model, shadow := l.Shadowed(); shadow != nil {
		s := detailOf(shadow)
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

// SetOpsHeader writes the summary of the request's operations so far into the Storage-Ops
// header. Handlers call it just before they write a response; the OpLog middleware calls
// it for responses written by others.
func SetOpsHeader(c *gin.Context) {
	if l := oplog.LogFrom(c.Request.Context()); l != nil {
		if model, shadow := l.Shadowed(); shadow != nil {
			c.Writer.Header().Set(StorageOpsHeader+"-Secondary", model+": "+shadow.Summary())
		}
		if detailAsked(c.Request.Header) {
			c.Writer.Header().Set(StorageOpsDetailHeader, detailJSON(detailOf(l)))
		}
		if sum := l.Summary(); sum == oplog.NoOps {
			c.Writer.Header()[StorageOpsHeader] = noOpsValue // the common case, without an allocation
		} else {
			c.Writer.Header()[StorageOpsHeader] = []string{sum}
		}
	}
}

// noOpsValue is oplog.NoOps as a header value, shared by every response (net/http never
// changes a header's value slice in place).
var noOpsValue = []string{oplog.NoOps}

// detailAsked reports whether a request asks for its whole record of operations.
func detailAsked(h http.Header) bool {
	v := h[StorageOpsDetailHeader]
	return len(v) > 0 && v[0] == "json"
}

// OpLog is the middleware that gives each request an oplog.Log and sets the Storage-Ops header
// when the response starts. It runs on every route, so the log and the writer wrapper share one
// allocation.
func OpLog() gin.HandlerFunc { return opLog(0) }

// opLog is OpLog that also bounds the writing of each response to writeTimeout from its first
// byte (0: no bound): a client that stops reading is dropped, with the buffers its response
// held, instead of holding them for as long as it likes.
func opLog(writeTimeout time.Duration) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := c.Request.Context()
		if oplog.LogFrom(ctx) != nil { // installed already, further out
			c.Next()
			return
		}
		st := &opsState{w: opsWriter{ResponseWriter: c.Writer, c: c, writeTimeout: writeTimeout}}
		// An API response sends the counts in its header, and the whole record only when
		// asked (Storage-Ops-Detail: json): the storages then skip describing each call.
		st.log.SetBrief(strings.HasPrefix(c.Request.URL.Path, "/api/") && !detailAsked(c.Request.Header))
		c.Request = c.Request.WithContext(oplog.With(ctx, &st.log))
		c.Writer = &st.w
		c.Next()
		// A response without a body (204, a bare status) is written by gin after the
		// handlers, past this wrapper: set the header while it can still go out.
		st.w.before()
	}
}

type opsState struct {
	log oplog.Log
	w   opsWriter
}

// opsWriter does what must happen just before the first byte of a response goes out: the
// Storage-Ops header, and the deadline of the response's writing.
type opsWriter struct {
	gin.ResponseWriter
	c            *gin.Context
	writeTimeout time.Duration
	started      bool
}

func (w *opsWriter) before() {
	if w.started {
		return
	}
	w.started = true
	if !w.ResponseWriter.Written() {
		SetOpsHeader(w.c)
	}
	if w.writeTimeout > 0 {
		_ = http.NewResponseController(w.ResponseWriter).SetWriteDeadline(time.Now().Add(w.writeTimeout))
	}
}

// Unwrap lets http.NewResponseController reach the connection's deadlines through the wrapper.
func (w *opsWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *opsWriter) WriteHeaderNow() { w.before(); w.ResponseWriter.WriteHeaderNow() }

func (w *opsWriter) Write(b []byte) (int, error) { w.before(); return w.ResponseWriter.Write(b) }

func (w *opsWriter) WriteString(s string) (int, error) {
	w.before()
	return w.ResponseWriter.WriteString(s)
}
