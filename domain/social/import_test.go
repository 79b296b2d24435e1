package social_test

import (
	"context"
	"testing"
	"time"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
)

func TestPostAt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memory.New()
	svc := social.New(st, st, st, nil, domain.NewPasswordHasher(4))
	for _, n := range []string{"jericevans", "ericflo"} {
		if _, err := svc.SignUp(ctx, n, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Follow(ctx, "ericflo", "jericevans"); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2010, 5, 12, 10, 0, 0, 0, time.UTC)
	t1, err := svc.PostAt(ctx, "jericevans", "first", at)
	if err != nil {
		t.Fatal(err)
	}
	t2, err := svc.PostAt(ctx, "jericevans", "second, same microsecond", at)
	if err != nil {
		t.Fatal(err)
	}
	if !t1.CreatedAt.Equal(at) || t2.Time() != t1.Time()+1 || t1.ID == t2.ID {
		t.Fatalf("times %v %v, ids %v %v: want the given time, then the next microsecond", t1.CreatedAt, t2.CreatedAt, t1.ID, t2.ID)
	}
	if domain.TimeUUIDMicros(t1.ID) != t1.Time() || t1.ID.Version() != 1 {
		t.Errorf("id %v does not carry the time %d", t1.ID, t1.Time())
	}
	for _, line := range []domain.LineKey{domain.UserlineOf("jericevans"), domain.TimelineOf("jericevans"), domain.TimelineOf("ericflo"), domain.PublicLine()} {
		got, err := st.Slice(ctx, line, 0, 10)
		if err != nil || len(got) != 2 || got[0].TweetID != t2.ID || got[1].TweetID != t1.ID {
			t.Errorf("%s: %v %v", line, got, err)
		}
	}
	// Another service (a re-run of an import) gives the same tweet the same ID.
	again := social.New(st, st, st, nil, domain.NewPasswordHasher(4))
	t3, err := again.PostAt(ctx, "jericevans", "first", at)
	if err != nil || t3.ID != t1.ID {
		t.Errorf("re-import: id %v (%v), want %v", t3.ID, err, t1.ID)
	}
	if got, _ := st.Slice(ctx, domain.PublicLine(), 0, 10); len(got) != 2 {
		t.Errorf("re-import added entries: %v", got)
	}
	if _, err := svc.PostAt(ctx, "jericevans", "  ", at); err == nil {
		t.Error("an empty body was accepted")
	}
}
