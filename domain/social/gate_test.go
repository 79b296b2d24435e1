package social_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
)

func newAccess(t *testing.T) (*social.Access, *social.Service) {
	t.Helper()
	st := memory.New()
	svc := social.New(st, st, st, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	return social.NewAccess(svc, memory.NewSessions(), nil), svc
}

// admitAtOnce runs n Admits at once and counts those admitted; any other answer than a
// RetryError fails the test.
func admitAtOnce(t *testing.T, g *social.Gate, n int, client func(i int) social.Client) int {
	t.Helper()
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			_, errs[i] = g.Admit(context.Background(), client(i))
		})
	}
	close(start)
	wg.Wait()
	admitted := 0
	for _, err := range errs {
		var retry *domain.RetryError
		switch {
		case err == nil:
			admitted++
		case errors.As(err, &retry) && errors.Is(err, domain.ErrTooManyAttempts) && retry.After > 0:
		default:
			t.Fatalf("Admit: %v, want nil or a RetryError", err)
		}
	}
	return admitted
}

// A gate's counts are exact under any concurrency: of any number of actions at once, at most
// each limit are admitted, whichever count is reached first.
func TestGateBoundsEachCountExactly(t *testing.T) {
	a, _ := newAccess(t)
	limits := social.GateLimits{Window: time.Minute, PerDevice: 3, PerAddressDevices: 7, PerAddress: 5, PerServer: 12}
	g := a.NewGate("thing", limits)
	if got := admitAtOnce(t, g, 40, func(int) social.Client { return social.Client{Addr: "192.0.2.1"} }); got > limits.PerAddress {
		t.Fatalf("40 at once from one address: %d admitted, want at most %d", got, limits.PerAddress)
	}
	if got := admitAtOnce(t, g, 40, func(int) social.Client { return social.Client{Addr: "192.0.2.2", Device: "d"} }); got > limits.PerDevice {
		t.Fatalf("40 at once from one device: %d admitted, want at most %d", got, limits.PerDevice)
	}
	if got := admitAtOnce(t, g, 40, func(i int) social.Client {
		return social.Client{Addr: "192.0.2.3", Device: "d" + strconv.Itoa(i)}
	}); got > limits.PerAddressDevices {
		t.Fatalf("40 devices at once behind one address: %d admitted, want at most %d", got, limits.PerAddressDevices)
	}
	// One at a time, each count admits exactly its limit, and the server's total holds over all.
	g = a.NewGate("other", limits)
	admitted := 0
	for i := range 30 {
		if _, err := g.Admit(context.Background(), social.Client{Addr: "198.51.100." + strconv.Itoa(i)}); err == nil {
			admitted++
		}
	}
	if admitted != limits.PerServer {
		t.Fatalf("30 addresses one at a time: %d admitted, want the server's %d", admitted, limits.PerServer)
	}
	g = a.NewGate("third", limits)
	admitted = 0
	for range 10 {
		if _, err := g.Admit(context.Background(), social.Client{Addr: "203.0.113.1"}); err == nil {
			admitted++
		}
	}
	if admitted != limits.PerAddress {
		t.Fatalf("one address one at a time: %d admitted, want %d", admitted, limits.PerAddress)
	}
}

// Sign-ups go through their gate: past the address's count, a sign-up is refused with a time to
// wait, and the account is not made.
func TestSignUpsAreBounded(t *testing.T) {
	a, svc := newAccess(t)
	client := social.Client{Addr: "192.0.2.77"}
	for i := range social.SignUpLimits.PerAddress {
		if _, err := a.SignUp(context.Background(), "user"+strconv.Itoa(i), "a password", client); err != nil {
			t.Fatalf("sign-up %d: %v", i+1, err)
		}
	}
	_, err := a.SignUp(context.Background(), "one_too_many", "a password", client)
	if !errors.Is(err, domain.ErrTooManyAttempts) {
		t.Fatalf("the sign-up past the limit: %v", err)
	}
	if _, err := svc.GetUser(context.Background(), "one_too_many"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("the refused sign-up made an account: %v", err)
	}
	if _, err := a.SignUp(context.Background(), "elsewhere", "a password", social.Client{Addr: "198.51.100.77"}); err != nil {
		t.Fatalf("a sign-up from another address: %v", err)
	}
	// A refused sign-up (a name taken, a bad name) does not count.
	other := social.Client{Addr: "198.51.100.78"}
	for range 3 * social.SignUpLimits.PerAddress {
		if _, err := a.SignUp(context.Background(), "elsewhere", "a password", other); !errors.Is(err, domain.ErrAlreadyExists) {
			t.Fatalf("a sign-up of a taken name: %v", err)
		}
	}
	if _, err := a.SignUp(context.Background(), "after_refusals", "a password", other); err != nil {
		t.Fatalf("a sign-up after refused ones: %v", err)
	}
}
