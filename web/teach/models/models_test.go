package models_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	wideteach "twissandra/adapters/widerow/teach"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

func TestModelsAndInspector(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	c.SignUp("rita")
	for _, body := range []string{"first", "second", "third"} {
		if r := c.Post("/tweets", url.Values{"body": {body}}); r.Status != http.StatusSeeOther {
			t.Fatalf("post: %d", r.Status)
		}
	}
	m := c.Get("/models")
	// The CQL3 side is the migrations the cql3 adapter applies, whatever the backend: the
	// tables they leave, and the migrations as written.
	webkit.MustContain(t, m.Body, `&lt;Keyspace Name=&#34;Twissandra&#34;&gt;`, "CREATE TABLE userline (\n    username text,\n    time timeuuid,",
		"CREATE TABLE public_line (", "follower_count int static", "-- 001_twissandra.cql", "WITH COMPACT STORAGE", "Twissandra.Userline")
	webkit.MustNotContain(t, m.Body, "time bigint", "The equivalent CQL3 tables")

	// The username helper resolves the row key through the Username column family.
	r := c.Get("/models/inspect?ks=Twissandra&cf=Userline&user=rita&reversed=1&count=2")
	if r.Status != http.StatusOK {
		t.Fatalf("inspect: %d\n%s", r.Status, r.Body)
	}
	webkit.MustContain(t, r.Body, `id="row-notation"`, "Userline =", "/* row key */", "get_slice returned 2 columns",
		"get_slice Twissandra.Username[&#39;rita&#39;] names=[&#34;id&#34;] -&gt; 1 columns",
		"reversed count=2 -&gt; 2 columns")
	// Two get_slices: the username's row key from Username, then the slice of Userline.
	if h := r.Header.Get("Storage-Ops"); webkit.OpCount(h, "get_slice") != 2 {
		t.Fatalf("Storage-Ops: %q", h)
	}
	// The User row: UTF8 names; the bcrypt hash shown as what it is (secrets_test.go), never raw.
	r = c.Get("/models/inspect?ks=Twissandra&cf=User&user=rita")
	webkit.MustContain(t, r.Body, `&#34;username&#34;</span>: <span class="v">&#34;rita&#34;`)
	// The key list of a column family.
	r = c.Get("/models/inspect?cf_path=Twissandra.Username")
	webkit.MustContain(t, r.Body, "Some row keys of Twissandra.Username", `key=rita`)
	// The public line row, bounded by a date.
	public := "/models/inspect?ks=Twissandra&cf=Userline&key=" + url.QueryEscape("!PUBLIC!")
	webkit.MustContain(t, c.Get(public+"&start=2000-01-01T00:00:00Z").Body, "get_slice returned 3 columns")
	webkit.MustContain(t, c.Get(public+"&finish=2000-01-01T00:00:00Z").Body, "get_slice returned 0 columns")

	for _, tc := range []struct{ query, msg string }{
		{"ks=Twissandra&cf=Nope", "There is no column family Twissandra.Nope"},
		{"ks=Twissandra&cf=Userline&key=x&start=soon", "is neither a number nor a date"},
		{"ks=Twissandra&cf=Userline&key=x&count=0", "Count must be a number from 1 to 1000"},
		{"ks=Twissandra&cf=Userline&user=nobody", "No user is named &#34;nobody&#34; (the Username row has no id column)."},
		{"ks=BloggyAppy&cf=TaggedPosts&key=x&start=not-a-uuid", "is not a UUID"},
	} {
		r := c.Get("/models/inspect?" + tc.query)
		if r.Status != http.StatusBadRequest {
			t.Fatalf("%s: status %d", tc.query, r.Status)
		}
		webkit.MustContain(t, r.Body, tc.msg)
	}
}

func TestInspectorElsewhere(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	r := app.Client(t).Get("/models/inspect")
	if r.Status != http.StatusOK || !strings.Contains(r.Body, "--backend widerow") {
		t.Fatalf("inspector on memory: %d\n%s", r.Status, r.Body)
	}
}

func TestNotationSuperColumns(t *testing.T) {
	t.Parallel()
	lines := frame.Notation("AddressBook", "phatduckk", []teaching.WideColumn{{Name: `"John"`,
		Columns: []teaching.WideColumn{{Name: `"street"`, Value: `"Howard street"`}, {Name: `"zip"`, Value: `"94404"`}},
	}})
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Indent)
		switch {
		case l.Close:
			b.WriteString("}")
		case l.Open:
			b.WriteString(l.Name + " {")
		default:
			b.WriteString(l.Name + ": " + l.Value)
		}
		b.WriteString("\n")
	}
	want := "AddressBook = {\n    \"phatduckk\" {\n        \"John\" {\n            \"street\": \"Howard street\"\n            \"zip\": \"94404\"\n        }\n    }\n}\n"
	if b.String() != want {
		t.Fatalf("notation:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestRegisterTypedNilNode(t *testing.T) {
	t.Parallel()
	st := webkit.MemoryStores()
	var in *wideteach.Inspector
	st.Wide = in
	app := teachkit.NewApp(t, st)
	r := app.Client(t).Get("/models/inspect")
	if r.Status != http.StatusOK || !strings.Contains(r.Body, "--backend widerow") {
		t.Fatalf("inspector with a nil node: %d", r.Status)
	}
}

// Every seed defines a column as name, value and timestamp: the inspector shows all three, and
// a column written again shows its newer timestamp.
func TestInspectorShowsTimestamps(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	app.Client(t).SignUp("rita")
	r := app.Client(t).Get("/models/inspect?ks=Twissandra&cf=User&user=rita")
	year := strconv.Itoa(time.Now().UTC().Year())
	webkit.MustContain(t, r.Body, `&#34;username&#34;</span>: <span class="v">&#34;rita&#34;</span>, <span class="c ts">/* timestamp `, ", "+year+"-")
}

// A delete writes a tombstone: after an unfollow the Friends row reads empty, and the inspector
// shows the tombstone it stores, with its deletion time.
func TestInspectorShowsTombstones(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	c.SignUp("bob")
	c.SignUp("ann")
	friends := "/models/inspect?cf_path=Twissandra.Friends&user=ann"
	if r := c.Post("/users/bob/follow", url.Values{"next": {"/users/bob"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("follow: %d", r.Status)
	}
	webkit.MustNotContain(t, c.Get(friends).Body, `id="stored-cells"`) // nothing deleted yet
	if r := c.Post("/users/bob/unfollow", url.Values{"next": {"/users/bob"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("unfollow: %d", r.Status)
	}
	r := c.Get(friends)
	year := strconv.Itoa(time.Now().UTC().Year())
	webkit.MustContain(t, r.Body, "get_slice returned 0 columns", "What the row stores: 1 cell, 1 tombstone",
		`<span class="tomb">tombstone</span>, <span class="c ts">/* tombstone, deleted at `, ", "+year+"-",
		// The node's receipt time, from which the grace counts, and the running engine's grace.
		"; received "+year+"-", "0.6's localDeletionTime", "GCGraceSeconds</a> (864000 s, 10 days here)",
		"This server compacts only when asked (--compaction-interval 0)")
}
