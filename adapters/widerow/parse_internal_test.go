package widerow

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// parseDecimal reads what strconv.ParseInt reads, its error ignored, on every input.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"", "0", "1732406400000000", "9999999999999999", "0000000000000000", "17324064000:0000", "1732406/00000000", "-5", "+7", "12a", "999999999999999999", "9223372036854775807", "9223372036854775808", "00042"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, _ := strconv.ParseInt(string(b), 10, 64)
		if got := parseDecimal(b); got != want {
			t.Fatalf("parseDecimal(%q) = %d, strconv says %d", b, got, want)
		}
	})
}

// Every digit in every place of a 16-digit time, the eight-at-a-time path.
func TestParseDecimalSixteenDigits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		b := []byte(strconv.FormatUint(1e15+r.Uint64N(9e15), 10))
		if len(b) != 16 {
			t.Fatalf("%q", b)
		}
		b[r.IntN(16)] = byte('0' + r.IntN(10))
		want, _ := strconv.ParseInt(string(b), 10, 64)
		if got := parseDecimal(b); got != want {
			t.Fatalf("parseDecimal(%q) = %d, want %d", b, got, want)
		}
	}
}

func BenchmarkParseDecimal(b *testing.B) {
	micros := []byte("1764115200123456")
	b.Run("parseDecimal", func(b *testing.B) {
		for b.Loop() {
			if parseDecimal(micros) != 1764115200123456 {
				b.Fatal("wrong")
			}
		}
	})
	b.Run("strconv", func(b *testing.B) {
		for b.Loop() {
			if n, _ := strconv.ParseInt(string(micros), 10, 64); n != 1764115200123456 {
				b.Fatal("wrong")
			}
		}
	})
}
