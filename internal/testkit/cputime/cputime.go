// Package cputime reads the CPU time of this process, for benchmarks that report it beside the
// wall time: on a shared machine the wall time grows when others borrow the CPU, the CPU time
// does not, and it counts every goroutine (a storage engine's background flushes included).
package cputime

import (
	"syscall"
	"time"
)

// Process is the user and system time this process has used so far (0 where the system
// does not say).
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// PerOp is the CPU time used since start, in milliseconds per operation, for
// b.ReportMetric(cputime.PerOp(start, b.N), "cpu-ms/op").
func PerOp(start time.Duration, ops int) float64 {
	if ops <= 0 {
		return 0
	}
	return float64((Process() - start).Microseconds()) / 1000 / float64(ops)
}
