package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"twissandra/domain"
)

// errorForStatus returns an error that MapError maps to status.
func errorForStatus(status int) error {
	switch status {
	case 400:
		return domain.ErrInvalid
	case 401:
		return domain.ErrUnauthenticated
	case 403:
		return domain.ErrForbidden
	case 404:
		return domain.ErrNotFound
	case 409:
		return domain.ErrAlreadyExists
	case 413:
		return &http.MaxBytesError{Limit: 1}
	case 503:
		return domain.ErrUnavailable
	}
	return errors.New("other")
}

func TestMapError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		err     error
		status  int
		slug    string
		message string
	}{
		{"validation", domain.Invalid("body", "must not be empty"), 400, SlugInvalid, "body: must not be empty"},
		{"wrapped validation", fmt.Errorf("post: %w", domain.Invalid("limit", "too big")), 400, SlugInvalid, "limit: too big"},
		{"bare invalid", fmt.Errorf("cql3: bad cursor bytes 0x00: %w", domain.ErrInvalid), 400, SlugInvalid, "invalid input"},
		{"unauthenticated", fmt.Errorf("x: %w", domain.ErrUnauthenticated), 401, SlugUnauthenticated, "authentication required"},
		{"token", ErrTokenExpired, 401, SlugUnauthenticated, "bearer token has expired"},
		{"forbidden", domain.ErrForbidden, 403, SlugForbidden, "forbidden"},
		{"not found", fmt.Errorf("memory: user %q: %w", "x", domain.ErrNotFound), 404, SlugNotFound, "not found"},
		{"not found with message", clientError(domain.ErrNotFound, "user %q not found", "x"), 404, SlugNotFound, `user "x" not found`},
		{"already exists", fmt.Errorf("w: %w", domain.ErrAlreadyExists), 409, SlugAlreadyExists, "already exists"},
		{"unavailable", fmt.Errorf("cql3: no hosts: %w", domain.ErrUnavailable), 503, SlugUnavailable, "service unavailable, try again later"},
		{"deadline", fmt.Errorf("memory: %w", context.DeadlineExceeded), 503, SlugUnavailable, "service unavailable, try again later"},
		{"body too large", fmt.Errorf("bind: %w", &http.MaxBytesError{Limit: 65536}), 413, SlugBodyTooLarge, "request body must be at most 65536 bytes"},
		{"other", errors.New("pebble: corrupted sstable 000123"), 500, SlugInternal, "internal error"},
		{"client closed", fmt.Errorf("widerow get: %w: %w", domain.ErrUnavailable, context.Canceled), StatusClientClosed, SlugClientClosed, "the client closed the request"},
		{"too many attempts", &domain.RetryError{After: 30 * time.Second, Message: "wait 30 seconds"}, 429, SlugTooManyRequests, "wait 30 seconds"},
		{"nil-kind message error", &messageError{msg: "secret"}, 500, SlugInternal, "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := MapError(tt.err)
			if got != (Problem{tt.status, tt.slug, tt.message}) {
				t.Fatalf("MapError(%v) = %+v, want %d %s %q", tt.err, got, tt.status, tt.slug, tt.message)
			}
		})
	}
}
