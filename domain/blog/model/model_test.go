package model_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog/model"
)

func TestCompareTimeUUID(t *testing.T) {
	t.Parallel()
	early, late := domain.NewTimeUUID(1250438004000000), domain.NewTimeUUID(1250557004000000)
	// The time decides before any byte does, although a random node may make early's bytes larger.
	if model.CompareTimeUUID(early, late) >= 0 || model.CompareTimeUUID(late, early) <= 0 {
		t.Fatalf("earlier UUID does not sort first")
	}
	a, b := domain.NewTimeUUID(5), domain.NewTimeUUID(5)
	if a == b {
		t.Fatal("two time UUIDs of one microsecond are equal")
	}
	if ab, ba := model.CompareTimeUUID(a, b), model.CompareTimeUUID(b, a); ab == 0 || ab != -ba {
		t.Fatalf("twins compare %d and %d, want a strict order", ab, ba)
	}
	if model.CompareTimeUUID(a, a) != 0 {
		t.Fatal("a UUID differs from itself")
	}
}

func TestCursorRoundTrip(t *testing.T) {
	t.Parallel()
	id := domain.NewTimeUUID(1250558004000000)
	got, err := model.ParseCursor(model.EncodeCursor(id))
	if err != nil || got != id {
		t.Fatalf("ParseCursor(EncodeCursor(id)) = %v, %v; want %v", got, err, id)
	}
	if got, err := model.ParseCursor(""); err != nil || got != uuid.Nil {
		t.Fatalf(`ParseCursor("") = %v, %v`, got, err)
	}
	for _, bad := range []string{"x", "AAAA", model.EncodeCursor(uuid.New()), domain.EncodeLineCursor(1250558004000000)} {
		if _, err := model.ParseCursor(bad); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("ParseCursor(%q) err = %v, want ErrInvalid", bad, err)
		}
	}
}

func TestNormalizeTags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   []string
		want []string
		ok   bool
	}{
		{nil, []string{}, true},
		{[]string{"life", "guitar", "music"}, []string{"guitar", "life", "music"}, true},
		{[]string{" Movie", "horror", "movie"}, []string{"horror", "movie"}, true},
		{[]string{"rock-n-roll", "2010"}, []string{"2010", "rock-n-roll"}, true},
		{[]string{model.NoTag}, nil, false},
		{[]string{"a,b"}, nil, false},
		{[]string{""}, nil, false},
	}
	for _, tc := range cases {
		got, err := model.NormalizeTags(tc.in)
		if tc.ok != (err == nil) || (tc.ok && !slices.Equal(got, tc.want)) {
			t.Errorf("NormalizeTags(%q) = %q, %v; want %q (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestValidateSlug(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"i-got-a-new-guitar", "another-cool-guitar", "scream-is-the-best-movie-ever", "a", "2010"} {
		if err := model.ValidateSlug(ok); err != nil {
			t.Errorf("ValidateSlug(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "A", "a--b", "-a", "a-", "a b", "a_b", "é"} {
		if err := model.ValidateSlug(bad); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("ValidateSlug(%q) = %v, want ErrInvalid", bad, err)
		}
	}
}
