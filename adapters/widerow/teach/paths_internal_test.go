package teach

import (
	"context"
	"errors"
	"testing"
	"time"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// On the running store: a write reaches the log and no table file, a flush adds a table file
// of a new number, a compaction merges them; a second flush or compaction within the store's
// bound is refused whoever asks, and allowed once the bound has passed.
func TestStorageEngineDoFollowsTheWritePathAndBoundsTheStore(t *testing.T) {
	ctx := context.Background()
	n, err := engine.Open(engine.Options{MemTableSize: 1 << 20, CacheSize: 1 << 20, ManualCompactionsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	s := NewStorageEngine(n)
	clock := time.Unix(1_700_000_000, 0)
	s.now = func() time.Time { return clock }
	do := func(session string, a teaching.PathAction) teaching.PathRun {
		t.Helper()
		r, err := s.Do(ctx, session, teaching.PathStep{Action: a})
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		return r
	}
	w := do("alice", teaching.PathWrite)
	if w.After.WALBytesIn <= w.Before.WALBytesIn || w.After.TableFiles() != w.Before.TableFiles() {
		t.Errorf("write: WAL bytes in %d -> %d, table files %d -> %d", w.Before.WALBytesIn, w.After.WALBytesIn, w.Before.TableFiles(), w.After.TableFiles())
	}
	f := do("alice", teaching.PathFlush)
	if f.After.Levels[0].Files != f.Before.Levels[0].Files+1 || f.After.Flushes != f.Before.Flushes+1 {
		t.Errorf("flush: L0 %d -> %d files, flushes %d -> %d", f.Before.Levels[0].Files, f.After.Levels[0].Files, f.Before.Flushes, f.After.Flushes)
	}
	if len(f.TablesAfter) != len(f.TablesBefore)+1 || f.TablesAfter[len(f.TablesAfter)-1].Num == 0 {
		t.Errorf("flush: tables %v -> %v", f.TablesBefore, f.TablesAfter)
	}
	_, err = s.Do(ctx, "bob", teaching.PathStep{Action: teaching.PathFlush})
	var retry *domain.RetryError
	if !errors.As(err, &retry) || retry.After <= 0 {
		t.Fatalf("a second flush at once, by another learner: %v", err)
	}
	clock = clock.Add(teaching.PathFlushEvery)
	do("bob", teaching.PathWrite)
	do("bob", teaching.PathFlush)
	r := do("alice", teaching.PathRead)
	if !r.Found || r.After.BlockReads() == r.Before.BlockReads() {
		t.Errorf("a read of a flushed column: found %v, block reads %d -> %d", r.Found, r.Before.BlockReads(), r.After.BlockReads())
	}
	c := do("alice", teaching.PathCompact)
	if c.After.Compactions == c.Before.Compactions || c.After.Levels[0].Files != 0 {
		t.Errorf("compaction: %d -> %d compactions, L0 %d files after", c.Before.Compactions, c.After.Compactions, c.After.Levels[0].Files)
	}
	if _, err := s.Do(ctx, "bob", teaching.PathStep{Action: teaching.PathCompact}); !errors.As(err, &retry) {
		t.Errorf("a second compaction at once: %v", err)
	}
	for _, bad := range []teaching.PathStep{{Action: "drop"}, {Action: teaching.PathDelete, Received: time.Hour}} {
		if _, err := s.Do(ctx, "alice", bad); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%+v: %v, want invalid", bad, err)
		}
	}
}

// A rehearsal runs on a node of its own: a read before a flush reads no table block, after it
// it does; a compaction drops a tombstone received before the grace period, and keeps one
// received within it.
func TestStorageEngineRehearsals(t *testing.T) {
	ctx := context.Background()
	n, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	s := NewStorageEngine(n)
	w, f, rd := teaching.PathStep{Action: teaching.PathWrite}, teaching.PathStep{Action: teaching.PathFlush}, teaching.PathStep{Action: teaching.PathRead}
	runs, err := s.Rehearse(ctx, []teaching.PathStep{w, rd, f, rd})
	if err != nil {
		t.Fatal(err)
	}
	if first := runs[1]; !first.Found || first.After.BlockReads() != first.Before.BlockReads() || first.Before.TableFiles() != 0 {
		t.Errorf("read before the flush: found %v, %d table files, block reads %d -> %d", first.Found, first.Before.TableFiles(), first.Before.BlockReads(), first.After.BlockReads())
	}
	if second := runs[3]; !second.Found || second.After.BlockReads() == second.Before.BlockReads() || second.Before.TableFiles() != 1 {
		t.Errorf("read after the flush: found %v, %d table files, block reads %d -> %d", second.Found, second.Before.TableFiles(), second.Before.BlockReads(), second.After.BlockReads())
	}
	for _, c := range []struct {
		age    time.Duration
		purged int
	}{{time.Hour, 0}, {11 * 24 * time.Hour, 1}} {
		runs, err := s.Rehearse(ctx, []teaching.PathStep{w, f, {Action: teaching.PathDelete, Received: c.age}, {Action: teaching.PathCompact}, rd})
		if err != nil {
			t.Fatal(err)
		}
		if got := runs[3].Purged; got != c.purged {
			t.Errorf("a delete received %s ago: compaction purged %d tombstones, want %d", c.age, got, c.purged)
		}
		if runs[4].Found {
			t.Errorf("a delete received %s ago: the column reads after the compaction", c.age)
		}
	}
	if figs, _, _ := s.Figures(ctx); figs.TableFiles() != 0 || figs.Flushes != 0 {
		t.Errorf("the rehearsals moved the running store: %d files, %d flushes", figs.TableFiles(), figs.Flushes)
	}
	if _, err := s.Rehearse(ctx, make([]teaching.PathStep, teaching.MaxPathSteps+1)); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("too many steps: %v", err)
	}
}
