package domain_test

import (
	"crypto/rand"
	"strings"
	"testing"

	"github.com/google/uuid"

	"twissandra/domain"
)

func TestAppendUUID(t *testing.T) { // not parallel: AllocsPerRun
	ids := []uuid.UUID{uuid.Nil, uuid.Max, domain.NewTimeUUID(1250558004000000), uuid.New()}
	for range 1000 {
		var u uuid.UUID
		_, _ = rand.Read(u[:])
		ids = append(ids, u)
	}
	for _, u := range ids {
		got := domain.AppendUUID([]byte("x"), u)
		if string(got) != "x"+u.String() || len(got) != 1+domain.UUIDTextLen {
			t.Fatalf("AppendUUID(%s) = %q", u, got)
		}
	}
	b := make([]byte, 0, domain.UUIDTextLen)
	if n := testing.AllocsPerRun(100, func() { b = domain.AppendUUID(b[:0], uuid.Max) }); n != 0 {
		t.Errorf("AppendUUID into a buffer with room allocates %v times", n)
	}
}

// ParseUUIDText reads back what AppendUUID writes, in either case, allocating nothing.
func TestParseUUIDText(t *testing.T) { // not parallel: AllocsPerRun
	for range 1000 {
		var u uuid.UUID
		_, _ = rand.Read(u[:])
		text := domain.AppendUUID(nil, u)
		for _, s := range [][]byte{text, []byte(strings.ToUpper(string(text)))} {
			if got, ok := domain.ParseUUIDText(s); !ok || got != u {
				t.Fatalf("ParseUUIDText(%s) = %s, %v", s, got, ok)
			}
		}
	}
	for _, bad := range []string{"", "x", uuid.Max.String()[:35], "{" + uuid.Max.String()[1:], "urn:uuid:" + uuid.Max.String(),
		strings.Replace(uuid.Max.String(), "-", "f", 1), strings.Replace(uuid.Max.String(), "f", "g", 1), strings.Replace(uuid.Max.String(), "f", "-", 1)} {
		if _, ok := domain.ParseUUIDText([]byte(bad)); ok {
			t.Errorf("ParseUUIDText(%q) took it", bad)
		}
	}
	text := []byte(uuid.Max.String())
	if n := testing.AllocsPerRun(100, func() { _, _ = domain.ParseUUIDText(text) }); n != 0 {
		t.Errorf("ParseUUIDText allocates %v times", n)
	}
}

// ParseUUIDText agrees with uuid.ParseBytes on every 36 bytes, and takes nothing else.
func FuzzParseUUIDText(f *testing.F) {
	f.Add([]byte(uuid.Max.String()))
	f.Add([]byte(strings.ToUpper(uuid.New().String())))
	f.Add([]byte("{" + uuid.Nil.String() + "}"))
	f.Add([]byte("00000000-0000-0000-0000-00000000000g"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := domain.ParseUUIDText(b)
		want, err := uuid.ParseBytes(b)
		if len(b) != domain.UUIDTextLen {
			if ok {
				t.Fatalf("%q: took %d bytes", b, len(b))
			}
			return
		}
		if ok != (err == nil) || ok && got != want {
			t.Fatalf("%q: ParseUUIDText %s %v, uuid.ParseBytes %s %v", b, got, ok, want, err)
		}
	})
}

func BenchmarkParseUUIDText(b *testing.B) {
	text := []byte(uuid.New().String())
	b.Run("ParseUUIDText", func(b *testing.B) {
		for b.Loop() {
			if _, ok := domain.ParseUUIDText(text); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("uuid.ParseBytes", func(b *testing.B) {
		for b.Loop() {
			if _, err := uuid.ParseBytes(text); err != nil {
				b.Fatal(err)
			}
		}
	})
}
