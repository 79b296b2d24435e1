package web

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

// Recovery answers a panic with what its caller says, once, logs it, and lets net/http's
// deliberate abort through.
func TestRecovery(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	e := gin.New()
	answered := 0
	e.Use(Recovery(log, "panic serving page", func(c *gin.Context) {
		answered++
		c.Data(http.StatusInternalServerError, "text/html; charset=utf-8", []byte("<h1>Something went wrong</h1>"))
	}))
	e.GET("/boom", func(*gin.Context) { panic("kaboom") })
	e.GET("/half", func(c *gin.Context) {
		c.String(http.StatusOK, "half a page")
		panic("kaboom after writing")
	})
	e.GET("/abort", func(*gin.Context) { panic(http.ErrAbortHandler) })

	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/boom", nil))
	if rec.Code != http.StatusInternalServerError || rec.Body.String() != "<h1>Something went wrong</h1>" || answered != 1 {
		t.Fatalf("panic: %d %q, answered %d times", rec.Code, rec.Body, answered)
	}
	for _, want := range []string{`"msg":"panic serving page"`, `"method":"GET"`, `"path":"/boom"`, `"panic":"kaboom"`, `"stack":`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %s: %s", want, logs.String())
		}
	}

	rec = httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/half", nil))
	if rec.Code != http.StatusOK || rec.Body.String() != "half a page" || answered != 1 {
		t.Fatalf("panic after the response started: %d %q, answered %d times", rec.Code, rec.Body, answered)
	}

	defer func() {
		if r := recover(); r != http.ErrAbortHandler {
			t.Fatalf("http.ErrAbortHandler was not re-raised: %v", r)
		}
	}()
	e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/abort", nil))
	t.Fatal("no panic")
}
