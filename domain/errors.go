// Package domain holds Twissandra's entities, value types and rules. It imports nothing of the
// project's own: ports, adapters and the web layer depend on it, never the other way round.
package domain

import (
	"errors"
	"fmt"
	"time"
)

// Sentinel errors. Adapters translate their storage's conditions into these (wrapping the
// original with %w), and the web layer maps them to status codes with errors.Is.
var (
	// ErrInvalid marks input that breaks a rule; ValidationError wraps it with details.
	ErrInvalid = errors.New("invalid input")
	// ErrNotFound: the thing asked for does not exist.
	ErrNotFound = errors.New("not found")
	// ErrAlreadyExists: a create lost to an existing record (a taken username, a duplicate slug).
	ErrAlreadyExists = errors.New("already exists")
	// ErrUnauthenticated: missing, bad or expired credentials.
	ErrUnauthenticated = errors.New("unauthenticated")
	// ErrForbidden: authenticated, but acting on someone else's data.
	ErrForbidden = errors.New("forbidden")
	// ErrUnavailable: the storage cannot answer now (node down, timeout); retrying may work.
	ErrUnavailable = errors.New("storage unavailable")
	// ErrTooManyAttempts: the client tried too often (failed log-ins); a RetryError says when
	// it may try again.
	ErrTooManyAttempts = errors.New("too many attempts")
)

// RetryError refuses an attempt until After has passed. It matches ErrTooManyAttempts.
type RetryError struct {
	After   time.Duration
	Message string
}

func (e *RetryError) Error() string { return e.Message }

// Is makes every RetryError match ErrTooManyAttempts.
func (e *RetryError) Is(target error) bool { return target == ErrTooManyAttempts }

// ValidationError says which field broke which rule. It matches ErrInvalid under errors.Is.
type ValidationError struct {
	Field   string
	Message string
}

func (e *ValidationError) Error() string {
	if e.Field == "" {
		return e.Message
	}
	return fmt.Sprintf("%s: %s", e.Field, e.Message)
}

// Is makes every ValidationError match ErrInvalid.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

// Invalid builds a ValidationError.
func Invalid(field, format string, args ...any) error {
	return &ValidationError{Field: field, Message: fmt.Sprintf(format, args...)}
}
