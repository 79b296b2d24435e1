package teach

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"twissandra/adapters/widerow/engine"
	"twissandra/ports/teaching"
)

// trialRing is the ring of the trials' test: three replicas of different delays (mean 1, 2
// and 5 ms), none stopped.
var trialRing = teaching.LabRing{Delays: [3]int64{1000, 2000, 5000}}

// 100,000 trials of each pair of levels: no read is stale whenever R + W > N, and some are
// otherwise. The seed is fixed, so the counts are the same on every run.
func TestTrialsStaleOnlyWithoutOverlap(t *testing.T) {
	t.Parallel()
	for wi, w := range teaching.Levels {
		for ri, r := range teaching.Levels {
			t.Run(w+"-"+r, func(t *testing.T) {
				t.Parallel()
				start := time.Now()
				p, err := trialPair(context.Background(), trialRing, 0, uint64(30+wi*3+ri), teaching.MaxTrials, w, r)
				if err != nil {
					t.Fatal(err)
				}
				wb, _ := teaching.BlockFor(w, 3)
				rb, _ := teaching.BlockFor(r, 3)
				if p.Overlap != (wb+rb > 3) || p.Trials != teaching.MaxTrials || p.Unavailable != 0 {
					t.Errorf("%+v", p)
				}
				switch {
				case p.Overlap && p.Stale != 0:
					t.Errorf("W=%s R=%s overlap, yet %d of %d reads were stale", w, r, p.Stale, p.Trials)
				case !p.Overlap && p.Stale == 0:
					t.Errorf("W=%s R=%s do not overlap, yet no read of %d was stale", w, r, p.Trials)
				}
				t.Logf("W=%-6s R=%-6s stale %6d of %d (%.3f%%) in %s", w, r, p.Stale, p.Trials, 100*p.StaleRate(), time.Since(start).Round(time.Millisecond))
			})
		}
	}
}

// runTrials plays every pair, each seeded by the run's seed and its place: the same seed gives
// the same counts, another seed others.
func TestTrialsDeterministic(t *testing.T) {
	t.Parallel()
	// The same seed, the same counts; another seed, other counts.
	a, errA := runTrials(context.Background(), trialRing, 0, 30, 10_000)
	b, errB := runTrials(context.Background(), trialRing, 0, 30, 10_000)
	c, errC := runTrials(context.Background(), trialRing, 0, 31, 10_000)
	if err := errors.Join(errA, errB, errC); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(a.Pairs) != fmt.Sprint(b.Pairs) || fmt.Sprint(a.Pairs) == fmt.Sprint(c.Pairs) {
		t.Errorf("seed 30 twice, then 31:\n%v\n%v\n%v", a.Pairs, b.Pairs, c.Pairs)
	}
}

// agreeSteps is a sequence of steps that stops and starts replicas, writes and reads at every
// level: each kind of message the coordinator sends.
func agreeSteps() []teaching.ConsistencyStep {
	var out []teaching.ConsistencyStep
	stops := [][3]bool{{}, {false, false, true}, {true, false, false}, {}, {false, true, true}, {}}
	delays := [][3]int64{{1000, 2000, 5000}, {3000, 3000, 3000}, {0, 10000, 500}}
	n := 0
	for _, st := range stops {
		for _, d := range delays {
			for _, w := range append([]string{""}, teaching.Levels...) {
				for _, r := range append([]string{""}, teaching.Levels...) {
					n++
					out = append(out, teaching.ConsistencyStep{Ring: teaching.LabRing{Delays: d, Stopped: st}, Value: fmt.Sprintf("v%d", n),
						Write: w, Read: r, Gap: int64(n%3) * 700, Seed: uint64(n)})
				}
			}
		}
	}
	return out
}

// The lab's steps on the engine nodes and the trials' register give the same runs: the same
// replies, answers, repairs, hints and stale reads, step after step.
func TestRingStoresAgree(t *testing.T) {
	t.Parallel()
	l, err := NewLab()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	ctx := context.Background()
	nodes := &nodeRing{ctx: ctx, nodes: l.ring, key: "agree"}
	reg := &register{}
	stale := 0
	for i, s := range agreeSteps() {
		ts := int64(1000 + i)
		runs := make([]teaching.ConsistencyRun, 2)
		for j, store := range []ringStore{nodes, reg} {
			exp, err := newestHeld(store)
			if err != nil {
				t.Fatal(err)
			}
			if runs[j], err = newCoordinator(store, s.Seed, true, "agree").play(s, ts, exp); err != nil {
				t.Fatal(err)
			}
			for r := range 3 {
				hints, _ := store.hints(r)
				c, ok, _ := store.read(r)
				runs[j].Held = append(runs[j].Held, teaching.ReplicaHeld{Found: ok, Value: string(c.Value), TS: c.Timestamp, Hints: names(hints)})
			}
		}
		if got, want := fmt.Sprintf("%+v", runs[0]), fmt.Sprintf("%+v", runs[1]); got != want {
			t.Fatalf("step %d (%+v):\nnodes    %s\nregister %s", i, s, got, want)
		}
		if runs[0].Stale {
			stale++
		}
	}
	if stale == 0 {
		t.Error("no step read stale: the comparison saw no stale read")
	}
}

func names(rs []int) []string {
	var out []string
	for _, r := range rs {
		out = append(out, teaching.ReplicaName(r))
	}
	return out
}

// FuzzRingStep: whatever the ring, the levels, the gap and the seed, a level fails as
// Unavailable exactly when fewer replicas are up than it blocks for, a read answers after it
// began with the replies its level waits for, and with R + W > N no read is stale.
func FuzzRingStep(f *testing.F) {
	f.Add(uint16(1000), uint16(2000), uint16(5000), uint8(0), uint8(0), uint8(0), uint16(0), uint64(1))
	f.Add(uint16(0), uint16(0), uint16(0), uint8(4), uint8(1), uint8(2), uint16(10), uint64(7))
	f.Add(uint16(9000), uint16(1), uint16(300), uint8(3), uint8(2), uint8(1), uint16(500), uint64(99))
	f.Fuzz(func(t *testing.T, d0, d1, d2 uint16, stopped, w, r uint8, gap uint16, seed uint64) {
		ring := teaching.LabRing{Delays: [3]int64{int64(d0), int64(d1), int64(d2)}}
		live := 0
		for i := range 3 {
			ring.Stopped[i] = stopped&(1<<i) != 0
			if !ring.Stopped[i] {
				live++
			}
		}
		reg := &register{}
		c := newCoordinator(reg, seed, true, "fuzz")
		s := teaching.ConsistencyStep{Ring: ring, Value: "x", Write: teaching.Levels[int(w)%3], Read: teaching.Levels[int(r)%3], Gap: int64(gap)}
		wb, _ := teaching.BlockFor(s.Write, 3)
		rb, _ := teaching.BlockFor(s.Read, 3)
		var exp *engine.StoredCell
		for step := range 3 {
			if step == 2 { // everyone back: the hints are delivered
				s.Ring.Stopped, live = [3]bool{}, 3
			}
			run, err := c.play(s, int64(step+1), exp)
			if err != nil {
				t.Fatal(err)
			}
			if (run.WriteUnavailable != "") != (live < wb) || (run.ReadUnavailable != "") != (live < rb) {
				t.Fatalf("live %d, W=%s R=%s: %q %q", live, s.Write, s.Read, run.WriteUnavailable, run.ReadUnavailable)
			}
			if run.ReadUnavailable == "" {
				answered := 0
				for _, rep := range run.Replies {
					if rep.Answered {
						answered++
					}
				}
				if answered != rb || run.ReadAnswered < run.ReadAsked {
					t.Fatalf("%d answered of %d, asked %d answered %d", answered, rb, run.ReadAsked, run.ReadAnswered)
				}
			}
			if run.WriteUnavailable == "" && run.ReadUnavailable == "" && wb+rb > 3 && run.Stale {
				t.Fatalf("W=%s R=%s overlap, the read is stale: %+v", s.Write, s.Read, run)
			}
			if exp, err = newestHeld(reg); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 3 {
			if hints, _ := reg.hints(i); len(hints) != 0 {
				t.Fatalf("with every replica up, %s still holds hints for %v", teaching.ReplicaName(i), hints)
			}
		}
	})
}

// BenchmarkTrials is one pair of levels (QUORUM, ONE), a trial an operation.
func BenchmarkTrials(b *testing.B) {
	for b.Loop() {
		if _, err := trialPair(context.Background(), trialRing, 0, 1, 1000, "QUORUM", "ONE"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1000), "ns/trial")
}

// BenchmarkRingStep is one step (a write at QUORUM, a read at ONE) on the ring's engine nodes
// and on the trials' register: what the trials save by playing on the register.
func BenchmarkRingStep(b *testing.B) {
	l, err := NewLab()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = l.Close() })
	s := teaching.ConsistencyStep{Ring: trialRing, Value: "v", Write: "QUORUM", Read: "ONE"}
	for _, c := range []struct {
		name  string
		store ringStore
	}{{"nodes", &nodeRing{ctx: context.Background(), nodes: l.ring, key: "bench"}}, {"register", &register{}}} {
		b.Run(c.name, func(b *testing.B) {
			co := newCoordinator(c.store, 1, false, "bench")
			ts := int64(0)
			for b.Loop() {
				ts++
				if _, err := co.play(s, ts, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
