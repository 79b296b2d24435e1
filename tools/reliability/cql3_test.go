package reliability

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/cql3"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/web"
)

// cqlNode returns the cluster of TWISSANDRA_CQL_HOSTS and TWISSANDRA_CQL_PORT (scripts/test.sh
// exports them), or skips; under CI=true it fails instead: CI must run these tests.
func cqlNode(t *testing.T) (hosts []string, port int) {
	t.Helper()
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("-short: skipping the tests that need a Cassandra node")
	}
	h := os.Getenv("TWISSANDRA_CQL_HOSTS")
	if h == "" {
		msg := "TWISSANDRA_CQL_HOSTS is not set: the cql3 reliability tests need a real Cassandra node (scripts/cassandra.sh up)"
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and %s", msg)
		}
		t.Skipf("SKIPPING THE REAL-NODE TEST: %s", msg)
	}
	port = cql3.DefaultPort
	if p := os.Getenv("TWISSANDRA_CQL_PORT"); p != "" {
		var err error
		if port, err = strconv.Atoi(p); err != nil {
			t.Fatalf("TWISSANDRA_CQL_PORT=%q: %v", p, err)
		}
	}
	return strings.Split(h, ","), port
}

// testKeyspace names a keyspace of one test and drops it when the test ends.
func testKeyspace(t *testing.T, hosts []string, port int) string {
	t.Helper()
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	ks := "twissandra_test_rel_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		c := gocql.NewCluster(hosts...)
		c.Port = port
		c.Timeout = time.Minute
		sess, err := c.CreateSession()
		if err != nil {
			t.Errorf("drop keyspace %s: %v", ks, err)
			return
		}
		defer sess.Close()
		if err := sess.Query("DROP KEYSPACE IF EXISTS " + ks).Exec(); err != nil {
			t.Errorf("drop keyspace %s: %v", ks, err)
		}
	})
	return ks
}

// cqlServer is the HTTP API over a cql3 Store in a keyspace of the test's own.
func cqlServer(t *testing.T) *web.Server {
	t.Helper()
	hosts, port := cqlNode(t)
	ks := testKeyspace(t, hosts, port)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := cql3.Open(ctx, cql3.Config{Hosts: hosts, Port: port, Keyspace: ks, Replication: "SimpleStrategy:1",
		Timeout: 20 * time.Second, StartTimeout: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return newServer(t, social.New(s, s, s, nil, domain.NewPasswordHasher(bcrypt.MinCost)), blog.New(s, s, s, s, nil))
}

// Of simultaneous sign-ups of one name on cql3 (INSERT ... IF NOT EXISTS), exactly one gets 201.
func TestCQL3ConcurrentSignUpsOfOneName(t *testing.T) {
	signUpRace(t, newClient(t, cqlServer(t)), 16)
}

// A smaller TestManyWritersTimelines on cql3: 10 writers x 20 tweets with followers; every line
// exact afterwards.
func TestCQL3ManyWritersTimelines(t *testing.T) {
	c := newClient(t, cqlServer(t))
	const writers, perWriter, readers = 10, 20, 3
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
