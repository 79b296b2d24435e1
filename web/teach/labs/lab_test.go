package labs_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/site"
	"twissandra/web/teach/labs"
)

// The lab stores the seeds' example under the six comparators and shows each order, slices it,
// and shows last write wins in both orders. Every form answers with a redirect to the lab,
// whose page shows what it did: a reload shows it again and runs nothing twice.
func TestLabPage(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores()) // the lab runs whatever the backend
	c := app.Client(t)
	r := c.Get("/models/lab")
	if r.Status != http.StatusOK {
		t.Fatalf("lab: %d", r.Status)
	}
	webkit.MustContain(t, r.Body, `id="lab-form"`, `action="/models/lab/insert"`, `name="csrf_token"`, `name="back" value="/models/lab"`)
	webkit.MustNotContain(t, r.Body, `id="lab-order"`) // nothing inserted yet

	r = c.Submit("/models/lab/insert", url.Values{"names": {"976, 3 832416\n123"}, "value": {"v"}}, "/models/lab#lab-rows")
	body := html.UnescapeString(r.Body)
	webkit.MustContain(t, body, "Inserted 4 names: <code>976</code>, <code>3</code>, <code>832416</code>, <code>123</code>",
		"0x0000000000000003", "0x00000000000cb3a0", `"3" is not a LexicalUUIDType name`, `"976" is not a TimeUUIDType name`,
		"What your insert cost")
	for col, want := range map[int]string{0: `"123" "3" "832416" "976"`, 2: `"123" "3" "832416" "976"`, 3: "3 123 976 832416", 4: "", 5: ""} {
		if got := strings.Join(teachkit.LabColumn(t, body, col), " "); got != want {
			t.Errorf("column %d: %s, want %s", col, got, want)
		}
	}
	// A reload shows the same row and the same insert, and inserts nothing again.
	reload := html.UnescapeString(c.Get("/models/lab").Body)
	if got := strings.Join(teachkit.LabColumn(t, reload, 3), " "); got != "3 123 976 832416" {
		t.Errorf("LongType after a reload: %s", got)
	}
	webkit.MustContain(t, reload, "Inserted 4 names")
	webkit.MustNotContain(t, reload, "What your insert cost")
	other := app.Client(t)
	other.Submit("/models/lab/insert", url.Values{"names": {"7"}}, "/models/lab")
	if got := strings.Join(teachkit.LabColumn(t, other.Get("/models/lab").Body, 3), " "); got != "7" {
		t.Errorf("the other browser's LongType row: %s", got)
	}
	if got := strings.Join(teachkit.LabColumn(t, c.Get("/models/lab").Body, 3), " "); got != "3 123 976 832416" {
		t.Errorf("the first browser's row after another's insert: %s", got)
	}

	r = c.Submit("/models/lab/slice", url.Values{"cmp": {"LongType"}, "start": {"1000"}, "reversed": {"1"}, "count": {"2"}}, "/models/lab#slice")
	body = html.UnescapeString(r.Body)
	webkit.MustContain(t, body, "Returned 2: <code>976</code>, <code>123</code>",
		"ColumnParent(column_family='Longs'), predicate=SlicePredicate(slice_range=SliceRange(start=struct.pack('>q', 1000), finish='', reversed=True, count=2))",
		`id="lab-reversed" checked`, `id="lab-start" value="1000"`)
	r = c.Submit("/models/lab/slice", url.Values{"cmp": {"UTF8Type"}, "start": {"4"}, "count": {"10"}}, "/models/lab#slice")
	webkit.MustContain(t, html.UnescapeString(r.Body), `Returned 2: <code>"832416"</code>, <code>"976"</code>`)

	// UTF8Type in 0.6.6's byte order, as the page says: U+FF71 before U+1F600, which 0.6.0 to
	// 0.6.3's UTF-16 order put the other way.
	c.Submit("/models/lab/clear", nil, "/models/lab#lab-rows")
	body = html.UnescapeString(c.Submit("/models/lab/insert", url.Values{"names": {"\U0001F600 \uFF71"}}, "/models/lab#lab-rows").Body)
	if got := strings.Join(teachkit.LabColumn(t, body, 2), " "); got != "\"\uFF71\" \"\U0001F600\"" {
		t.Errorf("UTF8Type: %s", got)
	}
	webkit.MustContain(t, body, "UTF8Type compares bytes as Cassandra 0.6.4 and later do (this emulation follows 0.6.6): store ｱ and 😀, and ｱ (U+FF71) comes first")

	r = c.Submit("/models/lab/clear", nil, "/models/lab#lab-rows")
	if strings.Contains(r.Body, `id="lab-order"`) || !strings.Contains(r.Body, `id="lab-empty"`) {
		t.Errorf("after clear:\n%s", r.Body)
	}
}

// A form sends the learner back to the lesson it came from, and nowhere else; the address of a
// form's action, bookmarked, leads to the lab.
func TestLabFormsGoBack(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	for _, action := range []string{"insert", "slice", "lww", "clear", "put", "replicas"} {
		if r := c.Get("/models/lab/" + action); r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/models/lab" {
			t.Errorf("GET /models/lab/%s: %d to %q", action, r.Status, r.Header.Get("Location"))
		}
	}
	for _, tc := range []struct{ back, want string }{
		{"/learn/slices", "/learn/slices#lab-rows"},
		{"/learn/no-such-lesson", "/models/lab#lab-rows"},
		{"https://example.com/", "/models/lab#lab-rows"},
		{"//example.com/learn/slices", "/models/lab#lab-rows"},
		{"", "/models/lab#lab-rows"},
	} {
		r := c.Post("/models/lab/insert", url.Values{"names": {"3"}, "back": {tc.back}})
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != tc.want {
			t.Errorf("back %q: %d to %q, want %s", tc.back, r.Status, r.Header.Get("Location"), tc.want)
		}
	}
}

// Bad input is refused on the page after the redirect, once, with what was typed.
func TestLabPageRefusesBadInput(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	for _, bad := range []struct {
		path   string
		form   url.Values
		anchor string
		msg    string
		typed  string
	}{
		{"/models/lab/insert", url.Values{"names": {" , "}}, "lab-rows", "Names: give 1 to 50 names.", `name="names" value=" , "`},
		{"/models/lab/insert", url.Values{"names": {strings.Repeat("x", 101)}}, "lab-rows", "Names: each name must be 1 to 100 bytes.", ""},
		{"/models/lab/insert", url.Values{"names": {strings.Repeat("a ", 51)}}, "lab-rows", "Names: give 1 to 50 names.", ""},
		{"/models/lab/slice", url.Values{"cmp": {"LongType"}, "start": {"abc"}, "count": {"3"}}, "slice", `Start: "abc" is not a LongType name`, `id="lab-start" value="abc"`},
		{"/models/lab/slice", url.Values{"cmp": {"TimeUUIDType"}, "finish": {"3"}, "count": {"3"}}, "slice", `Finish: "3" is not a TimeUUIDType name`, ""},
		{"/models/lab/slice", url.Values{"cmp": {"Nope"}, "count": {"3"}}, "slice", `"Nope" is none of the six comparators`, ""},
		{"/models/lab/slice", url.Values{"cmp": {"LongType"}, "count": {"many"}}, "slice", `Count: must be a whole number, not "many".`, `id="lab-count" value="many"`},
		{"/models/lab/slice", url.Values{"cmp": {"LongType"}, "count": {"-1"}}, "slice", "Count: must be from 0 to 200.", ""},
		{"/models/lab/slice", url.Values{"cmp": {"LongType"}, "start": {"10"}, "finish": {"5"}, "count": {"3"}}, "slice", "Range finish must come after start in the order of traversal", ""},
		{"/models/lab/lww", url.Values{"v1": {"a"}, "t1": {"soon"}, "v2": {"b"}, "t2": {"2"}}, "lww", `Write 1: its timestamp must be a whole number of microseconds, not "soon".`, `id="lww-t1" value="soon"`},
		{"/models/lab/lww", url.Values{"v1": {"a"}, "t1": {"1"}, "v2": {"b"}, "t2": {"2"}, "del": {"1"}, "tdel": {""}}, "lww", "The delete: its timestamp", ""},
		{"/models/lab/lww", url.Values{"v1": {strings.Repeat("x", 101)}, "t1": {"1"}, "v2": {"b"}, "t2": {"2"}}, "lww", "Value: must be at most 100 bytes.", ""},
	} {
		r := c.Submit(bad.path, bad.form, "/models/lab#"+bad.anchor)
		body := html.UnescapeString(r.Body)
		webkit.MustContain(t, body, bad.msg, `role="alert"`)
		if bad.typed != "" {
			webkit.MustContain(t, body, bad.typed)
		}
		// Shown once: a reload no longer says it.
		if again := html.UnescapeString(c.Get("/models/lab").Body); strings.Contains(again, bad.msg) {
			t.Errorf("%s %v: the refusal is shown again after a reload", bad.path, bad.form)
		}
	}
}

// Last write wins in both orders, with the stored cell and tombstone shown, and a diagram of the
// writes on a line of timestamps that has an accessible name; each of the three timestamps has
// a label of its own.
func TestLabPageLastWriteWins(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	webkit.MustContain(t, c.Get("/models/lab").Body, "Write 1: timestamp (µs)", "Write 2: timestamp (µs)", "The delete: timestamp (µs)")
	for _, tc := range []struct {
		name  string
		form  url.Values
		wants []string
	}{
		{"older arrives last", url.Values{"v1": {"first"}, "t1": {"200"}, "v2": {"second"}, "t2": {"100"}}, []string{
			`Both replicas read "first": the write with the highest timestamp (200) wins, not the one that arrived last.`,
			"Applied in the order given", "Applied in the reverse order", `get returns <code>"first"</code> (timestamp 200)`,
			`insert(key='lab-`, `value="second", timestamp=100)`,
			`1: "first" (kept)`, `Whatever the order, the read keeps "first", timestamp 200.`}},
		{"tie", url.Values{"v1": {"a"}, "t1": {"7"}, "v2": {"b"}, "t2": {"7"}}, []string{
			`Both replicas read "b": 2 writes share the highest timestamp (7), and on a tie Cassandra keeps the larger value`,
			`2: "b" (kept)`}},
		{"delete", url.Values{"v1": {"first"}, "t1": {"200"}, "v2": {"second"}, "t2": {"100"}, "del": {"1"}, "tdel": {"300"}}, []string{
			"Both replicas read nothing: the delete's tombstone (timestamp 300)", "get returns nothing: NotFoundException",
			`<span class="tomb">tombstone</span>`, "tombstone, deleted at 300", "remove(key='lab-", "delete (kept)",
			"the read keeps nothing: the delete's tombstone hides the column"}},
		{"a tombstone wins a tie", url.Values{"v1": {"first"}, "t1": {"300"}, "v2": {"second"}, "t2": {"100"}, "del": {"1"}, "tdel": {"300"}}, []string{
			"Both replicas read nothing: the delete's tombstone (timestamp 300) is at least as new as every write", "delete (kept)"}},
		{"write after the delete", url.Values{"v1": {"first"}, "t1": {"400"}, "v2": {"second"}, "t2": {"100"}, "del": {"1"}, "tdel": {"300"}}, []string{
			`Both replicas read "first": its timestamp (400) is higher than the delete's (300)`}},
	} {
		r := c.Submit("/models/lab/lww", tc.form, "/models/lab#lww")
		body := html.UnescapeString(r.Body)
		webkit.MustContain(t, body, `<svg id="lww-diagram" class="lww-diagram" role="img" aria-labelledby="lww-diagram-title" aria-describedby="lww-diagram-caption"`,
			`<title id="lww-diagram-title">Last write wins: the writes on a line of timestamps</title>`)
		for _, w := range tc.wants {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the page lacks %q", tc.name, w)
			}
		}
	}
}

// LexicalUUIDType puts ffffffff-… before 00000000-…, and the page says why: 0.6 compared the
// two halves as signed longs.
func TestLabPageLexicalUUIDOrder(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	body := html.UnescapeString(c.Submit("/models/lab/insert", url.Values{"names": {labs.UuidNames}}, "/models/lab").Body)
	lexical := strings.Join(teachkit.LabColumn(t, body, 4), " ")
	timeUUID := strings.Join(teachkit.LabColumn(t, body, 5), " ")
	bytes := strings.Join(teachkit.LabColumn(t, body, 0), " ")
	if lexical != "80000000-0000-1000-8000-000000000000 ffffffff-0000-1000-8000-000000000000 00000000-0000-1000-8000-000000000001 00000000-0000-1001-8000-000000000000" {
		t.Errorf("LexicalUUIDType: %s", lexical)
	}
	if timeUUID != "00000000-0000-1000-8000-000000000001 80000000-0000-1000-8000-000000000000 ffffffff-0000-1000-8000-000000000000 00000000-0000-1001-8000-000000000000" {
		t.Errorf("TimeUUIDType: %s", timeUUID)
	}
	if bytes != `"00000000-0000-1000-8000-000000000001" "00000000-0000-1001-8000-000000000000" "80000000-0000-1000-8000-000000000000" "ffffffff-0000-1000-8000-000000000000"` {
		t.Errorf("BytesType: %s", bytes)
	}
	webkit.MustContain(t, body, "the first 8 bytes as one <em>signed</em> 64-bit number", "<code>ffffffff-…</code> comes before <code>00000000-…</code>",
		"Your row shows it: <code>80000000-0000-1000-8000-000000000000</code> is first under LexicalUUIDType.")
}

// Every lab form is a POST that needs the session's CSRF token.
func TestLabPageNeedsCSRF(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	c.Get("/models/lab") // a session with a token exists, but the forms below lack it
	for _, path := range []string{"/models/lab/insert", "/models/lab/slice", "/models/lab/lww", "/models/lab/clear", "/models/lab/put", "/models/lab/replicas"} {
		r := c.PostRaw(path, url.Values{"names": {"3"}, "cmp": {"LongType"}, "count": {"3"}, "v1": {"a"}, "t1": {"1"}, "v2": {"b"}, "t2": {"2"}})
		if r.Status != http.StatusForbidden {
			t.Errorf("%s without a token: %d, want 403", path, r.Status)
		}
		r = c.PostRaw(path, url.Values{"names": {"3"}, site.CSRFField: {"forged"}})
		if r.Status != http.StatusForbidden {
			t.Errorf("%s with a wrong token: %d, want 403", path, r.Status)
		}
	}
	if r := c.Get("/models/lab"); strings.Contains(r.Body, `id="lab-order"`) {
		t.Error("a refused insert stored names")
	}
}

func TestLabPageUnavailable(t *testing.T) {
	t.Parallel()
	st := webkit.MemoryStores()
	st.NoLab = true
	c := teachkit.NewApp(t, st).Client(t)
	r := c.Get("/models/lab")
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `id="lab-unavailable"`) {
		t.Fatalf("lab without a lab: %d\n%s", r.Status, r.Body)
	}
	if r := c.Post("/models/lab/insert", url.Values{"names": {"3"}}); r.Status != http.StatusNotFound || !strings.Contains(r.Body, `id="lab-unavailable"`) {
		t.Errorf("insert without a lab: %d", r.Status)
	}
}
