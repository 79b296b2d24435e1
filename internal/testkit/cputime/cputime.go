// Package cputime reads the CPU time of this process, for benchmarks that report it beside the
// wall time: on a shared machine the wall time grows when others borrow the CPU, the CPU time
// does not, and it counts every goroutine (a storage engine's background flushes included).
package cputime

import (
	"fmt"
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

// Meter sums the process CPU and the wall time of the operations a benchmark compares, each
// under a name, and reports their ratios: on a machine others share, ratios measured in one
// run hold where absolute times do not.
//
// The process CPU of an interval counts whatever background work runs in it, such as a
// storage engine's flushes and compactions, whichever operation caused them. Interleaving
// operations on several stores gives the background work to the longer operations; a fair
// comparison runs each operation's phase on a store of its own, one phase after another, and
// ends each phase with Charge: its store's outstanding work done (flushed, compacted) and
// counted as the phase's.
type Meter struct {
	names     []string
	cpu, wall []time.Duration
	charged   []time.Duration // the CPU of cpu that Charge added
	n         []int
	err       error
}

// NewMeter measures the operations named; the last is the one the others are held to.
func NewMeter(names ...string) *Meter {
	k := len(names)
	return &Meter{names: names, cpu: make([]time.Duration, k), wall: make([]time.Duration, k), charged: make([]time.Duration, k), n: make([]int, k)}
}

// Charge runs work and adds what it took to operation i without counting an operation: the
// background work its phase left, done now.
func (m *Meter) Charge(i int, work func() error) {
	before := m.cpu[i]
	m.Measure(i, work)
	m.n[i]--
	m.charged[i] += m.cpu[i] - before
}

// Measure runs op as operation i and adds what it took. The first error is kept for Report.
func (m *Meter) Measure(i int, op func() error) {
	c0, t0 := Process(), time.Now()
	if err := op(); err != nil && m.err == nil {
		m.err = fmt.Errorf("%s: %w", m.names[i], err)
	}
	m.wall[i] += time.Since(t0)
	m.cpu[i] += Process() - c0
	m.n[i]++
}

// Reporter is what Report needs of a *testing.B.
type Reporter interface {
	Fatal(args ...any)
	ReportMetric(n float64, unit string)
}

// Report fails b with the first error, or reports each operation's CPU per operation and each
// one's CPU and wall time per operation against the last's: "post/floor-cpu" and
// "post/floor-wall"; where work was charged, also their CPU without it, "post/floor-cpu-ops".
func (m *Meter) Report(b Reporter) {
	if m.err != nil {
		b.Fatal(m.err)
		return
	}
	last := len(m.names) - 1
	for i, name := range m.names {
		if m.n[i] == 0 {
			continue
		}
		b.ReportMetric(float64(m.cpu[i].Microseconds())/1000/float64(m.n[i]), name+"-cpu-ms/op")
		if i != last && m.n[last] > 0 && m.cpu[last] > 0 && m.wall[last] > 0 {
			per := float64(m.n[last]) / float64(m.n[i])
			b.ReportMetric(per*float64(m.cpu[i])/float64(m.cpu[last]), name+"/"+m.names[last]+"-cpu")
			b.ReportMetric(per*float64(m.wall[i])/float64(m.wall[last]), name+"/"+m.names[last]+"-wall")
			if ops, lastOps := m.cpu[i]-m.charged[i], m.cpu[last]-m.charged[last]; (m.charged[i] > 0 || m.charged[last] > 0) && lastOps > 0 {
				b.ReportMetric(per*float64(ops)/float64(lastOps), name+"/"+m.names[last]+"-cpu-ops")
			}
		}
	}
}
