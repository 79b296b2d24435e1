package web

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"twissandra/ports/oplog"

	"github.com/gin-gonic/gin"
)

func TestOpLogMiddleware(t *testing.T) {
	t.Parallel()
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.Use(OpLog())
	e.GET("/json", func(c *gin.Context) {
		oplog.Record(c.Request.Context(), oplog.Op{Text: "get user bob -> 1"})
		c.JSON(http.StatusOK, gin.H{"ok": true})
	})
	// A bodiless answer (a follow's 204) is written by gin after the handlers: it states its
	// operations too.
	e.GET("/empty", func(c *gin.Context) {
		oplog.Record(c.Request.Context(), oplog.Op{Text: "follow bob -> alice"})
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

// opCounts reads a Storage-Ops summary ("4 ops: get=1 slice=3", or "0 ops") into the count of
// each kind of operation, so that a test says which operations it means (a user page's three
// slices) and a kind it is not about (a new note) breaks it not. The summary must be well
// formed: its total the sum of its counts.
func opCounts(t testing.TB, summary string) map[string]int {
	t.Helper()
	head, kinds, _ := strings.Cut(summary, ":")
	total, ok := strings.CutSuffix(head, " ops")
	n, err := strconv.Atoi(total)
	if !ok || err != nil {
		t.Fatalf("Storage-Ops %q: not a summary", summary)
	}
	counts, sum := map[string]int{}, 0
	for _, kv := range strings.Fields(kinds) {
		k, v, _ := strings.Cut(kv, "=")
		c, err := strconv.Atoi(v)
		if err != nil || c < 1 || k == "" || counts[k] != 0 {
			t.Fatalf("Storage-Ops %q: %q is not kind=count", summary, kv)
		}
		counts[k], sum = c, sum+c
	}
	if sum != n {
		t.Fatalf("Storage-Ops %q: %d ops, counted %d", summary, n, sum)
	}
	return counts
}
