package domain_test

import (
	"crypto/rand"
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
