package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// readyTimeout bounds how long /readyz waits for every pinger.
const readyTimeout = time.Second

func (s *Server) healthRoutes() {
	s.Engine.GET("/healthz", s.healthz)
	s.Engine.HEAD("/healthz", s.healthz)
	s.Engine.GET("/readyz", s.readyz)
}

// healthz answers while the process serves: liveness, with no dependency checked.
func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// readyz asks every pinger at once and answers 503 with the first failure's message unless all
// of them answer within readyTimeout.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), readyTimeout)
	defer cancel()
	errs := make(chan error, len(s.deps.Ready))
	for i, p := range s.deps.Ready {
		go func() {
			if err := p.Ping(ctx); err != nil {
				errs <- fmt.Errorf("dependency %d: %w", i, err)
				return
			}
			errs <- nil
		}()
	}
	for range s.deps.Ready {
		var err error
		select {
		case err = <-errs:
		case <-ctx.Done():
			err = fmt.Errorf("not ready within %s: %w", readyTimeout, ctx.Err())
		}
		if err != nil {
			s.log.LogAttrs(c.Request.Context(), slog.LevelWarn, "not ready", slog.Any("error", err))
			c.JSON(http.StatusServiceUnavailable, ErrorBody{Error: SlugUnavailable, Message: err.Error()})
			return
		}
	}
	c.JSON(http.StatusOK, gin.H{"status": "ready"})
}
