package teach

import (
	"testing"
	"time"
)

// A console is swept every minute, or every quarter of its idle bound when that is shorter, so
// that a sandbox is gone soon after the bound however short an operator sets it; never more
// often than every second.
func TestSweepEveryFollowsTheIdleBound(t *testing.T) {
	for _, c := range []struct{ idle, want time.Duration }{
		{30 * time.Minute, time.Minute},
		{2 * time.Minute, 30 * time.Second},
		{20 * time.Second, 5 * time.Second},
		{time.Second, time.Second},
	} {
		if got := SweepEvery(c.idle); got != c.want {
			t.Errorf("SweepEvery(%v) = %v, want %v", c.idle, got, c.want)
		}
	}
}
