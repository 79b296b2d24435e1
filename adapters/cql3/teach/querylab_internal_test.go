package teach

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// A lab's run refused for the cluster's budget reads as a retry, however it is wrapped: the one
// error mapping answers it 429 with Retry-After (an exercise graded through the API answered
// it 500 before), and it is still the lessons' ErrTooManyTrials.
func TestLabBusyReadsAsARetry(t *testing.T) {
	busy := fmt.Errorf("counters-3: %w", &LabBusyError{Why: "the counters lesson has reached its bound of 30 runs a minute on this cluster", After: 2500 * time.Millisecond, Run: true})
	var re *domain.RetryError
	if !errors.As(busy, &re) {
		t.Fatal("a busy lab is not a *domain.RetryError")
	}
	if re.After != 3*time.Second || re.Message != (&LabBusyError{Why: "the counters lesson has reached its bound of 30 runs a minute on this cluster", After: 2500 * time.Millisecond, Run: true}).Error() {
		t.Errorf("retry = %v %q", re.After, re.Message)
	}
	if !errors.Is(busy, teaching.ErrTooManyTrials) || !errors.Is(busy, domain.ErrTooManyAttempts) {
		t.Error("a busy lab is no longer a kind of ErrTooManyTrials and ErrTooManyAttempts")
	}
	if errors.As(errors.New("other"), &re) {
		t.Error("any error reads as a retry")
	}
}
