package porttest

import (
	"slices"
	"testing"

	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/domain/race"
	"twissandra/ports"
)

// RunClaims checks a ports.NameClaims, the uniqueness race's sandbox: its three calls, then the
// race itself. With the lightweight transaction exactly one of n concurrent sign-ups wins and
// the store names it; by read-then-write more than one is told it won (the race is real: it is
// run until it is observed, and the test fails if it never is), and the store names one of them.
func RunClaims(t *testing.T, claims ports.NameClaims) {
	hasher := domain.NewPasswordHasher(bcrypt.MinCost)
	t.Run("Calls", func(t *testing.T) {
		c := ctx(t)
		name := "claim-" + uuid.NewString()[:8]
		if _, found, err := claims.Lookup(c, name); err != nil || found {
			t.Fatalf("fresh name: found %v, %v", found, err)
		}
		if applied, err := claims.WriteIfAbsent(c, name, "a"); err != nil || !applied {
			t.Fatalf("first WriteIfAbsent: %v, %v", applied, err)
		}
		if applied, err := claims.WriteIfAbsent(c, name, "b"); err != nil || applied {
			t.Fatalf("second WriteIfAbsent: %v, %v", applied, err)
		}
		if owner, found, err := claims.Lookup(c, name); err != nil || !found || owner != "a" {
			t.Fatalf("after the LWTs: %q %v %v, want a", owner, found, err)
		}
		if err := claims.Write(c, name, "c"); err != nil {
			t.Fatal(err)
		}
		if owner, _, err := claims.Lookup(c, name); err != nil || owner != "c" {
			t.Fatalf("a blind write replaces: %q %v", owner, err)
		}
		if r, w, l := claims.Statements(); r == "" || w == "" || l == "" {
			t.Error("Statements must describe all three calls")
		}
	})
	t.Run("Race", func(t *testing.T) {
		c := ctx(t)
		const n, rounds = 64, 40
		for round := 1; ; round++ {
			res, err := race.Run(c, claims, hasher, "rita", n)
			if err != nil {
				t.Fatal(err)
			}
			l, rtw := res.LWT, res.ReadThenWrite
			if l.Winners != 1 || l.Errors != 0 || len(l.Owners) != 1 || l.Owner != l.Owners[0] {
				t.Fatalf("with the LWT: %d winners %v, store names %q, %d errors; want exactly one, named", l.Winners, l.Owners, l.Owner, l.Errors)
			}
			if rtw.Winners < 1 || !slices.Contains(rtw.Owners, rtw.Owner) {
				t.Fatalf("read-then-write: %d winners %v, store names %q", rtw.Winners, rtw.Owners, rtw.Owner)
			}
			if rtw.Winners > 1 {
				t.Logf("round %d: read-then-write told %d of %d racers they won; the LWT told 1", round, rtw.Winners, n)
				return
			}
			if round == rounds {
				t.Fatalf("read-then-write never told two racers they won in %d rounds of %d", rounds, n)
			}
		}
	})
	t.Run("BadInput", func(t *testing.T) {
		for _, n := range []int{0, 1, race.MaxRacers + 1} {
			if _, err := race.Run(ctx(t), claims, hasher, "rita", n); err == nil {
				t.Errorf("%d racers: no error", n)
			}
		}
		if _, err := race.Run(ctx(t), claims, hasher, "no spaces allowed", 4); err == nil {
			t.Error("an invalid username: no error")
		}
	})
}
