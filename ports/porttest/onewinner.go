package porttest

import (
	"errors"
	"sync"
	"testing"
)

// exactlyOneWins starts n attempts at the same moment and checks that exactly one succeeds and
// every other fails with loser (domain.ErrAlreadyExists, or ErrNotFound for deletes). It returns
// the index of the winning attempt.
func exactlyOneWins(t *testing.T, what string, n int, loser error, attempt func(i int) error) int {
	t.Helper()
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = attempt(i)
		})
	}
	close(start)
	wg.Wait()
	winner, wins, lost := -1, 0, 0
	for i, err := range errs {
		switch {
		case err == nil:
			winner = i
			wins++
		case errors.Is(err, loser):
			lost++
		default:
			t.Errorf("%s #%d: %v", what, i, err)
		}
	}
	if wins != 1 || lost != n-1 {
		t.Fatalf("of %d concurrent %s: %d succeeded, %d got %v; want exactly 1 winner", n, what, wins, lost, loser)
	}
	return winner
}
