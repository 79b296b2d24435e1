package reliability

import (
	"encoding/json"
	"fmt"
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
			c := newClient(t, b.new(t))
			writers, perWriter := writerLoad(t)
			const readers = 10
			wtok := make([]string, writers)
			for w := range writers {
				wtok[w] = c.user(t, userName(w))
			}
			rtok := make([]string, readers)
			for r := range readers {
				rtok[r] = c.user(t, "reader"+strconv.Itoa(r))
			}
			// Writer w follows w+1; reader r follows the writers w with w%readers == r, and
			// everyone follows writer 0 (a popular account).
			follows := map[string][]int{}
			follow := func(name, tok string, w int) {
				c.must(t, http.StatusNoContent, http.MethodPut, "/api/v1/users/"+name+"/friends/"+userName(w), nil, tok)
				follows[name] = append(follows[name], w)
			}
			for w := range writers {
				follow(userName(w), wtok[w], (w+1)%writers)
				if w != 0 && (w+1)%writers != 0 {
					follow(userName(w), wtok[w], 0)
				}
			}
			for r := range readers {
				name := "reader" + strconv.Itoa(r)
				for w := range writers {
					if w%readers == r || w == 0 {
						follow(name, rtok[r], w)
					}
				}
			}

			posted := make([][]string, writers)
			var wg sync.WaitGroup
			var mu sync.Mutex
			var failures []string
			for w := range writers {
				wg.Go(func() {
					for i := range perWriter {
						status, body, err := c.call(http.MethodPost, "/api/v1/tweets", map[string]string{"body": fmt.Sprintf("%s #%d", userName(w), i)}, wtok[w])
						var tw tweet
						if err == nil && status == http.StatusCreated {
							err = json.Unmarshal(body, &tw)
						}
						if err != nil || status != http.StatusCreated || tw.ID == "" {
							mu.Lock()
							failures = append(failures, fmt.Sprintf("%s #%d: %d %s %v", userName(w), i, status, body, err))
							mu.Unlock()
							return
						}
						posted[w] = append(posted[w], tw.ID)
					}
				})
			}
			wg.Wait()
			if len(failures) > 0 {
				t.Fatalf("%d posts failed, first: %s", len(failures), failures[0])
			}

			check := func(what string, got []tweet, want []string) {
				t.Helper()
				ids := make([]string, len(got))
				for i, tw := range got {
					ids[i] = tw.ID
				}
				seen := map[string]bool{}
				for _, id := range ids {
					if seen[id] {
						t.Errorf("%s: tweet %s twice", what, id)
					}
					seen[id] = true
				}
				for _, id := range want {
					if !seen[id] {
						t.Errorf("%s: tweet %s lost", what, id)
						return
					}
				}
				if len(ids) != len(want) {
					t.Errorf("%s: %d tweets, want %d", what, len(ids), len(want))
				}
			}
			var everything []string
			for w := range writers {
				everything = append(everything, posted[w]...)
				check("userline of "+userName(w), c.line(t, "/api/v1/users/"+userName(w)+"/tweets", ""), posted[w])
				want := slices.Clone(posted[w])
				for _, f := range follows[userName(w)] {
					want = append(want, posted[f]...)
				}
				check("timeline of "+userName(w), c.line(t, "/api/v1/timeline", wtok[w]), want)
			}
			for r := range readers {
				var want []string
				for _, f := range follows["reader"+strconv.Itoa(r)] {
					want = append(want, posted[f]...)
				}
				check("timeline of reader"+strconv.Itoa(r), c.line(t, "/api/v1/timeline", rtok[r]), want)
			}
			check("public line", c.line(t, "/api/v1/public", ""), everything)
			t.Logf("%d writers x %d tweets on %s: every line exact", writers, perWriter, b.name)
		})
	}
}

// signUpRace sends n simultaneous sign-ups of one name, each with its own password, and checks
// that exactly one gets 201 and the others 409, and that only the winner's password logs in.
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
	ok := 0
	for i := range n {
		s, _, err := c.call(http.MethodPost, "/api/v1/sessions", map[string]string{"username": "contested", "password": password + strconv.Itoa(i)}, "")
		if err == nil && s == http.StatusOK {
			ok++
		}
	}
	if ok != 1 {
		t.Fatalf("%d passwords log in, want 1", ok)
	}
}
