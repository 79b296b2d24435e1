package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"twissandra/ports/oplog"

	"github.com/gin-gonic/gin"
)

func TestOpLog(t *testing.T) {
	t.Parallel()
	RecordOp(context.Background(), oplog.Op{Text: "slice nothing"}) // no log: ignored
	ctx := WithOps(context.Background())
	var wg sync.WaitGroup
	for i := range MaxRecordedOps + 10 {
		wg.Go(func() {
			if i%2 == 0 {
				RecordOp(ctx, oplog.Op{Text: fmt.Sprintf("slice line %d", i)})
			} else {
				RecordOp(ctx, oplog.Op{Text: fmt.Sprintf("multiget tweets %d", i)})
			}
		})
	}
	wg.Wait()
	l := OpsFrom(ctx)
	ops, dropped := l.Ops()
	if len(ops) != MaxRecordedOps || dropped != 10 || l.Len() != MaxRecordedOps+10 {
		t.Fatalf("kept %d, dropped %d, len %d", len(ops), dropped, l.Len())
	}
	if s := l.Summary(); s != "210 ops: slice=105 multiget=105" && s != "210 ops: multiget=105 slice=105" {
		t.Fatalf("summary %q", s)
	}
	var none *OpLog
	if none.Summary() != "0 ops" || none.Len() != 0 {
		t.Fatal("a nil log is not empty")
	}
}

// A brief log (an API request that does not ask for its record) counts its operations and
// keeps none of them.
func TestBriefOpLogCountsOnly(t *testing.T) {
	t.Parallel()
	l := &OpLog{brief: true}
	for _, text := range []string{"slice line", "multiget tweets", "slice line"} {
		l.Record(oplog.Op{Text: text})
	}
	ops, counted := l.Ops()
	if len(ops) != 0 || counted != 3 || l.Len() != 3 {
		t.Fatalf("kept %d, counted %d, len %d", len(ops), counted, l.Len())
	}
	if s := l.Summary(); s != "3 ops: slice=2 multiget=1" {
		t.Fatalf("summary %q", s)
	}
}

func TestStorageOpsMiddleware(t *testing.T) {
	t.Parallel()
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.Use(StorageOps())
	e.GET("/json", func(c *gin.Context) {
		RecordOp(c.Request.Context(), oplog.Op{Text: "get user bob -> 1"})
		c.JSON(http.StatusOK, gin.H{"ok": true})
	})
	// A bodiless answer (a follow's 204) is written by gin after the handlers: it states its
	// operations too.
	e.GET("/empty", func(c *gin.Context) {
		RecordOp(c.Request.Context(), oplog.Op{Text: "follow bob -> alice"})
		c.Status(http.StatusNoContent)
	})
	e.GET("/none", func(c *gin.Context) { c.Status(http.StatusNoContent) })
	for path, want := range map[string]string{"/json": "1 ops: get=1", "/empty": "1 ops: follow=1", "/none": "0 ops"} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if got := rec.Header().Get(StorageOpsHeader); got != want {
			t.Errorf("%s: Storage-Ops %q, want %q", path, got, want)
		}
	}
}
