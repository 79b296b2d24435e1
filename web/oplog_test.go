package web

import (
	"net/http"
	"net/http/httptest"
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
