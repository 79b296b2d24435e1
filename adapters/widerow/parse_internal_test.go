package widerow

import (
	"strconv"
	"testing"
)

// parseDecimal reads what strconv.ParseInt reads, its error ignored, on every input.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"", "0", "1732406400000000", "-5", "+7", "12a", "999999999999999999", "9223372036854775807", "9223372036854775808", "00042"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, _ := strconv.ParseInt(string(b), 10, 64)
		if got := parseDecimal(b); got != want {
			t.Fatalf("parseDecimal(%q) = %d, strconv says %d", b, got, want)
		}
	})
}
