package domain

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// A hasher leaves a core to the rest of the process: however many hashes and checks arrive at
// once, at most one less than the cores run (one at least), and each still answers right.
func TestHasherLeavesACore(t *testing.T) {
	h := NewPasswordHasher(bcrypt.MinCost)
	want := max(1, runtime.GOMAXPROCS(0)-1)
	if got := h.Concurrency(); got != want {
		t.Fatalf("Concurrency() = %d with GOMAXPROCS %d, want %d", got, runtime.GOMAXPROCS(0), want)
	}
	var running, most atomic.Int64
	release := make(chan struct{})
	var wg sync.WaitGroup
	const n = 16
	for range n {
		wg.Go(func() {
			h.run(func() {
				now := running.Add(1)
				for {
					m := most.Load()
					if now <= m || most.CompareAndSwap(m, now) {
						break
					}
				}
				<-release
				running.Add(-1)
			})
		})
	}
	// Let the n runs through one slot-full at a time: each waits for a release.
	for range n {
		release <- struct{}{}
	}
	wg.Wait()
	if m := most.Load(); m > int64(want) {
		t.Fatalf("%d bcrypt runs at once, want at most %d", m, want)
	}
	hash, err := h.Hash("a password")
	if err != nil || !h.Verify(hash, "a password") || h.Verify(hash, "another") || h.Verify(nil, "a password") {
		t.Fatalf("hash and verify through the slots: %v", err)
	}
}
