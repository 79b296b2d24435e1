package teach

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"twissandra/adapters/cql3"
	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/domain"
	"twissandra/internal/testkit/cqltest"
)

// fakeCQL serves one timeline partition and the users table, and records what it was asked.
type fakeCQL struct {
	rows  [][]CQLCell
	asked []CQLSlice
	keys  [][]string
}

var fakeTables = []CQLTable{
	{Keyspace: "twissandra", Name: "timeline",
		PartitionKey: []CQLColumn{{Name: "username", Type: "text"}},
		Clustering:   []CQLColumn{{Name: "time", Type: "timeuuid", Desc: true}},
		Regular:      []CQLColumn{{Name: "tweet_id", Type: "timeuuid"}}},
	{Keyspace: "twissandra", Name: "tweets",
		PartitionKey: []CQLColumn{{Name: "tweet_id", Type: "timeuuid"}},
		Regular:      []CQLColumn{{Name: "body", Type: "text"}, {Name: "username", Type: "text"}}},
	{Keyspace: "twissandra", Name: "authors",
		PartitionKey: []CQLColumn{{Name: "name", Type: "text"}},
		Regular:      []CQLColumn{{Name: "posts", Type: "bigint"}, {Name: "profile", Type: "map<text, text>"}}},
}

func (f *fakeCQL) InspectTables(context.Context) ([]CQLTable, error) { return fakeTables, nil }

func (f *fakeCQL) ReadPartition(_ context.Context, table string, key []string, opts CQLSlice) ([][]CQLCell, error) {
	f.asked = append(f.asked, opts)
	if opts.Start == "bad" {
		return nil, domain.Invalid("start", `"bad" is not a timeuuid`)
	}
	if table == "authors" {
		return [][]CQLCell{{{Name: "name", Value: "'" + key[0] + "'"}, {Name: "posts", Value: "null", Null: true},
			{Name: "profile", Value: "{'bio': 'bla'}"}}}, nil
	}
	return f.rows, nil
}

func (f *fakeCQL) PartitionKeys(context.Context, string, int) ([][]string, error) { return f.keys, nil }

func TestCQLInspectorRendering(t *testing.T) {
	t.Parallel()
	t1, t2 := domain.NewTimeUUID(1273656000123456), domain.NewTimeUUID(1273656001000000)
	id1, id2 := domain.NewTimeUUID(1273656000123456), domain.NewTimeUUID(1273656001000000)
	fake := &fakeCQL{
		rows: [][]CQLCell{
			{{Name: "username", Value: "'jericevans'"}, {Name: "time", Value: t2.String()}, {Name: "tweet_id", Value: id2.String()}},
			{{Name: "username", Value: "'jericevans'"}, {Name: "time", Value: t1.String()}, {Name: "tweet_id", Value: id1.String()}},
		},
		keys: [][]string{{"jericevans"}, {"it's me"}},
	}
	st := memoryStores()
	st.cql, st.backend = fake, "cql3"
	app := newApp(t, st)
	c := app.client(t)

	r := c.get("/models/inspect?table=timeline&user=jericevans&count=5&start=&reversed=")
	if r.status != http.StatusOK {
		t.Fatalf("inspect: %d\n%s", r.status, r.body)
	}
	mustContain(t, r.body,
		`id="cql-notation"`, `id="widerow-notation"`, "The SELECT returned 2 rows",
		"CREATE TABLE twissandra.timeline (username text, time timeuuid, tweet_id timeuuid, PRIMARY KEY (username, time)) WITH CLUSTERING ORDER BY (time DESC)",
		"CompositeType(ReversedType(TimeUUIDType), UTF8Type)",
		// The CQL rows: the partition key once, each row's clustering and regular columns.
		`<span class="n">&#39;jericevans&#39;</span> <span class="c">/* partition key username */</span>: [`,
		`<span class="n">time</span> <span class="c">/* clustering, 2010-05-12 09:20:00.123456 UTC */</span>: <span class="v">`+t1.String()+`</span>,`,
		// The wide row: clustering values as the column names, a row marker, one cell per column.
		`<span class="n">`+t2.String()+`</span> <span class="c">/* time, 2010-05-12 09:20:01.000000 UTC */</span>: {`,
		`<span class="n">&#39;&#39;</span> <span class="c">/* row marker, the cell [time:&#39;&#39;] */</span>: <span class="v">&#39;&#39;</span>,`,
		`<span class="n">&#39;tweet_id&#39;</span> <span class="c">/* the cell [time:&#39;tweet_id&#39;] */</span>: <span class="v">`+id2.String()+`</span>,`,
		`name="user" value="jericevans"`, `name="key" value="jericevans"`)
	if want := (CQLSlice{Count: 5}); len(fake.asked) != 1 || fake.asked[0] != want {
		t.Errorf("asked %+v, want %+v", fake.asked, want)
	}
	// The newest-first row comes first in both views.
	if i, j := strings.Index(r.body, t2.String()), strings.Index(r.body, t1.String()); i < 0 || j < i {
		t.Errorf("rows out of order")
	}

	// No key: some partition keys to pick from, links that escape them.
	r = c.get("/models/inspect?table=timeline")
	mustContain(t, r.body, "Some partition keys of timeline", `href="/models/inspect?key=jericevans&amp;table=timeline"`,
		`href="/models/inspect?key=it%27s+me&amp;table=timeline"`)

	// A table without clustering columns: no slice controls; the wide row is a row marker and
	// one cell per column that is not null.
	r = c.get("/models/inspect?table=authors&key=" + url.QueryEscape("Arin Sarkissian"))
	mustContain(t, r.body, "CompositeType(UTF8Type)", `/* row marker */</span>: <span class="v">&#39;&#39;</span>`,
		"a map: one cell per entry, named [profile:key]")
	mustNotContain(t, r.body, `name="start"`, `name="user"`, `&#39;posts&#39;`)

	for _, tc := range []struct{ query, msg string }{
		{"table=nope", `There is no table &#34;nope&#34; in keyspace twissandra.`},
		{"table=" + url.QueryEscape("timeline; DROP TABLE users"), "There is no table"},
		{"table=tweets&user=bob", "The partition key of tweets is tweet_id (timeuuid), not a username."},
		{"table=timeline&key=bob&count=1001", "Count must be a number from 1 to 1000."},
		{"table=timeline&key=bob&start=bad", "Start: &#34;bad&#34; is not a timeuuid."},
	} {
		r := c.get("/models/inspect?" + tc.query)
		if r.status != http.StatusBadRequest {
			t.Fatalf("%s: status %d", tc.query, r.status)
		}
		mustContain(t, r.body, `id="inspect-error"`, tc.msg)
	}

	m := c.get("/models")
	mustContain(t, m.body, `<a href="/models/inspect">Inspect the stored rows`, `<a href="/models/inspect?table=timeline"><code>timeline (`)
	mustNotContain(t, m.body, `/models/inspect?ks=`)
}

func TestInspectorOnMemorySaysWhy(t *testing.T) {
	t.Parallel()
	r := newApp(t, memoryStores()).client(t).get("/models/inspect")
	mustContain(t, r.body, "there is no storage below the ports to inspect", "--backend cql3")
}

// cql3Stores opens a cql3 Store on a keyspace of this test only (dropped at the end), on the
// node of internal/testkit/cqltest: without it the test skips, loudly; under CI=true it fails.
func cql3Stores(t *testing.T) (stores, *cql3.Store) {
	t.Helper()
	s := cqltest.Store(t, "twissandra_test_pages_")
	in := cqlteach.New(s)
	return stores{users: s, tweets: s, lines: s, authors: s, entries: s, tags: s, comments: s, sessions: s, cql: in, locator: in, claims: in, sizes: in, queryLab: in, ring: in, backend: "cql3"}, s
}

func TestCQLInspectorOnNode(t *testing.T) {
	st, store := cql3Stores(t)
	app := newApp(t, st)
	c := app.client(t)
	c.signUp("rita")
	c.signUp("jericevans") // signed in as jericevans from here on
	if r := c.post("/users/rita/follow", nil); r.status != http.StatusSeeOther {
		t.Fatalf("follow: %d", r.status)
	}
	var ids []string
	for i := range 3 {
		tw, err := app.social.Post(bg(), "rita", fmt.Sprintf("tweet %d", i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tw.ID.String())
	}
	// jericevans's timeline holds rita's tweets, newest first; the time is the tweet's ID.
	r := c.get("/models/inspect?table=timeline&user=jericevans")
	if r.status != http.StatusOK {
		t.Fatalf("inspect: %d\n%s", r.status, r.body)
	}
	mustContain(t, r.body, "The SELECT returned 3 rows", "&#39;jericevans&#39;", "CompositeType(ReversedType(TimeUUIDType), UTF8Type)",
		"CREATE TABLE "+store.Keyspace()+".timeline (username text, time timeuuid, author text, body text, created_at timestamp, created_at_us int, tweet_id timeuuid",
		`WRITETIME(&#34;tweet_id&#34;), TTL(&#34;tweet_id&#34;) FROM `+store.Keyspace()+`.&#34;timeline&#34; WHERE &#34;username&#34; = ? ORDER BY &#34;time&#34; DESC LIMIT ? -&gt; 3 rows`,
		// each cell with its write time, in the CQL rows and in the 1.2 composite cells alike
		`<span class="c ts">/* timestamp `,
		// the footer names each statement's consistency level and the node that coordinated it
		`<span class="op-cl">CL `+store.Consistency()+`</span> · <span class="op-coordinator">coordinator `)
	if !strings.Contains(r.header.Get("Storage-Ops"), "SELECT=") {
		t.Errorf("Storage-Ops: %q", r.header.Get("Storage-Ops"))
	}
	order := func(body string, ids ...string) bool {
		at := make([]int, len(ids))
		for i, id := range ids {
			at[i] = strings.Index(body, `<span class="v">`+id+`</span>`)
		}
		return !slices.Contains(at, -1) && slices.IsSorted(at)
	}
	widerow := func(body string) string {
		_, after, _ := strings.Cut(body, `id="widerow-notation"`)
		return after
	}
	if !order(widerow(r.body), ids[2], ids[1], ids[0]) {
		t.Errorf("not newest first:\n%s", r.body)
	}
	// Reversed, with the oldest as start and count 2.
	r = c.get("/models/inspect?table=timeline&key=jericevans&reversed=1&count=2&start=" + ids[0])
	mustContain(t, r.body, "The SELECT returned 2 rows")
	if !order(widerow(r.body), ids[0], ids[1]) || strings.Contains(r.body, ids[2]) {
		t.Errorf("reversed from the oldest, two rows:\n%s", r.body)
	}
	// Newest first, start is the newer end and finish the older.
	r = c.get("/models/inspect?table=timeline&key=jericevans&start=" + ids[1] + "&finish=" + ids[0])
	mustContain(t, r.body, "The SELECT returned 2 rows")

	// The users row: a blob as hex, a timestamp in RFC 3339; followers keyed by username too.
	r = c.get("/models/inspect?table=users&user=rita")
	mustContain(t, r.body, `<span class="n">password</span>: <span class="v">&lt;bcrypt hash, 60 bytes&gt;`, `<span class="n">&#39;created_at&#39;</span>`)
	r = c.get("/models/inspect?table=followers&user=rita")
	mustContain(t, r.body, "The SELECT returned 1 row (", `<span class="n">&#39;jericevans&#39;</span> <span class="c">/* follower */</span>: {`)
	// The public line is keyed by day: the key list offers it.
	r = c.get("/models/inspect?table=public_line")
	mustContain(t, r.body, "Some partition keys of public_line", time.Now().UTC().Format("2006-01-02"))

	for _, tc := range []struct{ query, msg string }{
		{"table=nope", "There is no table &#34;nope&#34; in keyspace " + store.Keyspace()},
		{"table=timeline&user=jericevans&start=2a3f-not-a-uuid", "Start: &#34;2a3f-not-a-uuid&#34; is neither a timeuuid nor a time"},
		{"table=tweets&key=not-a-uuid", "Tweet_id: &#34;not-a-uuid&#34; is not a timeuuid"},
		{"table=users&key=rita&start=a", "Start: table users has no clustering column"},
	} {
		r := c.get("/models/inspect?" + tc.query)
		if r.status != http.StatusBadRequest {
			t.Fatalf("%s: status %d\n%s", tc.query, r.status, r.body)
		}
		mustContain(t, r.body, tc.msg)
	}
	// Values are bound: a key made of CQL finds nothing, and the table is still there.
	r = c.get("/models/inspect?table=timeline&key=" + url.QueryEscape("jericevans' OR '1'='1"))
	mustContain(t, r.body, "The SELECT returned 0 rows")
	if _, err := cqlteach.New(store).ReadPartition(bg(), "users", []string{"rita"}, cqlteach.PartitionSlice{Count: 1}); err != nil {
		t.Fatal(err)
	}
}

func TestRegisterTypedNilCQL(t *testing.T) {
	t.Parallel()
	st := memoryStores()
	var none *fakeCQL
	st.cql = none
	r := newApp(t, st).client(t).get("/models/inspect")
	if r.status != http.StatusOK || !strings.Contains(r.body, `id="inspect-unavailable"`) {
		t.Fatalf("inspector with a nil inspector: %d\n%s", r.status, r.body)
	}
}
