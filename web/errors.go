package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"
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
	SlugUnsupportedType = "unsupported_media_type"
	SlugTooManyRequests = "too_many_requests"
	SlugClientClosed    = "client_closed"
	SlugUnavailable     = "unavailable"
	SlugInternal        = "internal"
)

// StatusClientClosed is the status of a request whose client went away before its answer:
// nginx's 499, so that a client closing its connection is counted as what it is, not as the
// storage failing.
const StatusClientClosed = 499

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
		retry    *domain.RetryError
	)
	p := Problem{Status: http.StatusInternalServerError, Slug: SlugInternal, Message: "internal error"}
	switch {
	case errors.As(err, &tooLarge):
		return Problem{http.StatusRequestEntityTooLarge, SlugBodyTooLarge,
			fmt.Sprintf("request body must be at most %d bytes", tooLarge.Limit)}
	case errors.Is(err, errNotJSON):
		return Problem{http.StatusUnsupportedMediaType, SlugUnsupportedType, errNotJSON.Error()}
	case errors.As(err, &retry):
		return Problem{http.StatusTooManyRequests, SlugTooManyRequests, retry.Message}
	case errors.Is(err, context.Canceled):
		// Before ErrUnavailable, which the stores wrap a cancelled call in: here the request's
		// own context ended, because its client left.
		return Problem{StatusClientClosed, SlugClientClosed, "the client closed the request"}
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
	if after, ok := RetryAfter(err); ok {
		c.Header("Retry-After", after)
	}
	c.AbortWithStatusJSON(p.Status, ErrorBody{Error: p.Slug, Message: p.Message})
}

// RetryAfter is the Retry-After header of err, in seconds, when err says when to try again.
func RetryAfter(err error) (string, bool) {
	var retry *domain.RetryError
	if !errors.As(err, &retry) {
		return "", false
	}
	return strconv.Itoa(max(1, int(retry.After/time.Second))), true
}

// errNotJSON is a request body sent without the JSON content type.
var errNotJSON = errors.New("the request body must be sent as Content-Type: application/json")

// bindJSON decodes the request body into dst and runs its `binding` validation tags. The body
// must be sent as JSON (415 otherwise) and be one JSON value, with no key twice in an object,
// whatever its case (encoding/json would keep the last of two "username" keys: a client meant
// one of them, and the server must not guess which) and nothing after it; every failure is a
// domain.ValidationError (400) except an oversized body (413).
func bindJSON(c *gin.Context, dst any) error {
	if c.ContentType() != "application/json" {
		return errNotJSON
	}
	body, err := io.ReadAll(c.Request.Body)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return err
	}
	if err != nil {
		return domain.Invalid("", "request body could not be read")
	}
	if err := strictJSON(body); err != nil {
		return err
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return jsonProblem(err)
	}
	if err := binding.Validator.ValidateStruct(dst); err != nil {
		return jsonProblem(err)
	}
	return nil
}

// jsonProblem is the validation error of a body that decoded badly or failed its tags.
func jsonProblem(err error) error {
	var (
		fieldErrs validator.ValidationErrors
		typeErr   *json.UnmarshalTypeError
		syntaxErr *json.SyntaxError
	)
	switch {
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
	default:
		return domain.Invalid("", "request body is not valid JSON")
	}
}

// strictJSON checks that b is one JSON value, with no key twice in any object and nothing but
// white space after it.
func strictJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	// keys holds the keys seen in each object being read, innermost last; an array is nil.
	type level struct {
		keys   map[string]bool
		object bool
		key    bool // the next string token of this object is a key
	}
	var stack []level
	values := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var syntaxErr *json.SyntaxError
			if errors.As(err, &syntaxErr) {
				if values > 0 && len(stack) == 0 {
					return domain.Invalid("", "request body must hold one JSON value, and nothing after it")
				}
				return domain.Invalid("", "request body is not valid JSON (at byte %d)", syntaxErr.Offset)
			}
			if values == 0 {
				return domain.Invalid("", "request body must be a JSON object")
			}
			return domain.Invalid("", "request body is not valid JSON")
		}
		if len(stack) == 0 && values > 0 {
			return domain.Invalid("", "request body must hold one JSON value, and nothing after it")
		}
		top := len(stack) - 1
		if top >= 0 && stack[top].object && stack[top].key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:top]
				if len(stack) == 0 {
					values++
				} else {
					stack[len(stack)-1].key = true
				}
				continue
			}
			// encoding/json matches a field's name ignoring case, so "username" and
			// "Username" would fill one field: they are the same key twice.
			k := tok.(string) // a decoder hands an object's keys as strings
			folded := strings.ToLower(k)
			if stack[top].keys[folded] {
				return domain.Invalid(k, "appears twice in one object: send each key once")
			}
			stack[top].keys[folded] = true
			stack[top].key = false
			continue
		}
		switch d, _ := tok.(json.Delim); d {
		case '{':
			stack = append(stack, level{keys: map[string]bool{}, object: true, key: true})
			continue
		case '[':
			stack = append(stack, level{})
			continue
		case '}', ']':
			stack = stack[:top]
		}
		// A value ends: of the body, or of an object's key, after which a key comes again.
		if len(stack) == 0 {
			values++
		} else if stack[len(stack)-1].object {
			stack[len(stack)-1].key = true
		}
	}
	if values == 0 {
		return domain.Invalid("", "request body must be a JSON object")
	}
	return nil
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
