package parallel_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"twissandra/internal/parallel"
)

func TestForRunsEachOnceWithinTheLimit(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ n, limit int }{{0, 4}, {1, 4}, {2, 1}, {100, 4}, {100, 0}, {5, 50}} {
		var running, peak atomic.Int32
		seen := make([]atomic.Int32, tt.n)
		err := parallel.For(context.Background(), tt.n, tt.limit, func(ctx context.Context, i int) error {
			now := running.Add(1)
			defer running.Add(-1)
			for {
				p := peak.Load()
				if now <= p || peak.CompareAndSwap(p, now) {
					break
				}
			}
			seen[i].Add(1)
			time.Sleep(100 * time.Microsecond)
			return nil
		})
		if err != nil {
			t.Fatalf("n=%d limit=%d: %v", tt.n, tt.limit, err)
		}
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d limit=%d: op %d ran %d times", tt.n, tt.limit, i, c)
			}
		}
		if p := int(peak.Load()); p > max(tt.limit, 1) {
			t.Fatalf("n=%d limit=%d: %d ran at once", tt.n, tt.limit, p)
		}
	}
}

func TestForFirstErrorCancelsTheRest(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	var started atomic.Int32
	err := parallel.For(context.Background(), 1000, 4, func(ctx context.Context, i int) error {
		started.Add(1)
		if i == 3 {
			return boom
		}
		select {
		case <-ctx.Done(): // the others see the cancellation
			return ctx.Err()
		case <-time.After(10 * time.Second):
			return errors.New("not cancelled")
		}
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	if s := started.Load(); s > 4 {
		t.Fatalf("%d ops started, want at most the 4 running when the error came", s)
	}
}

func TestForReportsTheCallersCancellation(t *testing.T) {
	t.Parallel()
	why := errors.New("caller gave up")
	ctx, cancel := context.WithCancelCause(context.Background())
	var ran atomic.Int32
	err := parallel.For(ctx, 100, 2, func(ctx context.Context, i int) error {
		if ran.Add(1) == 5 {
			cancel(why)
		}
		return nil
	})
	if !errors.Is(err, why) {
		t.Fatalf("err %v, want the caller's cause", err)
	}
	if r := ran.Load(); r == 100 {
		t.Fatalf("every op ran after the caller's cancellation")
	}

	done, stop := context.WithCancel(context.Background())
	stop()
	if err := parallel.For(done, 3, 2, func(context.Context, int) error { t.Error("op ran"); return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("ended before: err %v, want context.Canceled", err)
	}
}
