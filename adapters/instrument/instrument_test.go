package instrument_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"twissandra/adapters/instrument"
	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/ports/porttest"
)

// countingSink counts calls and errors per operation and keeps every fan-out size.
type countingSink struct {
	mu     sync.Mutex
	calls  map[string]int
	errs   map[string]int
	sizes  []int
	ops    map[string]bool
	fanout int
}

func newCountingSink() *countingSink {
	return &countingSink{calls: map[string]int{}, errs: map[string]int{}, ops: map[string]bool{}}
}

type opRec struct {
	s   *countingSink
	key string
}

func (r opRec) Done(d time.Duration, err error) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	if d < 0 {
		panic("negative duration")
	}
	r.s.calls[r.key]++
	if err != nil {
		r.s.errs[r.key]++
	}
}

type sizeRec struct{ s *countingSink }

func (r sizeRec) Observe(n int) {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	r.s.sizes = append(r.s.sizes, n)
}

func (s *countingSink) Op(adapter, op string) instrument.OpRecorder {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ops[adapter+"/"+op] = true
	return opRec{s, adapter + "/" + op}
}

func (s *countingSink) Fanout(adapter string) instrument.SizeRecorder {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fanout++
	return sizeRec{s}
}

// The wrapped stores must pass the same contract suites as the stores they wrap.
func TestWrappedStoresKeepTheContract(t *testing.T) {
	sink := newCountingSink()
	porttest.Run(t, func(t *testing.T) porttest.Stores {
		s := memory.New()
		return porttest.Stores{
			Users:  instrument.Users(s, "memory", sink),
			Tweets: instrument.Tweets(s, "memory", sink),
			Lines:  instrument.Lines(s, "memory", sink),
		}
	})
	porttest.RunBlog(t, func(t *testing.T) porttest.BlogStores {
		s := memory.NewBlog()
		return porttest.BlogStores{
			Authors:  instrument.Authors(s, "memory", sink),
			Entries:  instrument.Entries(s, "memory", sink),
			Tags:     instrument.Tags(s, "memory", sink),
			Comments: instrument.Comments(s, "memory", sink),
		}
	})
	sink.mu.Lock()
	defer sink.mu.Unlock()
	for _, op := range []string{instrument.OpCreateUser, instrument.OpAppend, instrument.OpSlice, instrument.OpCreateEntry, instrument.OpAddComment} {
		if sink.calls["memory/"+op] == 0 {
			t.Errorf("no calls of %s recorded; calls: %v", op, sink.calls)
		}
	}
	if len(sink.sizes) == 0 {
		t.Error("no fan-out sizes recorded")
	}
}

// Each call is recorded once, under its own operation, with its error; Append reports its size.
func TestRecordsEachCall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sink := newCountingSink()
	s := memory.New()
	users := instrument.Users(s, "memory", sink)
	lines := instrument.Lines(s, "memory", sink)

	u := domain.User{Username: "jericevans", PasswordHash: []byte("x"), CreatedAt: time.Now()}
	if err := users.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := users.CreateUser(ctx, u); !errors.Is(err, domain.ErrAlreadyExists) {
		t.Fatalf("second create: %v", err)
	}
	if _, err := users.GetUser(ctx, "nobody"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("get nobody: %v", err)
	}
	ks := []domain.LineKey{domain.PublicLine(), domain.UserlineOf("jericevans"), domain.TimelineOf("jericevans")}
	if err := lines.Append(ctx, domain.LineEntry{Time: 1}, ks...); err != nil {
		t.Fatal(err)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	want := map[string]int{"memory/create_user": 2, "memory/get_user": 1, "memory/append": 1}
	for k, n := range want {
		if sink.calls[k] != n {
			t.Errorf("%s: %d calls, want %d", k, sink.calls[k], n)
		}
	}
	if sink.errs["memory/create_user"] != 1 || sink.errs["memory/get_user"] != 1 {
		t.Errorf("errors %v", sink.errs)
	}
	if len(sink.sizes) != 1 || sink.sizes[0] != 3 {
		t.Errorf("fan-out sizes %v, want [3]", sink.sizes)
	}
	if len(sink.ops) != 16 || sink.fanout != 1 {
		t.Errorf("wrapping asked for %d operations and %d fan-out recorders, want 16 and 1", len(sink.ops), sink.fanout)
	}
}
