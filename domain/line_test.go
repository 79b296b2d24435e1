package domain_test

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"twissandra/domain"
)

func raw(b ...byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func lineCursor(version byte, micros int64) string {
	b := make([]byte, 9)
	b[0] = version
	binary.BigEndian.PutUint64(b[1:], uint64(micros))
	return raw(b...)
}

// wantRefused checks that err is the ValidationError of the start parameter.
func wantRefused(t *testing.T, in string, err error) {
	t.Helper()
	var ve *domain.ValidationError
	if !errors.As(err, &ve) || !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "start") {
		t.Errorf("%q: err %v, want the start ValidationError", in, err)
	}
}

func TestLineCursor(t *testing.T) {
	t.Parallel()
	for _, micros := range []int64{1, 1250558004000000, 1<<63 - 1} {
		c := domain.EncodeLineCursor(micros)
		got, err := domain.ParseLineCursor(c)
		if err != nil || got != micros {
			t.Errorf("%d: parsed %d, %v", micros, got, err)
		}
	}
	if got, err := domain.ParseLineCursor(""); got != 0 || err != nil {
		t.Errorf("empty: %d, %v", got, err)
	}
	for _, bad := range []string{
		"!!!", "A", "a.b", "AAAA",
		lineCursor(2, 1), lineCursor(3, 1), lineCursor(0, 1), // other versions and kinds
		lineCursor(1, 0), lineCursor(1, -5), // not a time after the epoch
		lineCursor(1, 1) + "A", raw(1, 0, 0, 0, 0, 0, 0, 0, 0, 1), // too long
		raw(1, 0, 0, 0, 0, 0, 0, 1), // too short
		domain.EncodeFollowCursor("alice"),
		base64.StdEncoding.EncodeToString([]byte{1, 0, 0, 0, 0, 0, 0, 0, 1}) + "=",
	} {
		_, err := domain.ParseLineCursor(bad)
		wantRefused(t, bad, err)
	}
}

func TestFollowCursor(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"a", "alice", "Under_score_9", "\x00\xff", strings.Repeat("z", domain.MaxFollowCursorLen)} {
		enc := domain.EncodeFollowCursor(c)
		got, err := domain.ParseFollowCursor(enc)
		if err != nil || got != c {
			t.Errorf("%q: parsed %q, %v", c, got, err)
		}
	}
	if enc := domain.EncodeFollowCursor(""); enc != "" {
		t.Errorf(`"" encodes as %q`, enc)
	}
	if got, err := domain.ParseFollowCursor(""); got != "" || err != nil {
		t.Errorf("empty: %q, %v", got, err)
	}
	for _, bad := range []string{
		"!!!", "A", "a.b", "%20",
		raw([]byte("alice")...),  // the old unversioned form
		raw(1, 'a'), raw(2, 'a'), // other versions
		raw(3), // version only
		domain.EncodeLineCursor(1250558004000000),
		raw(append([]byte{3}, strings.Repeat("z", domain.MaxFollowCursorLen+1)...)...),
		strings.Repeat("A", 100_000),
	} {
		_, err := domain.ParseFollowCursor(bad)
		wantRefused(t, bad, err)
	}
}

func FuzzParseLineCursor(f *testing.F) {
	for _, s := range []string{"", "A", "AAAA", domain.EncodeLineCursor(1), domain.EncodeLineCursor(1250558004000000), lineCursor(1, -1), lineCursor(2, 7), domain.EncodeFollowCursor("bob")} {
		f.Add(s, int64(1250558004000000))
	}
	f.Fuzz(func(t *testing.T, s string, micros int64) {
		if before, err := domain.ParseLineCursor(s); err != nil {
			wantRefused(t, s, err)
		} else if s != "" {
			if before <= 0 {
				t.Fatalf("%q parsed to %d", s, before)
			}
			again, err := domain.ParseLineCursor(domain.EncodeLineCursor(before))
			if err != nil || again != before {
				t.Fatalf("%q: %d round trips to %d, %v", s, before, again, err)
			}
		}
		if micros > 0 {
			got, err := domain.ParseLineCursor(domain.EncodeLineCursor(micros))
			if err != nil || got != micros {
				t.Fatalf("%d round trips to %d, %v", micros, got, err)
			}
		}
	})
}

func FuzzParseFollowCursor(f *testing.F) {
	for _, s := range []string{"", "A", raw(3), raw(3, 'a'), domain.EncodeFollowCursor("alice"), domain.EncodeLineCursor(1), raw([]byte("alice")...)} {
		f.Add(s, "alice")
	}
	f.Fuzz(func(t *testing.T, s, adapterCursor string) {
		if c, err := domain.ParseFollowCursor(s); err != nil {
			wantRefused(t, s, err)
		} else if s != "" {
			if c == "" || len(c) > domain.MaxFollowCursorLen {
				t.Fatalf("%q parsed to %q", s, c)
			}
			again, err := domain.ParseFollowCursor(domain.EncodeFollowCursor(c))
			if err != nil || again != c {
				t.Fatalf("%q: %q round trips to %q, %v", s, c, again, err)
			}
		}
		if adapterCursor != "" && len(adapterCursor) <= domain.MaxFollowCursorLen {
			got, err := domain.ParseFollowCursor(domain.EncodeFollowCursor(adapterCursor))
			if err != nil || got != adapterCursor {
				t.Fatalf("%q round trips to %q, %v", adapterCursor, got, err)
			}
		}
	})
}
