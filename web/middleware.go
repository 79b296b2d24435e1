package web

import (
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// requestLogger logs one line per request: at Debug when it went well, at Info when it was
// slower than slow (0: never) or the handler attached an error, at Error when it answered 5xx.
// A busy server at the default level (info) thus logs what needs a look, not every page. When
// the logger drops Debug records, a request costs one Enabled call and a clock reading.
func requestLogger(log *slog.Logger, slow time.Duration) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := c.Request.Context()
		// Only a logger that keeps Info records can log a slow request: time the others not.
		timed := log.Enabled(ctx, slog.LevelInfo)
		var start time.Time
		if timed {
			start = time.Now()
		}
		c.Next()
		var took time.Duration
		if timed {
			took = time.Since(start)
		}
		status := c.Writer.Status()
		level := slog.LevelDebug
		switch {
		case status >= 500:
			level = slog.LevelError
		case len(c.Errors) > 0 || (timed && slow > 0 && took >= slow):
			level = slog.LevelInfo
		}
		if !log.Enabled(ctx, level) {
			return
		}
		attrs := []slog.Attr{
			slog.String("method", c.Request.Method),
			slog.String("path", c.Request.URL.Path),
			slog.String("route", c.FullPath()),
			slog.Int("status", status),
			slog.Int("bytes", c.Writer.Size()),
			slog.Duration("duration", took),
			slog.String("client_ip", c.ClientIP()),
		}
		if slow > 0 && took >= slow {
			attrs = append(attrs, slog.Bool("slow", true))
		}
		if len(c.Errors) > 0 {
			attrs = append(attrs, slog.String("errors", c.Errors.String()))
		}
		log.LogAttrs(ctx, level, "http request", attrs...)
	}
}

// Recovery turns a panic into a logged 500: it logs msg with the request and the panic's stack,
// then, unless the response has started, lets answer write the 500 (the JSON API's error body, an
// HTML error page), and aborts the chain. http.ErrAbortHandler is re-raised: it is net/http's
// way to abort a response on purpose.
func Recovery(log *slog.Logger, msg string, answer gin.HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			if r == http.ErrAbortHandler {
				panic(r)
			}
			log.LogAttrs(c.Request.Context(), slog.LevelError, msg,
				slog.String("method", c.Request.Method),
				slog.String("path", c.Request.URL.Path),
				slog.Any("panic", r),
				slog.String("stack", string(debug.Stack())))
			if !c.Writer.Written() {
				answer(c)
			}
			c.Abort()
		}()
		c.Next()
	}
}

// noSniff tells browsers to take every response as the type it says it is, API, static files
// and metrics included (the pages set it with their other headers).
func noSniff(c *gin.Context) {
	c.Header("X-Content-Type-Options", "nosniff")
	c.Next()
}

// internalError is the JSON API's answer to a panic: a generic 500.
func internalError(c *gin.Context) {
	c.AbortWithStatusJSON(http.StatusInternalServerError, ErrorBody{Error: SlugInternal, Message: "internal error"})
}

// bodyLimit refuses bodies declared larger than max at once and caps the rest while they are
// read; reading past the cap fails with *http.MaxBytesError, which MapError turns into 413.
//
// A refused body is then drained (drainRefusedBody): a client that sends its whole body before
// it reads, as Python's urllib does, must find the 413 waiting, not a connection reset by a
// server that closed with unread bytes in its socket.
func bodyLimit(s *Server, max int64, readTimeout time.Duration) gin.HandlerFunc {
	return func(c *gin.Context) {
		body := c.Request.Body
		if readTimeout > 0 && body != nil && body != http.NoBody {
			// The body must arrive within readTimeout, however slowly it trickles.
			_ = http.NewResponseController(c.Writer).SetReadDeadline(time.Now().Add(readTimeout))
		}
		if c.Request.ContentLength > max {
			c.Header("Connection", "close")
			refused := &http.MaxBytesError{Limit: max}
			if s.pagesRefuse && !strings.HasPrefix(c.Request.URL.Path, "/api/") {
				// The pages answer it, with their own error page (RefusedBody).
				c.Set(refusedBodyKey, error(refused))
				c.Request.Body = http.NoBody
				c.Next()
			} else {
				s.WriteError(c, refused)
			}
			drainRefusedBody(c, body)
			return
		}
		if body != nil && body != http.NoBody {
			c.Request.Body = http.MaxBytesReader(c.Writer, body, max)
		}
		c.Next()
		if c.Writer.Status() == http.StatusRequestEntityTooLarge {
			drainRefusedBody(c, body)
		}
	}
}

// How much of a refused body the server reads and throws away, and for how long, before it
// closes the connection. A client still sending past either bound may see its connection
// reset; a body up to DrainRefusedBytes sent at any reasonable speed always gets its 413.
const (
	DrainRefusedBytes   = 16 << 20
	drainRefusedTimeout = 10 * time.Second
)

// drainRefusedBody sends the answer already written, then reads what the client still sends of
// body, up to DrainRefusedBytes and drainRefusedTimeout, so that the connection closes with
// nothing unread (no RST).
func drainRefusedBody(c *gin.Context, body io.ReadCloser) {
	if body == nil || body == http.NoBody {
		return
	}
	c.Writer.Flush()
	rc := http.NewResponseController(c.Writer)
	_ = rc.SetReadDeadline(time.Now().Add(drainRefusedTimeout))
	_, _ = io.CopyN(io.Discard, body, DrainRefusedBytes)
}

// claimsKey is the gin context key under which RequireAuth stores the token's Claims.
const claimsKey = "twissandra.web.claims"

// RequireAuth is the bearer-token middleware: it answers 401 unless the request carries a valid,
// unexpired, unrevoked token, and stores the token's Claims for ClaimsFrom.
func (s *Server) RequireAuth(c *gin.Context) {
	claims, err := s.authenticate(c)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	c.Set(claimsKey, claims)
	c.Next()
}

// authenticate reads the request's bearer token: its claims, when it is well formed, signed by
// this server, unexpired and its session not ended.
func (s *Server) authenticate(c *gin.Context) (Claims, error) {
	raw, err := bearerToken(c.GetHeader("Authorization"))
	if err != nil {
		return Claims{}, err
	}
	claims, err := s.Tokens.Parse(raw)
	if err != nil {
		return Claims{}, err
	}
	ended, err := s.sessions.ended(c.Request.Context(), SessionID(claims.ID), claims.ExpiresAt)
	if err == nil && ended {
		err = ErrTokenRevoked
	}
	if err != nil {
		return Claims{}, err
	}
	return claims, nil
}

// ClaimsFrom returns the Claims RequireAuth stored; ok is false on routes without it.
func ClaimsFrom(c *gin.Context) (Claims, bool) {
	v, ok := c.Get(claimsKey)
	if !ok {
		return Claims{}, false
	}
	claims, ok := v.(Claims)
	return claims, ok
}
