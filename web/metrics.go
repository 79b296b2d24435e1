package web

import (
	"github.com/gin-gonic/gin"

	"twissandra/web/metrics"
)

// httpMetrics times every request into the process's metrics (see package web/metrics).
func httpMetrics() gin.HandlerFunc { return metrics.Default().Middleware() }

// metricsRoutes serves the process's metrics to Prometheus.
func (s *Server) metricsRoutes() {
	s.Engine.GET("/metrics", gin.WrapH(metrics.Default().Handler()))
}
