package reliability

import (
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
)

// Of many simultaneous sign-ups of one name through the API, exactly one gets 201 and every
// other one 409.
func TestConcurrentSignUpsOfOneName(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			signUpRace(t, newClient(t, b.new(t)), 32)
		})
	}
}

// writerLoad is the size of TestManyWritersTimelines: 50 writers x 200 tweets, or what
// TWISSANDRA_RELIABILITY_TWEETS says per writer.
func writerLoad(t *testing.T) (writers, tweets int) {
	writers, tweets = 50, 200
	if v := os.Getenv("TWISSANDRA_RELIABILITY_TWEETS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("TWISSANDRA_RELIABILITY_TWEETS=%q: want a positive integer", v)
		}
		tweets = n
	}
	return writers, tweets
}

// Writers post concurrently to users with followers; afterwards every line holds exactly the
// tweets it should: none lost, none duplicated, newest first.
func TestManyWritersTimelines(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			writers, perWriter := writerLoad(t)
			manyWriters(t, newClient(t, b.new(t)), writers, perWriter, 10)
			t.Logf("%d writers x %d tweets on %s: every line exact", writers, perWriter, b.name)
		})
	}
}

// signUpRace sends n simultaneous sign-ups of one name, each with its own password, and checks
// that exactly one gets 201 and the others 409, and that the winner's password logs in and the
// losers' do not.
func signUpRace(t *testing.T, c *client, n int) {
	t.Helper()
	statuses := make([]int, n)
	errs := make([]error, n)
	gate := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-gate
			statuses[i], _, errs[i] = c.call(http.MethodPost, "/api/v1/users",
				map[string]string{"username": "contested", "password": password + strconv.Itoa(i)}, "")
		})
	}
	close(gate)
	wg.Wait()
	created, conflicts := 0, 0
	for i, s := range statuses {
		switch {
		case errs[i] != nil:
			t.Errorf("request %d: %v", i, errs[i])
		case s == http.StatusCreated:
			created++
		case s == http.StatusConflict:
			conflicts++
		default:
			t.Errorf("request %d: status %d", i, s)
		}
	}
	if created != 1 || conflicts != n-1 {
		t.Fatalf("%d created and %d conflicts, want 1 and %d", created, conflicts, n-1)
	}
	// Four losers' passwords fail (the log-in limit allows five failures a minute), and the
	// winner's logs in.
	winner := slices.Index(statuses, http.StatusCreated)
	tried := 0
	for i := 0; i < n && tried < 4; i++ {
		if i == winner {
			continue
		}
		tried++
		if s, _, err := c.call(http.MethodPost, "/api/v1/sessions", map[string]string{"username": "contested", "password": password + strconv.Itoa(i)}, ""); err != nil || s != http.StatusUnauthorized {
			t.Fatalf("a loser's password: %d %v, want 401", s, err)
		}
	}
	if s, _, err := c.call(http.MethodPost, "/api/v1/sessions", map[string]string{"username": "contested", "password": password + strconv.Itoa(winner)}, ""); err != nil || s != http.StatusOK {
		t.Fatalf("the winner's password: %d %v, want 200", s, err)
	}
}
