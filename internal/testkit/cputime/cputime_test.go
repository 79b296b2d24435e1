package cputime

import (
	"errors"
	"fmt"
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

// spin works until the process's CPU time has grown by d.
func spin(d time.Duration) func() error {
	return func() error {
		start := Process()
		deadline := time.Now().Add(10 * time.Second)
		for x := 0; Process()-start < d; x++ {
			if time.Now().After(deadline) {
				return fmt.Errorf("10 s of work did not use %v of CPU (%d)", d, x)
			}
		}
		return nil
	}
}

type reported struct {
	metrics map[string]float64
	fatal   []any
}

func (r *reported) Fatal(args ...any)                   { r.fatal = args }
func (r *reported) ReportMetric(n float64, unit string) { r.metrics[unit] = n }

func TestMeterComparesWithTheLast(t *testing.T) {
	m := NewMeter("heavy", "light")
	for range 2 {
		m.Measure(0, spin(30*time.Millisecond))
		m.Measure(1, spin(10*time.Millisecond))
	}
	// What a phase leaves is charged to it, and is no operation of its own.
	m.Charge(0, spin(20*time.Millisecond))
	r := &reported{metrics: map[string]float64{}}
	m.Report(r)
	if r.fatal != nil {
		t.Fatal(r.fatal...)
	}
	if got := r.metrics["heavy/light-cpu"]; got < 2.5 {
		t.Errorf("heavy/light-cpu = %v, want at least 2.5 (80 ms of CPU over 2 operations against 20): %v", got, r.metrics)
	}
	if got := r.metrics["heavy-cpu-ms/op"]; got < 40 {
		t.Errorf("heavy-cpu-ms/op = %v, want at least 40: %v", got, r.metrics)
	}
	if _, ok := r.metrics["light/light-cpu"]; ok {
		t.Errorf("the last operation is compared with itself: %v", r.metrics)
	}
	if got := r.metrics["heavy/light-cpu-ops"]; got < 2.5 || got >= r.metrics["heavy/light-cpu"] {
		t.Errorf("heavy/light-cpu-ops = %v, want at least 2.5 (60 ms of CPU over 2 operations against 20) and less than with the charge: %v", got, r.metrics)
	}
	if len(r.metrics) != 5 {
		t.Errorf("reported %v, want two operations' CPU and heavy's three ratios", r.metrics)
	}
}

func TestMeterReportsTheFirstError(t *testing.T) {
	m := NewMeter("ok", "broken")
	m.Measure(0, func() error { return nil })
	m.Measure(1, func() error { return errors.New("disk full") })
	m.Measure(1, func() error { return errors.New("disk on fire") })
	r := &reported{metrics: map[string]float64{}}
	m.Report(r)
	if len(r.fatal) != 1 || fmt.Sprint(r.fatal...) != "broken: disk full" {
		t.Fatalf("Report failed with %v, want the error of broken", r.fatal)
	}
	if len(r.metrics) != 0 {
		t.Fatalf("a failed run reported %v", r.metrics)
	}
}
