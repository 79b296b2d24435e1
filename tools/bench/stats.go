package bench

import (
	"slices"
	"time"
)

// sample is one request: when it started (from the phase's start) and how long it took.
type sample struct {
	at, latency time.Duration
	ok          bool
}

// Stats summarises one phase.
type Stats struct {
	Name       string
	Requests   int
	Errors     int
	Elapsed    time.Duration
	Throughput float64 // successful requests per second
	P50        time.Duration
	P99        time.Duration
	P999       time.Duration
	Max        time.Duration
	// PerSecond has one bucket per second of the phase.
	PerSecond []Second
}

// Second is one second of a phase.
type Second struct {
	Requests int
	P50, P99 time.Duration
}

// percentile of sorted latencies by the nearest-rank method.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p*float64(len(sorted))+0.999999) - 1
	rank = max(0, min(rank, len(sorted)-1))
	return sorted[rank]
}

func summarise(name string, samples []sample, elapsed time.Duration) Stats {
	st := Stats{Name: name, Requests: len(samples), Elapsed: elapsed}
	lat := make([]time.Duration, 0, len(samples))
	secs := int(elapsed/time.Second) + 1
	perSec := make([][]time.Duration, secs)
	for _, s := range samples {
		if !s.ok {
			st.Errors++
			continue
		}
		lat = append(lat, s.latency)
		i := min(int(s.at/time.Second), secs-1)
		perSec[i] = append(perSec[i], s.latency)
	}
	slices.Sort(lat)
	st.P50, st.P99, st.P999 = percentile(lat, 0.50), percentile(lat, 0.99), percentile(lat, 0.999)
	if len(lat) > 0 {
		st.Max = lat[len(lat)-1]
	}
	if elapsed > 0 {
		st.Throughput = float64(len(lat)) / elapsed.Seconds()
	}
	// A last partial second would show as a dip in throughput: leave it out unless it is all.
	if secs > 1 && elapsed%time.Second < 500*time.Millisecond {
		perSec[secs-2] = append(perSec[secs-2], perSec[secs-1]...)
		perSec = perSec[:secs-1]
	}
	for _, l := range perSec {
		slices.Sort(l)
		st.PerSecond = append(st.PerSecond, Second{Requests: len(l), P50: percentile(l, 0.5), P99: percentile(l, 0.99)})
	}
	return st
}
