package cputime

import (
	"testing"
	"time"
)

func TestProcessCountsWork(t *testing.T) {
	start := Process()
	if start <= 0 {
		t.Fatalf("Process() = %v: a running test has used some CPU", start)
	}
	// Spin until the counter moves (its resolution is the kernel's tick), bounded by a deadline
	// so that a broken counter fails rather than hangs.
	deadline := time.Now().Add(10 * time.Second)
	x := 0
	for Process() == start {
		for i := range 1_000_000 {
			x ^= i
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s of work did not move the process's CPU time (%d)", x)
		}
	}
	if got := Process(); got < start {
		t.Fatalf("CPU time went back: %v then %v", start, got)
	}
}

func TestPerOp(t *testing.T) {
	if got := PerOp(Process(), 0); got != 0 {
		t.Fatalf("PerOp over no operations = %v, want 0", got)
	}
	start := Process() - 10*time.Millisecond
	if got := PerOp(start, 2); got < 5 {
		t.Fatalf("PerOp of at least 10 ms over 2 operations = %v ms, want at least 5", got)
	}
}
