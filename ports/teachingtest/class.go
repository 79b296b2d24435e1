package teachingtest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"twissandra/domain"
	"twissandra/ports/porttest"
	"twissandra/ports/teaching"
)

// RunClassBook checks a teaching.ClassBook: a class's members come back in name order, once
// each, classes apart, never past ClassMax; a signed-in learner's last action and when, and
// their console statements counted; an anonymous learner never recorded; a long kind cut to
// ActionMax; a forgotten learner's activity gone and counted again from nothing, another's
// kept; and a cancelled context is an error, not an answer.
func RunClassBook(t *testing.T, book teaching.ClassBook) {
	t.Run("Members", func(t *testing.T) {
		c := porttest.Context(t)
		class, other := porttest.Name("class"), porttest.Name("other")
		if m, err := book.Members(c, class); err != nil || len(m) != 0 {
			t.Fatalf("a class nobody enrolled in: %q, %v; want none", m, err)
		}
		enrol(t, c, book, class, class+"_03", class+"_01")
		enrol(t, c, book, class, class+"_02", class+"_01")
		enrol(t, c, book, other, other+"_01")
		mustMembers(t, c, book, class, class+"_01", class+"_02", class+"_03")
		mustMembers(t, c, book, other, other+"_01")
	})
	t.Run("Bounded", func(t *testing.T) {
		c := porttest.Context(t)
		class := porttest.Name("full")
		enrol(t, c, book, class, class+"_first")
		var many []string
		for i := range teaching.ClassMax {
			many = append(many, fmt.Sprintf("%s_%04d", class, i))
		}
		if err := book.Enrol(c, class, many); !errors.Is(err, domain.ErrInvalid) {
			t.Fatalf("enrolling %d more in a class of 1: %v; want domain.ErrInvalid", len(many), err)
		}
		mustMembers(t, c, book, class, class+"_first")
	})
	t.Run("Activity", func(t *testing.T) {
		c := porttest.Context(t)
		ann, bob := "user:"+porttest.Name("ann"), "user:"+porttest.Name("bob")
		mustActivity(t, c, book, ann, "", 0)
		before := time.Now()
		touch(t, c, book, ann, "lesson writes")
		touch(t, c, book, ann, "console cql")
		touch(t, c, book, ann, "console cql")
		touch(t, c, book, ann, "exercise writes-1")
		touch(t, c, book, bob, "console cli")
		after := time.Now()
		a := mustActivity(t, c, book, ann, "exercise writes-1", 2)
		if a.At.Before(before.Add(-time.Millisecond)) || a.At.After(after.Add(time.Millisecond)) {
			t.Fatalf("ann's last action at %v, not between %v and %v", a.At, before, after)
		}
		mustActivity(t, c, book, bob, "console cli", 1)
	})
	t.Run("OnlySignedIn", func(t *testing.T) {
		c := porttest.Context(t)
		for _, l := range []string{"browser:" + porttest.Name("b"), "user:", porttest.Name("bare")} {
			touch(t, c, book, l, "console cql")
			mustActivity(t, c, book, l, "", 0)
		}
	})
	t.Run("KindBounded", func(t *testing.T) {
		c := porttest.Context(t)
		l := "user:" + porttest.Name("long")
		touch(t, c, book, l, "lesson "+strings.Repeat("é", teaching.ActionMax))
		a, err := book.Activity(c, l)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Last) > teaching.ActionMax || !strings.HasPrefix(a.Last, "lesson é") {
			t.Fatalf("a long kind kept as %q (%d bytes); want its first at most %d bytes", a.Last, len(a.Last), teaching.ActionMax)
		}
	})
	t.Run("Forget", func(t *testing.T) {
		c := porttest.Context(t)
		gone, kept := "user:"+porttest.Name("gone"), "user:"+porttest.Name("kept")
		touch(t, c, book, gone, "console cql")
		touch(t, c, book, kept, "console cql")
		if err := book.ForgetActivity(c, gone); err != nil {
			t.Fatalf("ForgetActivity: %v", err)
		}
		mustActivity(t, c, book, gone, "", 0)
		mustActivity(t, c, book, kept, "console cql", 1)
		touch(t, c, book, gone, "console cli")
		mustActivity(t, c, book, gone, "console cli", 1)
	})
	t.Run("Cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(porttest.Context(t))
		cancel()
		l := "user:" + porttest.Name("cancelled")
		for what, err := range map[string]error{
			"Enrol":          book.Enrol(ctx, porttest.Name("c"), []string{"x"}),
			"Touch":          book.Touch(ctx, l, "console cql"),
			"ForgetActivity": book.ForgetActivity(ctx, l),
		} {
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s on a cancelled context: %v, want context.Canceled", what, err)
			}
		}
		if _, err := book.Members(ctx, "c"); !errors.Is(err, context.Canceled) {
			t.Errorf("Members on a cancelled context: %v, want context.Canceled", err)
		}
		if _, err := book.Activity(ctx, l); !errors.Is(err, context.Canceled) {
			t.Errorf("Activity on a cancelled context: %v, want context.Canceled", err)
		}
		mustActivity(t, porttest.Context(t), book, l, "", 0)
	})
}

func enrol(t *testing.T, c context.Context, book teaching.ClassBook, class string, users ...string) {
	t.Helper()
	if err := book.Enrol(c, class, users); err != nil {
		t.Fatalf("Enrol(%s, %q): %v", class, users, err)
	}
}

func mustMembers(t *testing.T, c context.Context, book teaching.ClassBook, class string, want ...string) {
	t.Helper()
	got, err := book.Members(c, class)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("Members(%s): %q, %v; want %q", class, got, err, want)
	}
}

func touch(t *testing.T, c context.Context, book teaching.ClassBook, learner, kind string) {
	t.Helper()
	if err := book.Touch(c, learner, kind); err != nil {
		t.Fatalf("Touch(%s, %s): %v", learner, kind, err)
	}
}

func mustActivity(t *testing.T, c context.Context, book teaching.ClassBook, learner, last string, statements int64) teaching.Activity {
	t.Helper()
	a, err := book.Activity(c, learner)
	if err != nil {
		t.Fatalf("Activity(%s): %v", learner, err)
	}
	if a.Last != last || a.Statements != statements || (last == "") != a.At.IsZero() {
		t.Fatalf("Activity(%s): %+v; want last %q, %d statements", learner, a, last, statements)
	}
	return a
}
