package domain

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckTextRefusesWhatHidesText(t *testing.T) {
	for _, s := range []string{
		"nul \x00 inside", "bell \a", "escape \x1b[31m", "delete \x7f", "c1 \u0085",
		"txt.\u202Eexe", "\u202Aembedded", "isolate \u2066x\u2069", "zero\u200Bwidth",
		"word\u2060joiner", "bom\uFEFF", "soft\u00ADhyphen", "mongolian\u180Evowel",
	} {
		err := CheckText("body", s)
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("CheckText(%q) = %v, want ErrInvalid", s, err)
			continue
		}
		if !strings.Contains(err.Error(), "U+") {
			t.Errorf("CheckText(%q) = %q: the message names no character", s, err)
		}
	}
	for _, s := range []string{
		"plain", "tabs\tand\nlines\r\n", "emoji 👨\u200D👩\u200D👧", "non-joiner می\u200Cخواهم",
		"marks \u200Eltr \u200Frtl", "עברית and English", "日本語", "math ∑ x²",
	} {
		if err := CheckText("body", s); err != nil {
			t.Errorf("CheckText(%q) = %v, want nil", s, err)
		}
	}
}

func TestNormalizeBodyRefusesAnOverride(t *testing.T) {
	if _, err := NormalizeBody("see txt.\u202Eexe"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a tweet with U+202E: %v, want ErrInvalid", err)
	}
	if b, err := NormalizeBody("  two\nlines  "); err != nil || b != "two\nlines" {
		t.Fatalf("a tweet of two lines: %q, %v", b, err)
	}
}

// FuzzCheckText holds CheckText to its rule: it refuses a string exactly when one of its runes
// is forbidden, and never panics on any bytes.
func FuzzCheckText(f *testing.F) {
	for _, s := range []string{"", "a", "\x00", "\u202E", "👨\u200D👩", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := CheckText("x", s)
		bad := false
		for _, r := range s {
			if forbiddenRune(r) {
				bad = true
			}
		}
		if bad != (err != nil) {
			t.Fatalf("CheckText(%q) = %v, forbidden rune present: %v", s, err, bad)
		}
		if err == nil && utf8.ValidString(s) && strings.ContainsRune(s, 0) {
			t.Fatalf("CheckText(%q) let NUL through", s)
		}
	})
}
