package models_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/domain"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// fakeCQL serves one timeline partition and the users table, and records what it was asked.
type fakeCQL struct {
	rows  [][]frame.CQLCell
	asked []frame.CQLSlice
	keys  [][]string
}

var fakeTables = []frame.CQLTable{
	{Keyspace: "twissandra", Name: "timeline",
		PartitionKey: []frame.CQLColumn{{Name: "username", Type: "text"}},
		Clustering:   []frame.CQLColumn{{Name: "time", Type: "timeuuid", Desc: true}},
		Regular:      []frame.CQLColumn{{Name: "tweet_id", Type: "timeuuid"}}},
	{Keyspace: "twissandra", Name: "tweets",
		PartitionKey: []frame.CQLColumn{{Name: "tweet_id", Type: "timeuuid"}},
		Regular:      []frame.CQLColumn{{Name: "body", Type: "text"}, {Name: "username", Type: "text"}}},
	{Keyspace: "twissandra", Name: "authors",
		PartitionKey: []frame.CQLColumn{{Name: "name", Type: "text"}},
		Regular:      []frame.CQLColumn{{Name: "posts", Type: "bigint"}, {Name: "profile", Type: "map<text, text>"}}},
}

func (f *fakeCQL) InspectTables(context.Context) ([]frame.CQLTable, error) { return fakeTables, nil }

func (f *fakeCQL) ReadPartition(_ context.Context, table string, key []string, opts frame.CQLSlice) ([][]frame.CQLCell, error) {
	f.asked = append(f.asked, opts)
	if opts.Start == "bad" {
		return nil, domain.Invalid("start", `"bad" is not a timeuuid`)
	}
	if table == "authors" {
		return [][]frame.CQLCell{{{Name: "name", Value: "'" + key[0] + "'"}, {Name: "posts", Value: "null", Null: true},
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
		rows: [][]frame.CQLCell{
			{{Name: "username", Value: "'jericevans'"}, {Name: "time", Value: t2.String()}, {Name: "tweet_id", Value: id2.String()}},
			{{Name: "username", Value: "'jericevans'"}, {Name: "time", Value: t1.String()}, {Name: "tweet_id", Value: id1.String()}},
		},
		keys: [][]string{{"jericevans"}, {"it's me"}},
	}
	st := webkit.MemoryStores()
	st.CQL, st.Backend = fake, "cql3"
	app := teachkit.NewApp(t, st)
	c := app.Client(t)

	r := c.Get("/models/inspect?table=timeline&user=jericevans&count=5&start=&reversed=")
	if r.Status != http.StatusOK {
		t.Fatalf("inspect: %d\n%s", r.Status, r.Body)
	}
	webkit.MustContain(t, r.Body,
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
	if want := (frame.CQLSlice{Count: 5}); len(fake.asked) != 1 || fake.asked[0] != want {
		t.Errorf("asked %+v, want %+v", fake.asked, want)
	}
	// The newest-first row comes first in both views.
	if i, j := strings.Index(r.Body, t2.String()), strings.Index(r.Body, t1.String()); i < 0 || j < i {
		t.Errorf("rows out of order")
	}

	// No key: some partition keys to pick from, links that escape them.
	r = c.Get("/models/inspect?table=timeline")
	webkit.MustContain(t, r.Body, "Some partition keys of timeline", `href="/models/inspect?key=jericevans&amp;table=timeline"`,
		`href="/models/inspect?key=it%27s+me&amp;table=timeline"`)

	// A table without clustering columns: no slice controls; the wide row is a row marker and
	// one cell per column that is not null.
	r = c.Get("/models/inspect?table=authors&key=" + url.QueryEscape("Arin Sarkissian"))
	webkit.MustContain(t, r.Body, "CompositeType(UTF8Type)", `/* row marker */</span>: <span class="v">&#39;&#39;</span>`,
		"a map: one cell per entry, named [profile:key]")
	webkit.MustNotContain(t, r.Body, `name="start"`, `name="user"`, `&#39;posts&#39;`)

	for _, tc := range []struct{ query, msg string }{
		{"table=nope", `There is no table &#34;nope&#34; in keyspace twissandra.`},
		{"table=" + url.QueryEscape("timeline; DROP TABLE users"), "There is no table"},
		{"table=tweets&user=bob", "The partition key of tweets is tweet_id (timeuuid), not a username."},
		{"table=timeline&key=bob&count=1001", "Count must be a number from 1 to 1000."},
		{"table=timeline&key=bob&start=bad", "Start: &#34;bad&#34; is not a timeuuid."},
	} {
		r := c.Get("/models/inspect?" + tc.query)
		if r.Status != http.StatusBadRequest {
			t.Fatalf("%s: status %d", tc.query, r.Status)
		}
		webkit.MustContain(t, r.Body, `id="inspect-error"`, tc.msg)
	}

	m := c.Get("/models")
	webkit.MustContain(t, m.Body, `<a href="/models/inspect">Inspect the stored rows`, `<a href="/models/inspect?table=timeline"><code>timeline (`)
	webkit.MustNotContain(t, m.Body, `/models/inspect?ks=`)
}

func TestInspectorOnMemorySaysWhy(t *testing.T) {
	t.Parallel()
	r := teachkit.NewApp(t, webkit.MemoryStores()).Client(t).Get("/models/inspect")
	webkit.MustContain(t, r.Body, "there is no storage below the ports to inspect", "--backend cql3")
}

func TestCQLInspectorOnNode(t *testing.T) {
	st, store := webkit.CQL3Stores(t)
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	c.SignUp("rita")
	c.SignUp("jericevans") // signed in as jericevans from here on
	if r := c.Post("/users/rita/follow", nil); r.Status != http.StatusSeeOther {
		t.Fatalf("follow: %d", r.Status)
	}
	var ids []string
	for i := range 3 {
		tw, err := app.Social.Post(webkit.BG(), "rita", fmt.Sprintf("tweet %d", i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tw.ID.String())
	}
	// jericevans's timeline holds rita's tweets, newest first; the time is the tweet's ID.
	r := c.Get("/models/inspect?table=timeline&user=jericevans")
	if r.Status != http.StatusOK {
		t.Fatalf("inspect: %d\n%s", r.Status, r.Body)
	}
	webkit.MustContain(t, r.Body, "The SELECT returned 3 rows", "&#39;jericevans&#39;", "CompositeType(ReversedType(TimeUUIDType), UTF8Type)",
		"CREATE TABLE "+store.Keyspace()+".timeline (username text, time timeuuid, author text, body text, created_at timestamp, created_at_us int, tweet_id timeuuid",
		`WRITETIME(&#34;tweet_id&#34;), TTL(&#34;tweet_id&#34;) FROM `+store.Keyspace()+`.&#34;timeline&#34; WHERE &#34;username&#34; = ? ORDER BY &#34;time&#34; DESC LIMIT ? -&gt; 3 rows`,
		// each cell with its write time, in the CQL rows and in the 1.2 composite cells alike
		`<span class="c ts">/* timestamp `,
		// the footer names each statement's consistency level and the node that coordinated it
		`<span class="op-cl">CL `+store.Consistency()+`</span> · <span class="op-coordinator">coordinator `)
	if !strings.Contains(r.Header.Get("Storage-Ops"), "SELECT=") {
		t.Errorf("Storage-Ops: %q", r.Header.Get("Storage-Ops"))
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
	if !order(widerow(r.Body), ids[2], ids[1], ids[0]) {
		t.Errorf("not newest first:\n%s", r.Body)
	}
	// Reversed, with the oldest as start and count 2.
	r = c.Get("/models/inspect?table=timeline&key=jericevans&reversed=1&count=2&start=" + ids[0])
	webkit.MustContain(t, r.Body, "The SELECT returned 2 rows")
	if !order(widerow(r.Body), ids[0], ids[1]) || strings.Contains(r.Body, ids[2]) {
		t.Errorf("reversed from the oldest, two rows:\n%s", r.Body)
	}
	// Newest first, start is the newer end and finish the older.
	r = c.Get("/models/inspect?table=timeline&key=jericevans&start=" + ids[1] + "&finish=" + ids[0])
	webkit.MustContain(t, r.Body, "The SELECT returned 2 rows")

	// The users row: a blob as hex, a timestamp in RFC 3339; followers keyed by username too.
	r = c.Get("/models/inspect?table=users&user=rita")
	webkit.MustContain(t, r.Body, `<span class="n">password</span>: <span class="v">&lt;bcrypt hash, 60 bytes&gt;`, `<span class="n">&#39;created_at&#39;</span>`)
	r = c.Get("/models/inspect?table=followers&user=rita")
	webkit.MustContain(t, r.Body, "The SELECT returned 1 row (", `<span class="n">&#39;jericevans&#39;</span> <span class="c">/* follower */</span>: {`)
	// The public line is keyed by day: the key list offers it.
	r = c.Get("/models/inspect?table=public_line")
	webkit.MustContain(t, r.Body, "Some partition keys of public_line", time.Now().UTC().Format("2006-01-02"))

	for _, tc := range []struct{ query, msg string }{
		{"table=nope", "There is no table &#34;nope&#34; in keyspace " + store.Keyspace()},
		{"table=timeline&user=jericevans&start=2a3f-not-a-uuid", "Start: &#34;2a3f-not-a-uuid&#34; is neither a timeuuid nor a time"},
		{"table=tweets&key=not-a-uuid", "Tweet_id: &#34;not-a-uuid&#34; is not a timeuuid"},
		{"table=users&key=rita&start=a", "Start: table users has no clustering column"},
	} {
		r := c.Get("/models/inspect?" + tc.query)
		if r.Status != http.StatusBadRequest {
			t.Fatalf("%s: status %d\n%s", tc.query, r.Status, r.Body)
		}
		webkit.MustContain(t, r.Body, tc.msg)
	}
	// Values are bound: a key made of CQL finds nothing, and the table is still there.
	r = c.Get("/models/inspect?table=timeline&key=" + url.QueryEscape("jericevans' OR '1'='1"))
	webkit.MustContain(t, r.Body, "The SELECT returned 0 rows")
	if _, err := cqlteach.New(store).ReadPartition(webkit.BG(), "users", []string{"rita"}, cqlteach.PartitionSlice{Count: 1}); err != nil {
		t.Fatal(err)
	}
}

func TestRegisterTypedNilCQL(t *testing.T) {
	t.Parallel()
	st := webkit.MemoryStores()
	var none *fakeCQL
	st.CQL = none
	r := teachkit.NewApp(t, st).Client(t).Get("/models/inspect")
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `id="inspect-unavailable"`) {
		t.Fatalf("inspector with a nil inspector: %d\n%s", r.Status, r.Body)
	}
}
