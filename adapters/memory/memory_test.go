package memory_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/uuid"

	"twissandra/domain"

	"twissandra/adapters/memory"
	"twissandra/ports"
	"twissandra/ports/porttest"
)

func TestContract(t *testing.T) {
	porttest.Run(t, func(t *testing.T) porttest.Stores {
		s := memory.New()
		return porttest.Stores{Users: s, Tweets: s, Lines: s}
	})
}

func TestSessionsContract(t *testing.T) {
	porttest.RunSessions(t, func(t *testing.T) (ports.SessionStore, porttest.Stores) {
		s := memory.New()
		return memory.NewSessions(), porttest.Stores{Users: s, Tweets: s, Lines: s}
	})
}

func TestMergeEntriesKeepsOrderAndReplacesEqualTimes(t *testing.T) {
	e := func(tm int64, tag byte) domain.LineEntry { return domain.LineEntry{Time: tm, TweetID: uuid.UUID{tag}} }
	s := memory.New()
	ctx := context.Background()
	line := domain.TimelineOf("x")
	if err := s.AppendEntries(ctx, line, []domain.LineEntry{e(5, 'a'), e(1, 'a'), e(3, 'a')}); err != nil {
		t.Fatal(err)
	}
	// Newest first, as a migration copies a page; one time again (replaced), one in between.
	if err := s.AppendEntries(ctx, line, []domain.LineEntry{e(6, 'b'), e(3, 'b'), e(2, 'b'), e(0, 'b')}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Slice(ctx, line, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.LineEntry{e(6, 'b'), e(5, 'a'), e(3, 'b'), e(2, 'b'), e(1, 'a'), e(0, 'b')}
	if !slices.Equal(got, want) {
		t.Fatalf("line = %v, want %v", got, want)
	}
}
