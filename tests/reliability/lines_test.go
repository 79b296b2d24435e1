package reliability

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
)

// manyWriters signs up writers and readers, makes a follow graph (writer w follows w+1; reader
// r follows the writers w with w%readers == r; everyone follows writer 0, a popular account),
// has every writer post perWriter tweets at once, and checks every userline, timeline and the
// public line: each holds exactly the tweets it should.
func manyWriters(t *testing.T, c *client, writers, perWriter, readers int) {
	t.Helper()
	wtok := make([]string, writers)
	for w := range writers {
		wtok[w] = c.user(t, userName(w))
	}
	rtok := make([]string, readers)
	for r := range readers {
		rtok[r] = c.user(t, "reader"+strconv.Itoa(r))
	}
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
		for w := range writers {
			if w%readers == r || w == 0 {
				follow("reader"+strconv.Itoa(r), rtok[r], w)
			}
		}
	}
	posted := postConcurrently(t, c, wtok, perWriter)
	var everything []string
	for w := range writers {
		everything = append(everything, posted[w]...)
		checkLine(t, "userline of "+userName(w), c.line(t, "/api/v1/users/"+userName(w)+"/tweets", ""), posted[w])
		want := slices.Clone(posted[w])
		for _, f := range follows[userName(w)] {
			want = append(want, posted[f]...)
		}
		checkLine(t, "timeline of "+userName(w), c.line(t, "/api/v1/timeline", wtok[w]), want)
	}
	for r := range readers {
		var want []string
		for _, f := range follows["reader"+strconv.Itoa(r)] {
			want = append(want, posted[f]...)
		}
		checkLine(t, "timeline of reader"+strconv.Itoa(r), c.line(t, "/api/v1/timeline", rtok[r]), want)
	}
	checkLine(t, "public line", c.line(t, "/api/v1/public", ""), everything)
}

// postConcurrently has every writer post perWriter tweets at once and returns their IDs.
func postConcurrently(t *testing.T, c *client, tokens []string, perWriter int) [][]string {
	t.Helper()
	posted := make([][]string, len(tokens))
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures []string
	)
	for w := range tokens {
		wg.Go(func() {
			for i := range perWriter {
				status, body, err := c.call(http.MethodPost, "/api/v1/tweets", map[string]string{"body": fmt.Sprintf("%s #%d", userName(w), i)}, tokens[w])
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
	return posted
}

// checkLine fails unless got holds every ID of want exactly once, and nothing else.
func checkLine(t *testing.T, what string, got []tweet, want []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, tw := range got {
		if seen[tw.ID] {
			t.Errorf("%s: tweet %s twice", what, tw.ID)
		}
		seen[tw.ID] = true
	}
	for _, id := range want {
		if !seen[id] {
			t.Errorf("%s: tweet %s lost", what, id)
			return
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d tweets, want %d", what, len(got), len(want))
	}
}
