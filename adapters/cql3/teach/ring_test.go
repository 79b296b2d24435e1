package teach

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"twissandra/adapters/internal/ring"
	"twissandra/ports/teaching"
	"twissandra/ports/teachingtest"
)

// The Murmur3 tokens computed here are the node's: for blob keys of every length from 1 to 64
// bytes (each tail length, bytes above 0x7f included, which Cassandra's hash reads as signed),
// and for the key types of the application's tables (text, timeuuid, date), each compared
// with what SELECT token(k) answers.
func TestMurmur3TokensAreTheNodes(t *testing.T) {
	s := sharedStore(t)
	ctx := testCtx(t, 2*time.Minute)
	sess, err := s.sess()
	if err != nil {
		t.Fatal(err)
	}
	for _, ddl := range []string{"CREATE TABLE IF NOT EXISTS token_blob (k blob PRIMARY KEY)", "CREATE TABLE IF NOT EXISTS token_text (k text PRIMARY KEY)",
		"CREATE TABLE IF NOT EXISTS token_timeuuid (k timeuuid PRIMARY KEY)", "CREATE TABLE IF NOT EXISTS token_date (k date PRIMARY KEY)",
		"CREATE TABLE IF NOT EXISTS token_composite (a text, b int, c bigint, PRIMARY KEY ((a, b, c)))"} {
		if err := sess.ContextQuery(ctx, ddl, nil).ExecRelease(); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.AwaitSchemaAgreement(ctx); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
	checked := 0
	for n := 1; n <= 64; n++ {
		for range 3 {
			k := make([]byte, n)
			for i := range k {
				k[i] = byte(rng.Uint32())
			}
			if n <= 16 && checked%2 == 0 {
				k[n-1] |= 0x80 // a signed tail byte, for sure
			}
			var got int64
			if err := sess.Session.Query("SELECT token(k) FROM token_blob WHERE k = ?", k).WithContext(ctx).Scan(&got); err != nil && err != gocql.ErrNotFound {
				t.Fatal(err)
			}
			// token() of a row that is not there is not returned: insert, then read.
			if err := sess.Session.Query("INSERT INTO token_blob (k) VALUES (?)", k).WithContext(ctx).Exec(); err != nil {
				t.Fatal(err)
			}
			if err := sess.Session.Query("SELECT token(k) FROM token_blob WHERE k = ?", k).WithContext(ctx).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if want := ring.Murmur3Token(k); got != want {
				t.Errorf("blob %x: the node says %d, computed %d", k, got, want)
			}
			checked++
		}
	}
	text := []string{"jericevans", "ericflo", "!PUBLIC!", "ünïcödé tweets ☃", "a", strconv.Itoa(rng.IntN(1 << 30))}
	tu := gocql.TimeUUID()
	typed := []struct {
		table, typ, value string
		bind              any
	}{
		{"token_timeuuid", "timeuuid", tu.String(), tu},
		{"token_date", "date", "2010-05-12", time.Date(2010, 5, 12, 0, 0, 0, 0, time.UTC)},
		{"token_date", "date", "1969-07-20", time.Date(1969, 7, 20, 0, 0, 0, 0, time.UTC)},
	}
	for _, v := range text {
		typed = append(typed, struct {
			table, typ, value string
			bind              any
		}{"token_text", "text", v, v})
	}
	for _, c := range typed {
		if err := sess.Session.Query("INSERT INTO "+c.table+" (k) VALUES (?)", c.bind).WithContext(ctx).Exec(); err != nil {
			t.Fatal(err)
		}
		var got int64
		if err := sess.Session.Query("SELECT token(k) FROM "+c.table+" WHERE k = ?", c.bind).WithContext(ctx).Scan(&got); err != nil {
			t.Fatal(err)
		}
		tok := keyToken(teaching.CQLTable{PartitionKey: []teaching.CQLColumn{{Name: "k", Type: c.typ}}}, c.value)
		if tok != strconv.FormatInt(got, 10) {
			t.Errorf("%s %q: the node says %d, computed %q", c.typ, c.value, got, tok)
		}
		checked++
	}
	// A composite partition key: each value with its length and a 0 byte.
	composite := teaching.CQLTable{PartitionKey: []teaching.CQLColumn{{Name: "a", Type: "text"}, {Name: "b", Type: "int"}, {Name: "c", Type: "bigint"}}}
	for i, a := range text {
		b, c := int32(rng.Uint32()), int64(rng.Uint64())
		if i%2 == 0 {
			b, c = -b, -c
		}
		if err := sess.Session.Query("INSERT INTO token_composite (a, b, c) VALUES (?, ?, ?)", a, b, c).WithContext(ctx).Exec(); err != nil {
			t.Fatal(err)
		}
		var got int64
		if err := sess.Session.Query("SELECT token(a, b, c) FROM token_composite WHERE a = ? AND b = ? AND c = ?", a, b, c).WithContext(ctx).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if tok := keyToken(composite, a, strconv.Itoa(int(b)), strconv.FormatInt(c, 10)); tok != strconv.FormatInt(got, 10) {
			t.Errorf("(%q, %d, %d): the node says %d, computed %q", a, b, c, got, tok)
		}
		checked++
	}
	if keyToken(composite, "a", "1") != "" || keyToken(composite, "a", "x", "1") != "" {
		t.Error("a token for values that do not fit the key")
	}
	// The store's Tokens reads the table's key types: users is keyed by a text username.
	toks, err := s.Tokens(ctx, "users", [][]string{{"jericevans"}, {"a", "b"}})
	if err != nil || len(toks) != 2 || toks[0] != strconv.FormatInt(ring.Murmur3Token([]byte("jericevans")), 10) || toks[1] != "" {
		t.Errorf("Tokens of users: %q, %v", toks, err)
	}
	t.Logf("%d tokens computed as the node computes them", checked)
}

// The store places a key on the cluster's ring as the driver knows it: the local node and its
// tokens (num_tokens of them), the keyspace's SimpleStrategy:1, and the one replica, the owner
// of the first token at or after the key's.
func TestPlaceKeyOnTheNode(t *testing.T) {
	s := sharedStore(t)
	teachingtest.RunRing(t, s, teachingtest.RingReal, "users")
	kr, err := s.PlaceKey(testCtx(t, time.Minute), "jericevans", teaching.RingSim{})
	if err != nil {
		t.Fatal(err)
	}
	if kr.Partitioner != "Murmur3Partitioner" || kr.Strategy != "SimpleStrategy" || kr.ReplicationFactor != 1 || kr.Simulated || len(kr.Replicas) != 1 {
		t.Errorf("placement: %+v", kr)
	}
	if kr.Token != strconv.FormatInt(ring.Murmur3Token([]byte("jericevans")), 10) {
		t.Errorf("token %s", kr.Token)
	}
	// The nodes' tokens are the ones the node itself reports in system.local.
	sess, _ := s.sess()
	var local []string
	if err := sess.Session.Query("SELECT tokens FROM system.local").Scan(&local); err != nil {
		t.Fatal(err)
	}
	var known []string
	for _, n := range kr.Nodes {
		for _, tk := range n.Tokens {
			known = append(known, tk.Token)
		}
	}
	slices.Sort(local)
	slices.Sort(known)
	if len(kr.Nodes) != 1 || !slices.Equal(local, known) {
		t.Errorf("the ring's tokens %v, system.local's %v", known, local)
	}
}
