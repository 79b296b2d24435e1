package domain_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
)

// maxMicros is the last Unix microsecond a version-1 UUID can carry.
const maxMicros = (1<<60 - 1 - domain.UnixEpochTicks) / 10

func TestTimeUUID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		micros int64
		ticks  uint64
	}{
		{0, domain.UnixEpochTicks},
		{1, domain.UnixEpochTicks + 10},
		{1250558004000000, 0x01DE8B94537FD200}, // 2009-08-18T01:13:24Z
		{maxMicros, 1<<60 - 1 - 5},             // the last microsecond that fits in 60 bits
	}
	var prev uuid.UUID
	for i, tt := range tests {
		if got := domain.MicrosTicks(tt.micros); got != tt.ticks {
			t.Errorf("MicrosTicks(%d) = %#x, want %#x", tt.micros, got, tt.ticks)
		}
		u := domain.NewTimeUUID(tt.micros)
		if u.Version() != 1 || u.Variant() != uuid.RFC4122 || u[10]&0x01 == 0 {
			t.Errorf("%d: %s is version %d, variant %v, node %x", tt.micros, u, u.Version(), u.Variant(), u[10:])
		}
		if got := domain.TimeUUIDTicks(u); got != tt.ticks || got != uint64(u.Time()) {
			t.Errorf("%d: ticks %#x, want %#x (uuid.Time says %#x)", tt.micros, got, tt.ticks, u.Time())
		}
		if got := domain.TimeUUIDMicros(u); got != tt.micros {
			t.Errorf("%d: round trips to %d", tt.micros, got)
		}
		if v := domain.TimeUUIDFromTicks(tt.ticks, [8]byte(u[8:])); v != u {
			t.Errorf("%d: TimeUUIDFromTicks = %s, want %s", tt.micros, v, u)
		}
		if i > 0 && domain.TimeUUIDTicks(prev) >= domain.TimeUUIDTicks(u) {
			t.Errorf("ticks of %d not after those of %d", tt.micros, tests[i-1].micros)
		}
		prev = u
	}
	// The text form puts time_low first; the ticks put time_hi first.
	if got := domain.TimeUUIDFromTicks(0x0123456789ABCDEF, [8]byte{0x80, 1, 2, 3, 4, 5, 6, 7}).String(); got != "89abcdef-4567-1123-8001-020304050607" {
		t.Errorf("layout: %s", got)
	}
	if a, b := domain.NewTimeUUID(7), domain.NewTimeUUID(7); a == b {
		t.Errorf("two UUIDs of one microsecond are equal: %s", a)
	}
}

// FuzzTimeUUID: writing ticks into a UUID and reading them back is the identity on 60 bits, the
// last eight bytes are kept, and micros from the Unix epoch on round trip through NewTimeUUID.
func FuzzTimeUUID(f *testing.F) {
	f.Add(uint64(domain.UnixEpochTicks), uint64(0), int64(0))
	f.Add(uint64(1<<60-1), uint64(1<<64-1), int64(1250558004000000))
	f.Add(uint64(1<<64-1), uint64(0x8080808080808080), int64(-1))
	f.Fuzz(func(t *testing.T, ts, low uint64, micros int64) {
		var lsb [8]byte
		for i := range lsb {
			lsb[i] = byte(low >> (56 - 8*i))
		}
		u := domain.TimeUUIDFromTicks(ts, lsb)
		if got := domain.TimeUUIDTicks(u); got != ts&(1<<60-1) || got != uint64(u.Time()) {
			t.Fatalf("ticks %#x read back as %#x", ts, got)
		}
		if u.Version() != 1 || [8]byte(u[8:]) != lsb {
			t.Fatalf("%s: version %d, last bytes %x, want 1, %x", u, u.Version(), u[8:], lsb)
		}
		if again := domain.TimeUUIDFromTicks(domain.TimeUUIDTicks(u), lsb); again != u {
			t.Fatalf("%s re-encodes as %s", u, again)
		}
		if micros < 0 || micros > maxMicros {
			return
		}
		v := domain.NewTimeUUID(micros)
		if got := domain.TimeUUIDMicros(v); got != micros {
			t.Fatalf("%d round trips to %d (%s)", micros, got, v)
		}
		if domain.TimeUUIDTicks(v) != domain.MicrosTicks(micros) {
			t.Fatalf("%d: ticks %#x, want %#x", micros, domain.TimeUUIDTicks(v), domain.MicrosTicks(micros))
		}
	})
}

// TimeUUIDType breaks a tie of times on the last eight bytes: unsigned in 0.6, signed from 0.7,
// so the bounds of a time differ. The CQL3 ones are those a 5.0 node answers to
// SELECT maxTimeuuid('2009-08-20 00:00+0000'), minTimeuuid('2009-08-20 00:00+0000')
// (maxTimeuuid of a millisecond is the last tick of its last microsecond).
func TestTimeUUIDBoundsOfEachOrder(t *testing.T) {
	ms := time.Date(2009, 8, 20, 0, 0, 0, 0, time.UTC).UnixMicro()
	for _, c := range []struct {
		o        domain.TieBreak
		min, max string
	}{
		{domain.TieUnsigned, "67564000-8d1c-11de-0000-000000000000", "6756670f-8d1c-11de-ffff-ffffffffffff"},
		{domain.TieSigned, "67564000-8d1c-11de-8080-808080808080", "6756670f-8d1c-11de-7f7f-7f7f7f7f7f7f"},
	} {
		if lo, hi := c.o.MinTimeUUID(ms), c.o.MaxTimeUUID(ms+999); lo.String() != c.min || hi.String() != c.max {
			t.Errorf("%v: %s %s, want %s %s", c.o, lo, hi, c.min, c.max)
		}
		// Every name of the time lies between them under the order, whatever its last bytes.
		for _, lsb := range [][8]byte{{}, {0x7f, 0xff}, {0x80}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, {0x80, 0x7f}} {
			u := domain.TimeUUIDFromTicks(domain.MicrosTicks(ms), lsb)
			if c.o.Compare(c.o.MinTimeUUID(ms), u) > 0 || c.o.Compare(u, c.o.MaxTimeUUID(ms)) > 0 {
				t.Errorf("%v: %s outside its time's bounds", c.o, u)
			}
		}
	}
	a := domain.TimeUUIDFromTicks(domain.MicrosTicks(ms), [8]byte{0x80})
	b := domain.TimeUUIDFromTicks(domain.MicrosTicks(ms), [8]byte{0x7f})
	if domain.TieUnsigned.Compare(a, b) != 1 || domain.TieSigned.Compare(a, b) != -1 {
		t.Errorf("0x80 after 0x7f unsigned, before it signed")
	}
}
