package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/go-playground/validator/v10"

	"twissandra/domain"
)

// Error slugs: the "error" field of every JSON error body.
const (
	SlugInvalid         = "invalid"
	SlugUnauthenticated = "unauthenticated"
	SlugForbidden       = "forbidden"
	SlugNotFound        = "not_found"
	SlugMethodNotAllow  = "method_not_allowed"
	SlugAlreadyExists   = "already_exists"
	SlugBodyTooLarge    = "body_too_large"
	SlugUnavailable     = "unavailable"
	SlugInternal        = "internal"
)

// ErrorBody is the JSON body of every error response.
type ErrorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// Problem is what an error means to a client: the status, the slug and a message safe to show.
type Problem struct {
	Status  int
	Slug    string
	Message string
}

// messageError wraps one of the domain's sentinel errors with a message written for clients, so
// handlers can say "username is taken" without the mapping knowing every case.
type messageError struct {
	kind error
	msg  string
}

func (e *messageError) Error() string { return e.msg }
func (e *messageError) Unwrap() error { return e.kind }

// clientError returns an error matching kind (a domain sentinel) whose message MapError shows.
func clientError(kind error, format string, args ...any) error {
	return &messageError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// MapError is the one place that turns an error into a status code, slug and client message.
// Messages of storage and internal errors stay generic: their details only go to the log.
func MapError(err error) Problem {
	var (
		msgErr   *messageError
		valErr   *domain.ValidationError
		tooLarge *http.MaxBytesError
	)
	p := Problem{Status: http.StatusInternalServerError, Slug: SlugInternal, Message: "internal error"}
	switch {
	case errors.As(err, &tooLarge):
		return Problem{http.StatusRequestEntityTooLarge, SlugBodyTooLarge,
			fmt.Sprintf("request body must be at most %d bytes", tooLarge.Limit)}
	case errors.As(err, &valErr):
		return Problem{http.StatusBadRequest, SlugInvalid, valErr.Error()}
	case errors.Is(err, domain.ErrInvalid):
		p = Problem{http.StatusBadRequest, SlugInvalid, "invalid input"}
	case errors.Is(err, domain.ErrUnauthenticated):
		p = Problem{http.StatusUnauthorized, SlugUnauthenticated, "authentication required"}
	case errors.Is(err, domain.ErrForbidden):
		p = Problem{http.StatusForbidden, SlugForbidden, "forbidden"}
	case errors.Is(err, domain.ErrNotFound):
		p = Problem{http.StatusNotFound, SlugNotFound, "not found"}
	case errors.Is(err, domain.ErrAlreadyExists):
		p = Problem{http.StatusConflict, SlugAlreadyExists, "already exists"}
	case errors.Is(err, domain.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		p = Problem{http.StatusServiceUnavailable, SlugUnavailable, "service unavailable, try again later"}
	default:
		return p
	}
	if errors.As(err, &msgErr) {
		p.Message = msgErr.msg
	}
	return p
}

// WriteError maps err and writes it as a JSON error, aborting the handler chain. Server errors
// (5xx) are logged with their details.
func (s *Server) WriteError(c *gin.Context, err error) {
	p := MapError(err)
	if p.Status >= 500 {
		s.log.LogAttrs(c.Request.Context(), slog.LevelError, "request failed",
			slog.String("method", c.Request.Method),
			slog.String("path", c.Request.URL.Path),
			slog.Int("status", p.Status),
			slog.Any("error", err))
	}
	if p.Status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", `Bearer realm="twissandra"`)
	}
	c.AbortWithStatusJSON(p.Status, ErrorBody{Error: p.Slug, Message: p.Message})
}

// bindJSON decodes the request body into dst and runs its `binding` validation tags; every
// failure is a domain.ValidationError (400) except an oversized body (413).
func bindJSON(c *gin.Context, dst any) error {
	err := c.ShouldBindJSON(dst)
	if err == nil {
		return nil
	}
	var (
		tooLarge  *http.MaxBytesError
		fieldErrs validator.ValidationErrors
		typeErr   *json.UnmarshalTypeError
		syntaxErr *json.SyntaxError
	)
	switch {
	case errors.As(err, &tooLarge):
		return err
	case errors.As(err, &fieldErrs) && len(fieldErrs) > 0:
		fe := fieldErrs[0]
		field := strings.ToLower(fe.Field())
		if fe.Tag() == "required" {
			return domain.Invalid(field, "is required")
		}
		return domain.Invalid(field, "is invalid")
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return domain.Invalid("", "request body must be a JSON object")
		}
		return domain.Invalid(typeErr.Field, "must be a JSON %s", jsonKind(typeErr.Type.Kind().String()))
	case errors.As(err, &syntaxErr):
		return domain.Invalid("", "request body is not valid JSON (at byte %d)", syntaxErr.Offset)
	case errors.Is(err, io.EOF):
		return domain.Invalid("", "request body must be a JSON object")
	default:
		return domain.Invalid("", "request body is not valid JSON")
	}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "string"
	case "struct", "map":
		return "object"
	case "slice", "array":
		return "array"
	case "bool":
		return "boolean"
	default:
		return "number"
	}
}
