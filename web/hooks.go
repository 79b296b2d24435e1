package web

import (
	"crypto/hkdf"
	"crypto/sha256"
	"fmt"
	"log/slog"

	"github.com/gin-gonic/gin"
)

// Hooks for route packages outside package web (the HTML pages): what they need of the server
// without reaching into its fields.

// DeriveKey returns n bytes derived from the server's token secret with HKDF-SHA256 and purpose
// as the info string, so every use of the secret (cookie signing, cookie encryption, CSRF) gets
// an independent key and no MAC made for one purpose verifies for another.
func (s *Server) DeriveKey(purpose string, n int) ([]byte, error) {
	if purpose == "" {
		return nil, fmt.Errorf("web: DeriveKey needs a purpose")
	}
	key, err := hkdf.Key(sha256.New, s.Tokens.secret, nil, "twissandra "+purpose, n)
	if err != nil {
		return nil, fmt.Errorf("web: derive %s key: %w", purpose, err)
	}
	return key, nil
}

// Logger is the server's logger (never nil).
func (s *Server) Logger() *slog.Logger { return s.log }

// MaxBodyBytes is the request body limit in force.
func (s *Server) MaxBodyBytes() int64 { return s.cfg.MaxBodyBytes }

// APINotFound answers the JSON API's 404, for a NoRoute handler that serves other paths itself.
func (s *Server) APINotFound(c *gin.Context) { s.noRoute(c) }

// APIMethodNotAllowed answers the JSON API's 405.
func (s *Server) APIMethodNotAllowed(c *gin.Context) { s.noMethod(c) }

// PagesAnswerRefusals tells the server that a request to a page (any path outside /api/) which
// it refuses before its handler (a body over the limit) is answered by the pages: the request
// goes on to the pages' middleware with no body, and RefusedBody says why, so that the pages'
// error page answers it with the pages' headers rather than the API's JSON.
func (s *Server) PagesAnswerRefusals() { s.pagesRefuse = true }

// refusedBodyKey holds, in a page request's context, the error of a body refused by bodyLimit.
const refusedBodyKey = "twissandra.refused-body"

// RefusedBody is the error of a page request whose body the server refused, or nil.
func RefusedBody(c *gin.Context) error {
	if err, ok := c.Get(refusedBodyKey); ok {
		return err.(error)
	}
	return nil
}
