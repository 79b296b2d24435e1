package teachingtest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/ports/porttest"
	"twissandra/ports/teaching"
)

// Window is what lies between a racer's read and its write when the racer does nothing there:
// the store's own call.
type Window int

const (
	// Instant stores answer a read without giving way (a map under a lock on memory; on
	// widerow an open Pebble iterator that the read takes from the last one, with no lock of
	// Pebble's): on two cores two racers seldom both read "free" with nothing between the read
	// and the write, so the bare race is run and reported, and required only with work in the
	// window.
	Instant Window = iota
	// Yields stores give way inside every call (a network round trip on cql3): racers read
	// "free" while others are still writing, so the bare race must be observed too.
	Yields
)

// RunClaims checks a teaching.NameClaims, the uniqueness race's sandbox: its four calls, then the
// race itself. With the lightweight transaction exactly one of n concurrent sign-ups wins and
// the store names it; by read-then-write more than one is told it won (the race is real: it is
// run until it is observed, and the test fails if it never is), and the store names one of
// them. Each race leaves nothing behind in the sandbox.
func RunClaims(t *testing.T, claims teaching.NameClaims, window Window) {
	t.Run("Calls", func(t *testing.T) {
		c := porttest.Context(t)
		name := "claim-" + uuid.NewString()[:8]
		if _, found, err := claims.Lookup(c, name); err != nil || found {
			t.Fatalf("fresh name: found %v, %v", found, err)
		}
		if applied, err := claims.WriteIfAbsent(c, name, "a"); err != nil || !applied {
			t.Fatalf("first WriteIfAbsent: %v, %v", applied, err)
		}
		if applied, err := claims.WriteIfAbsent(c, name, "b"); err != nil || applied {
			t.Fatalf("second WriteIfAbsent: %v, %v", applied, err)
		}
		if owner, found, err := claims.Lookup(c, name); err != nil || !found || owner != "a" {
			t.Fatalf("after the LWTs: %q %v %v, want a", owner, found, err)
		}
		if err := claims.Write(c, name, "c"); err != nil {
			t.Fatal(err)
		}
		if owner, _, err := claims.Lookup(c, name); err != nil || owner != "c" {
			t.Fatalf("a blind write replaces: %q %v", owner, err)
		}
		if err := claims.Release(c, name); err != nil {
			t.Fatal(err)
		}
		if owner, found, err := claims.Lookup(c, name); err != nil || found {
			t.Fatalf("after Release: %q %v %v, want nothing", owner, found, err)
		}
		if applied, err := claims.WriteIfAbsent(c, name, "d"); err != nil || !applied {
			t.Fatalf("WriteIfAbsent after Release: %v, %v", applied, err)
		}
		if err := claims.Release(c, name); err != nil {
			t.Fatal(err)
		}
		if err := claims.Release(c, "claim-never-"+uuid.NewString()[:8]); err != nil {
			t.Fatalf("releasing an unclaimed name: %v", err)
		}
		if r, w, l := claims.Statements(); r == "" || w == "" || l == "" {
			t.Error("Statements must describe all three calls")
		}
	})
	// With a wait between the read and the write, as a sign-up spends hashing the password
	// observed on every backend, and by most racers.
	t.Run("Race", func(t *testing.T) {
		res := raceUntilObserved(t, claims, 20*time.Millisecond, 40, true)
		if res.Window != 20*time.Millisecond || !strings.Contains(res.ReadThenWrite.Statement, "wait 20ms") {
			t.Errorf("the race's window: %s, %q", res.Window, res.ReadThenWrite.Statement)
		}
		if res.ReadThenWrite.Winners <= res.Racers/2 {
			t.Errorf("with a 20 ms window read-then-write welcomed %d of %d racers, want most", res.ReadThenWrite.Winners, res.Racers)
		}
	})
	// Nothing between the read and the write but the store's round trip.
	t.Run("BareRace", func(t *testing.T) {
		raceUntilObserved(t, claims, 0, 40, window == Yields)
	})
	// The visitor leaves while the racers write: the race ends with context.Canceled, and its
	// clean-up, which does not hang on the visitor, still leaves nothing in the sandbox.
	t.Run("ClientLeavesMidRace", func(t *testing.T) {
		ctx, cancel := context.WithCancel(porttest.Context(t))
		defer cancel()
		leaving := &cancelOnWrite{NameClaims: claims, cancel: cancel}
		res, err := teaching.Race(ctx, leaving, 0, "rita", 32)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("a race whose client left: %v, want context.Canceled", err)
		}
		c := porttest.Context(t)
		if owner, found, err := claims.Lookup(c, res.ReadThenWrite.Key); err != nil || found {
			t.Fatalf("after a race whose client left, %q is still claimed by %q (%v)", res.ReadThenWrite.Key, owner, err)
		}
	})
	t.Run("BadInput", func(t *testing.T) {
		for _, n := range []int{0, 1, teaching.MaxRacers + 1} {
			if _, err := teaching.Race(porttest.Context(t), claims, 0, "rita", n); err == nil {
				t.Errorf("%d racers: no error", n)
			}
		}
		if _, err := teaching.Race(porttest.Context(t), claims, 0, "no spaces allowed", 4); err == nil {
			t.Error("an invalid username: no error")
		}
		for _, w := range []time.Duration{-time.Millisecond, teaching.MaxRaceWindow + 1} {
			if _, err := teaching.Race(porttest.Context(t), claims, w, "rita", 4); err == nil {
				t.Errorf("a window of %s: no error", w)
			}
		}
	})
}

// raceUntilObserved runs rounds of 64 racers until read-then-write tells more than one racer
// it won, checking every round's invariants, and returns that round; it fails if that is never
// seen and required.
func raceUntilObserved(t *testing.T, claims teaching.NameClaims, window time.Duration, rounds int, required bool) teaching.RaceResult {
	t.Helper()
	const n = 64
	c := porttest.Context(t)
	var seen []int
	for round := 1; round <= rounds; round++ {
		res, err := teaching.Race(c, claims, window, "rita", n)
		if err != nil {
			t.Fatal(err)
		}
		l, rtw := res.LWT, res.ReadThenWrite
		if l.Winners != 1 || l.Errors != 0 || len(l.Owners) != 1 || l.Owner != l.Owners[0] {
			t.Fatalf("with the LWT: %d winners %v, store names %q, %d errors; want exactly one, named", l.Winners, l.Owners, l.Owner, l.Errors)
		}
		if rtw.Winners < 1 || rtw.Errors != 0 || !slices.Contains(rtw.Owners, rtw.Owner) {
			t.Fatalf("read-then-write: %d winners %v, store names %q, %d errors", rtw.Winners, rtw.Owners, rtw.Owner, rtw.Errors)
		}
		for _, key := range []string{l.Key, rtw.Key} {
			if owner, found, err := claims.Lookup(c, key); err != nil || found {
				t.Fatalf("after the race %q is still claimed by %q (%v)", key, owner, err)
			}
		}
		seen = append(seen, rtw.Winners)
		if rtw.Winners > 1 {
			t.Logf("round %d: read-then-write told %d of %d racers they won (rounds so far %v); the LWT told 1", round, rtw.Winners, n, seen)
			return res
		}
	}
	if required {
		t.Fatalf("read-then-write never told two racers they won in %d rounds of %d", rounds, n)
	}
	t.Logf("read-then-write told at most one racer it won in %d rounds of %d: with nothing between them, this store's read and write leave no window to hit here", rounds, n)
	return teaching.RaceResult{}
}

// cancelOnWrite cancels the race's context once its first blind write is done: the client
// leaves mid-race.
type cancelOnWrite struct {
	teaching.NameClaims
	cancel func()
	once   sync.Once
}

func (c *cancelOnWrite) Write(ctx context.Context, name, owner string) error {
	err := c.NameClaims.Write(ctx, name, owner)
	c.once.Do(c.cancel)
	return err
}
