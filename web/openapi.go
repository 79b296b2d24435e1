package web

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"twissandra/web/openapi"
)

// openAPIRoutes serves the OpenAPI description of the JSON API at /api/v1/openapi.json.
func (s *Server) openAPIRoutes() {
	s.API.GET("/openapi.json", func(c *gin.Context) {
		c.Header("Cache-Control", "public, max-age=300")
		c.Data(http.StatusOK, jsonContentType, openapi.Document)
	})
}
