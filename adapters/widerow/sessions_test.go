package widerow_test

import (
	"context"
	"testing"
	"time"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports"
	"twissandra/ports/porttest"
)

func TestSessionsContract(t *testing.T) {
	porttest.RunSessions(t, func(t *testing.T) (ports.SessionStore, porttest.Stores) {
		n := openNode(t, "")
		s := widerow.NewStore(n)
		return widerow.NewSessions(n), porttest.Stores{Users: s, Tweets: s, Lines: s}
	})
}

// An ended session stays ended when the node is closed and opened again: logging out survives
// a restart.
func TestEndedSessionSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	exp := time.Now().Add(time.Hour)
	n, err := engine.Open(engine.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := widerow.NewSessions(n).EndSession(ctx, "a-session", exp); err != nil {
		t.Fatal(err)
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	n = openNode(t, dir)
	if ended, err := widerow.NewSessions(n).SessionEnded(ctx, "a-session", exp); err != nil || !ended {
		t.Fatalf("after a restart: ended=%v err=%v", ended, err)
	}
}

// Sweep removes the attempts whose keep has passed and the day rows of ended sessions whose day
// is over, and nothing else: 0.6 had no TTL, so the server forgets by itself.
func TestSweepForgetsWhatNoLongerMatters(t *testing.T) {
	n := openNode(t, "")
	s := widerow.NewSessions(n)
	ctx := context.Background()
	now := time.Now()
	attempt := func(key string, keep time.Duration) {
		t.Helper()
		if err := s.AddLoginAttempt(ctx, key, domain.NewTimeUUID(now.UnixMicro()), keep); err != nil {
			t.Fatal(err)
		}
	}
	attempt("user:old", -time.Second) // kept for nothing: forgotten at the next sweep
	attempt("user:old", -time.Second)
	attempt("user:mixed", -time.Second)
	attempt("user:mixed", time.Hour)
	attempt("user:new", time.Hour)
	past, future := now.Add(-48*time.Hour), now.Add(time.Hour)
	for _, id := range []string{"s1", "s2"} {
		if err := s.EndSession(ctx, id, past); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.EndSession(ctx, "s3", future); err != nil {
		t.Fatal(err)
	}
	removed, err := s.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if removed != 3+1 { // three attempts, one day row
		t.Fatalf("Sweep removed %d, want 3 attempts and 1 day row", removed)
	}
	since := now.Add(-time.Minute)
	for key, want := range map[string]int{"user:old": 0, "user:mixed": 1, "user:new": 1} {
		if got, err := s.LoginAttempts(ctx, key, since, 10); err != nil || len(got) != want {
			t.Errorf("%s after the sweep: %d attempts (%v), want %d", key, len(got), err, want)
		}
	}
	if ended, _ := s.SessionEnded(ctx, "s1", past); ended {
		t.Error("a session of a past day is still listed")
	}
	if ended, _ := s.SessionEnded(ctx, "s3", future); !ended {
		t.Error("the sweep forgot a session that has not expired")
	}
	if again, err := s.Sweep(ctx); err != nil || again != 0 {
		t.Fatalf("a second sweep removed %d (%v), want nothing", again, err)
	}
}
