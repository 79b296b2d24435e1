package web

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

// requestLines returns the "http request" records logged so far.
func requestLines(t *testing.T, logs string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(logs) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if rec["msg"] == "http request" {
			out = append(out, rec)
		}
	}
	return out
}

// At the default level (info) a request that went well leaves no line; a slow one, one that
// failed with 5xx, or one with an error attached does.
func TestRequestLogLevels(t *testing.T) {
	t.Parallel()
	logAt := func(level slog.Level, slow time.Duration) (*testEnv, *bytes.Buffer) {
		buf := &bytes.Buffer{}
		e := newEnvWith(t, Config{TokenSecret: testSecret, SlowRequest: slow}, func(d *Deps) {
			d.Logger = slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: level}))
		})
		e.srv.API.GET("/test/unavailable", func(c *gin.Context) { c.Status(http.StatusServiceUnavailable) })
		e.srv.API.GET("/test/noted", func(c *gin.Context) {
			_ = c.Error(errNoted)
			c.Status(http.StatusOK)
		})
		return e, buf
	}

	e, buf := logAt(slog.LevelInfo, time.Hour)
	e.do(http.MethodGet, "/api/v1/public", "", "")
	e.do(http.MethodGet, "/api/v1/users/nobody", "", "") // a 404 is an answer, not a server error
	if got := requestLines(t, buf.String()); len(got) != 0 {
		t.Fatalf("quick requests logged at info: %v", got)
	}
	e.do(http.MethodGet, "/api/v1/test/unavailable", "", "")
	e.do(http.MethodGet, "/api/v1/test/noted", "", "")
	got := requestLines(t, buf.String())
	if len(got) != 2 || got[0]["level"] != "ERROR" || got[0]["status"] != float64(503) ||
		got[1]["level"] != "INFO" || !strings.Contains(got[1]["errors"].(string), "noted") {
		t.Fatalf("a 5xx and an error: %v", got)
	}

	// Everything is slow from 1ns on: logged at info, marked slow.
	e, buf = logAt(slog.LevelInfo, time.Nanosecond)
	e.do(http.MethodGet, "/api/v1/public", "", "")
	if got := requestLines(t, buf.String()); len(got) != 1 || got[0]["level"] != "INFO" || got[0]["slow"] != true {
		t.Fatalf("a slow request: %v", got)
	}
	// A negative threshold: nothing is ever slow.
	e, buf = logAt(slog.LevelInfo, -1)
	e.do(http.MethodGet, "/api/v1/public", "", "")
	if got := requestLines(t, buf.String()); len(got) != 0 {
		t.Fatalf("slow-request off: %v", got)
	}
	// At debug every request is logged.
	e, buf = logAt(slog.LevelDebug, time.Hour)
	e.do(http.MethodGet, "/api/v1/public", "", "")
	if got := requestLines(t, buf.String()); len(got) != 1 || got[0]["level"] != "DEBUG" || got[0]["route"] != "/api/v1/public" {
		t.Fatalf("at debug: %v", got)
	}
}

var errNoted = &gin.Error{Err: http.ErrNotSupported, Type: gin.ErrorTypePrivate, Meta: "noted"}
