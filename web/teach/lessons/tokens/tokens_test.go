package tokens_test

import (
	"html"
	"math/big"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/adapters/widerow/engine"
	"twissandra/internal/testkit/cqltest"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// evenOwner is the node (0-based) of a balanced 0.6 ring of n nodes whose range holds token t:
// the first whose InitialToken i·2**127/n is at or after t, or the first node.
func evenOwner(t *big.Int, n int) int {
	for i := range n {
		tok := new(big.Int).Lsh(big.NewInt(int64(i)), 127)
		if tok.Quo(tok, big.NewInt(int64(n))).Cmp(t) >= 0 {
			return i
		}
	}
	return 0
}

var replicasLine = regexp.MustCompile(`(?s)id="ring-replicas-widerow">(.*?)</dd>`)

// On widerow the lesson places a key on a simulated ring of the size asked: its token is the
// engine's RandomPartitioner token, its replicas the owner of its range and the next nodes
// clockwise (RackUnawareStrategy), drawn on the ring and listed; a blank factor is the
// storage-conf's (1); the footer says no node was called.
func TestTokensLessonOnWiderow(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	for _, tc := range []struct {
		key        string
		nodes, rf  int
		wantRF     int
		rfParamSet bool
	}{{"jericevans", 5, 3, 3, true}, {"ericflo", 8, 2, 2, true}, {"!PUBLIC!", 4, 0, 1, false}, {"a key with spaces & ünïcode", 3, 3, 3, true}} {
		q := "/learn/tokens?key=" + urlQuery(tc.key) + "&nodes=" + strconv.Itoa(tc.nodes)
		if tc.rfParamSet {
			q += "&rf=" + strconv.Itoa(tc.rf)
		}
		r := c.Get(q)
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d\n%s", q, r.Status, r.Body)
		}
		token := engine.RandomPartitioner.Token(tc.key)
		tok, _ := new(big.Int).SetString(token, 10)
		owner := evenOwner(tok, tc.nodes)
		var want []string
		for j := range tc.wantRF {
			want = append(want, "node "+strconv.Itoa((owner+j)%tc.nodes+1))
		}
		body := r.Body
		webkit.MustContain(t, body, `id="ring-token-widerow">`+token+`</code>`, "RandomPartitioner, RackUnawareStrategy",
			"ReplicationFactor "+strconv.Itoa(tc.wantRF), `<svg id="ring-widerow" class="ring-diagram"`,
			"a simulated ring of "+strconv.Itoa(tc.nodes)+" nodes", "no call to a node")
		m := replicasLine.FindStringSubmatch(body)
		if m == nil || strings.TrimSpace(m[1]) != "<strong>"+strings.Join(want, ", then ")+"</strong>" {
			t.Errorf("%s: replicas %q, want %q", q, m, strings.Join(want, ", then "))
		}
		if got := strings.Count(body, `<g class="ring-node ring-replica">`); got != tc.wantRF {
			t.Errorf("%s: %d replicas drawn, want %d", q, got, tc.wantRF)
		}
		if got := strings.Count(body, `<g class="ring-node`); got != tc.nodes {
			t.Errorf("%s: %d nodes drawn, want %d", q, got, tc.nodes)
		}
		if !strings.Contains(r.Header.Get("Storage-Ops"), "token=1") {
			t.Errorf("%s: Storage-Ops %q", q, r.Header.Get("Storage-Ops"))
		}
	}
}

func urlQuery(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(s, "%", "%25"), "&", "%26"), " ", "+")
}

// A ring the lesson cannot draw is a readable message on the page, never a failure.
func TestTokensLessonRefusesBadRings(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	for q, want := range map[string]string{
		"nodes=0":                          "a ring of 1 to 32 nodes",
		"nodes=abc":                        "a ring of 1 to 32 nodes",
		"nodes=33":                         "a ring of 1 to 32 nodes",
		"nodes=3&rf=0":                     "ReplicationFactor",
		"nodes=3&rf=x":                     "ReplicationFactor",
		"key=" + strings.Repeat("k", 1025): "a row key of 1 to 1024 bytes",
		"key=%ff%fe":                       "a row key of 1 to 1024 bytes of UTF-8",
	} {
		r := c.Get("/learn/tokens?" + q)
		if r.Status != http.StatusOK {
			t.Errorf("%s: %d", q, r.Status)
		}
		webkit.MustContain(t, html.UnescapeString(r.Body), `id="ring-error"`, want)
		if strings.Contains(r.Body, `<svg id="ring-`) {
			t.Errorf("%s: a ring drawn for a refused one", q)
		}
	}
}

// On memory the lesson says there is no ring to place a key on, and how to get one.
func TestTokensLessonOnMemory(t *testing.T) {
	t.Parallel()
	r := teachkit.NewApp(t, webkit.MemoryStores()).Client(t).Get("/learn/tokens?key=ann")
	if r.Status != http.StatusOK {
		t.Fatalf("%d", r.Status)
	}
	webkit.MustContain(t, r.Body, `id="ring-none-memory"`, "a key has no token and no replicas", "--backend cql3")
}

// "Where does it live" shows each row key's token, linked to the lesson placing it.
func TestWhereShowsTokens(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	c.SignUp("ann")
	body := html.UnescapeString(c.Get("/models/where?user=ann").Body)
	webkit.MustContain(t, body, `token <code>`+engine.RandomPartitioner.Token("ann")+`</code> (<a href="/learn/tokens?key=ann#ring">its replicas</a>)`)
}

// On cql3 the lesson places a key on the node's ring as the driver knows it: its Murmur3 token
// is the one the node computes (SELECT token(username)), shown on the lesson and beside the
// user's partition in "where does it live"; the one node holds the one replica
// (SimpleStrategy:1), every one of its tokens drawn.
func TestTokensLessonOnCQL3(t *testing.T) {
	store, raw := cqltest.Keyspace(t, "twissandra_test_tokens_")
	in := cqlteach.New(store)
	st := webkit.Stores{Users: store, Tweets: store, Lines: store, Authors: store, Entries: store, Tags: store, Comments: store, Sessions: store,
		CQL: in, Locator: in, Claims: in, Sizes: in, QueryLab: in, Ring: in, Backend: "cql3"}
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	c.SignUp("jericevans")
	var token int64
	if err := raw.Query("SELECT token(username) FROM users WHERE username = ?", "jericevans").Scan(&token); err != nil {
		t.Fatal(err)
	}
	var tokens []string
	if err := raw.Query("SELECT tokens FROM system.local").Scan(&tokens); err != nil {
		t.Fatal(err)
	}
	r := c.Get("/learn/tokens?key=jericevans")
	if r.Status != http.StatusOK {
		t.Fatalf("%d\n%s", r.Status, r.Body)
	}
	webkit.MustContain(t, r.Body, `id="ring-token-cql3">`+strconv.FormatInt(token, 10)+`</code>`, "Murmur3Partitioner, SimpleStrategy", "ReplicationFactor 1",
		"the driver&#39;s token metadata", `<svg id="ring-cql3" class="ring-diagram"`, "no call to a node")
	if got := strings.Count(r.Body, `<g class="ring-node ring-replica">`); got != len(tokens) {
		t.Errorf("%d replica tokens drawn, the node has %d", got, len(tokens))
	}
	where := html.UnescapeString(c.Get("/models/where?user=jericevans").Body)
	webkit.MustContain(t, where, `token <code>`+strconv.FormatInt(token, 10)+`</code>`)
}

var listedTokens = regexp.MustCompile(`<span class="muted key-token">token <code>(-?\d+)</code></span>`)

// ascending reports whether the tokens listed in body are in increasing order, and how many.
func ascending(t *testing.T, body string) int {
	t.Helper()
	var prev *big.Int
	ms := listedTokens.FindAllStringSubmatch(body, -1)
	for _, m := range ms {
		v, _ := new(big.Int).SetString(m[1], 10)
		if prev != nil && v.Cmp(prev) < 0 {
			t.Errorf("the keys are listed out of token order: %s after %s", v, prev)
		}
		prev = v
	}
	return len(ms)
}

// The widerow inspector shows each listed row key's token, in the order get_range_slices
// returns the keys (token order), and the inspected row's token, linked to the lesson.
func TestInspectorShowsTokensOnWiderow(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	for _, n := range []string{"ann", "bob", "cat", "dan", "eve"} {
		if _, err := app.Social.SignUp(webkit.BG(), n, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	list := c.Get("/models/inspect?ks=Twissandra&cf=Username").Body
	if n := ascending(t, list); n != 5 {
		t.Errorf("%d tokens listed, want one per key (5)", n)
	}
	row := html.UnescapeString(c.Get("/models/inspect?ks=Twissandra&cf=Username&key=ann").Body)
	webkit.MustContain(t, row, `The row key's token: <code>`+engine.RandomPartitioner.Token("ann")+`</code>`, `href="/learn/tokens?key=ann#ring"`)
}

// The cql3 inspector shows each listed partition key's token, in SELECT DISTINCT's (token)
// order, and the inspected partition's.
func TestInspectorShowsTokensOnCQL3(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	for _, n := range []string{"ann", "bob", "cat", "dan", "eve"} {
		if _, err := app.Social.SignUp(webkit.BG(), n, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := ascending(t, c.Get("/models/inspect?table=users").Body); n != 5 {
		t.Errorf("%d tokens listed, want one per partition (5)", n)
	}
	if n := ascending(t, c.Get("/models/inspect?table=tweets").Body); n != 0 {
		t.Errorf("%d tokens of tweets, which hold none yet", n)
	}
	if _, err := app.Social.Post(webkit.BG(), "ann", "a tweet, keyed by a timeuuid"); err != nil {
		t.Fatal(err)
	}
	if n := ascending(t, c.Get("/models/inspect?table=tweets").Body); n != 1 {
		t.Errorf("%d tokens of tweets, want the one of the timeuuid key", n)
	}
	webkit.MustContain(t, html.UnescapeString(c.Get("/models/inspect?table=users&key=ann").Body), `The partition key's token: <code>`, `href="/learn/tokens?key=ann#ring"`)
}
