package engine

import (
	"bytes"
	"crypto/md5"
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"
)

// normalize turns arbitrary fuzz input into a valid non-empty name for c.
func normalize(c Comparator, b []byte) []byte {
	switch c {
	case LongType:
		out := make([]byte, 8)
		copy(out, b)
		return out
	case LexicalUUIDType, TimeUUIDType:
		out := make([]byte, 16)
		copy(out, b)
		if c == TimeUUIDType {
			out[6] = out[6]&0x0F | 0x10
		}
		return out
	case UTF8Type:
		if !utf8.Valid(b) {
			b = []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
		}
	}
	if len(b) == 0 {
		return []byte{0}
	}
	return b
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func FuzzNameEncoding(f *testing.F) {
	f.Add([]byte("a"), []byte("ab"), []byte("x"))
	f.Add([]byte{0}, []byte{0, 0}, []byte{})
	f.Add([]byte{0, 0xFF}, []byte{0, 1}, []byte{1})
	f.Add(long(-1), long(0), []byte{2})
	f.Add(long(3), long(832416), []byte{})
	f.Add(uuidA, uuidB, []byte("s"))
	f.Add(uuidC, uuidD, []byte{0})
	f.Add([]byte("\uFF61"), []byte("\U0001F600"), []byte{})
	f.Fuzz(func(t *testing.T, a, b, suffix []byte) {
		for _, c := range Comparators {
			x, y := normalize(c, a), normalize(c, b)
			if err := c.Validate(x); err != nil {
				t.Fatalf("%v: normalize gave invalid %x: %v", c, x, err)
			}
			want := sign(c.Compare(x, y))
			for _, term := range []bool{false, true} {
				ex := AppendName([]byte("p"), c, x, term)[1:]
				ey := AppendName(nil, c, y, term)
				if got := sign(bytes.Compare(ex, ey)); got != want {
					t.Fatalf("%v term=%v: Compare(%x,%x)=%d but encoded order %d", c, term, x, y, want, got)
				}
				dec, rest, err := DecodeName(nil, c, append(append([]byte(nil), ex...), suffixFor(term, suffix)...), term)
				if err != nil || !bytes.Equal(dec, x) {
					t.Fatalf("%v term=%v: round trip %x -> %x (%v)", c, term, x, dec, err)
				}
				if term {
					if !bytes.Equal(rest, suffix) {
						t.Fatalf("%v: rest %x, want %x", c, rest, suffix)
					}
					if l, err := encodedNameLen(c, append(ex, suffix...), true); err != nil || l != len(ex) {
						t.Fatalf("%v: encodedNameLen %d %v, want %d", c, l, err, len(ex))
					}
					// Self-delimiting: anything appended keeps the order
					// of distinct names.
					if want != 0 {
						sx := append(append([]byte(nil), ex...), suffix...)
						sy := append(append([]byte(nil), ey...), 0xFF, 0xFF)
						if got := sign(bytes.Compare(sx, sy)); got != want {
							t.Fatalf("%v: suffix changed order of %x, %x", c, x, y)
						}
					}
				}
			}
		}
	})
}

func suffixFor(term bool, s []byte) []byte {
	if term {
		return s
	}
	return nil
}

func FuzzRowKeyEncoding(f *testing.F) {
	f.Add("alice", "bob")
	f.Add("a", "a\x00")
	f.Add("a\x00", "a\x01")
	f.Add("ab", "a")
	f.Fuzz(func(t *testing.T, a, b string) {
		ea, eb := appendEscapedString(nil, a), appendEscapedString(nil, b)
		if got, want := sign(bytes.Compare(ea, eb)), sign(strings.Compare(a, b)); got != want {
			t.Fatalf("order of %q, %q: encoded %d, keys %d", a, b, got, want)
		}
		dec, rest, err := decodeEscaped(nil, append(ea, 'z'))
		if err != nil || string(dec) != a || string(rest) != "z" {
			t.Fatalf("round trip %q: %q %q %v", a, dec, rest, err)
		}
		// A row's successor bound sorts after all its keys and before any
		// other row.
		succ := prefixSuccessor(nil, ea)
		if a != b && bytes.HasPrefix(eb, ea) {
			t.Fatalf("%q's encoding is a prefix of %q's", a, b)
		}
		if a < b && bytes.Compare(succ, eb) > 0 {
			t.Fatalf("successor of %q passes %q", a, b)
		}
		// Tokens: 16 bytes, abs of the signed MD5.
		var tok [tokenLen]byte
		md5Token(&tok, a)
		sum := md5.Sum([]byte(a))
		v := new(big.Int).SetBytes(sum[:])
		if sum[0]&0x80 != 0 {
			v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 128))
		}
		v.Abs(v)
		if new(big.Int).SetBytes(tok[:]).Cmp(v) != 0 || RandomPartitioner.Token(a) != v.String() {
			t.Fatalf("token of %q: %x vs %v", a, tok, v)
		}
	})
}

func TestComparatorCompareEmptyFirst(t *testing.T) {
	t.Parallel()
	for _, c := range Comparators {
		x := normalize(c, []byte{0})
		if c.Compare(nil, x) >= 0 || c.Compare(x, nil) <= 0 || c.Compare(nil, nil) != 0 {
			t.Errorf("%v: empty does not sort first", c)
		}
	}
}
