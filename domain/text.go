package domain

import (
	"fmt"
	"strings"
	"unicode"
)

// A text a user writes (a tweet, a blog entry's title and body, a comment and its author's name,
// an author's name and profile) may hold any printable Unicode, tabs and line breaks, and none
// of the characters that hide or disguise what a reader sees:
//   - control characters (C0 but tab, line feed and carriage return; DEL; C1), NUL among them;
//   - the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which
//     make "txt.exe" read as "exe.txt" and run on past the text into the page around it;
//   - the invisible separators and joiners that spoof or split words: U+200B zero width space,
//     U+2060-U+2064 (word joiner and the invisible operators), U+FEFF (a byte order mark inside a
//     text), U+180E, U+00AD soft hyphen.
//
// The zero width joiner and non-joiner (U+200D, U+200C) stay: emoji sequences and several
// scripts need them. So do the left-to-right and right-to-left marks (U+200E, U+200F), which
// only mark a direction and are how bidirectional text is written correctly.

// forbiddenRune reports whether r may not be in a text a user writes.
func forbiddenRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case unicode.IsControl(r):
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200B, r >= 0x2060 && r <= 0x2064, r == 0xFEFF, r == 0x180E, r == 0x00AD:
		return true
	}
	return false
}

// CheckText refuses a text that holds a character a user may not write (see forbiddenRune),
// naming the first one, as an ErrInvalid of field.
func CheckText(field, s string) error {
	if i := strings.IndexFunc(s, forbiddenRune); i >= 0 {
		r := []rune(s[i:])[0]
		return Invalid(field, "must not contain control or invisible formatting characters (found %s)", runeName(r))
	}
	return nil
}

// runeName writes r as U+XXXX, with its common name where it has one.
func runeName(r rune) string {
	names := map[rune]string{0: "NUL", 0x202E: "RIGHT-TO-LEFT OVERRIDE", 0x202D: "LEFT-TO-RIGHT OVERRIDE",
		0x200B: "ZERO WIDTH SPACE", 0xFEFF: "ZERO WIDTH NO-BREAK SPACE", 0x00AD: "SOFT HYPHEN",
		0x2060: "WORD JOINER", 0x7F: "DELETE"}
	if n, ok := names[r]; ok {
		return fmt.Sprintf("U+%04X %s", r, n)
	}
	return fmt.Sprintf("U+%04X", r)
}
