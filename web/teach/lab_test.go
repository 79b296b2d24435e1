package teach

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"twissandra/web/site"
)

// labColumn is the text of one comparator's column of the order table, top to bottom: the
// names as the comparator reads them.
func labColumn(t *testing.T, body string, col int) []string {
	t.Helper()
	i := strings.Index(body, `id="lab-order"`)
	if i < 0 {
		t.Fatalf("no order table:\n%s", body)
	}
	table := body[i : i+strings.Index(body[i:], "</table>")]
	var out []string
	for _, tr := range strings.Split(table, "<tr>")[2:] {
		cells := strings.Split(tr, "<td")
		if col+1 >= len(cells) {
			continue
		}
		if m := labCode.FindStringSubmatch(cells[col+1]); m != nil {
			out = append(out, html.UnescapeString(m[1]))
		}
	}
	return out
}

var labCode = regexp.MustCompile(`<code>([^<]*)</code>`)

// The lab stores the seeds' example under the six comparators and shows each order, slices it,
// refuses bad input with a readable 400, and shows last write wins in both orders.
func TestLabPage(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores()) // the lab runs whatever the backend
	c := app.client(t)
	r := c.get("/models/lab")
	if r.status != http.StatusOK {
		t.Fatalf("lab: %d", r.status)
	}
	mustContain(t, r.body, `id="lab-form"`, `action="/models/lab/insert"`, `name="csrf_token"`)
	mustNotContain(t, r.body, `id="lab-order"`) // nothing inserted yet

	r = c.post("/models/lab/insert", url.Values{"names": {"976, 3 832416\n123"}, "value": {"v"}})
	if r.status != http.StatusOK {
		t.Fatalf("insert: %d\n%s", r.status, r.body)
	}
	body := html.UnescapeString(r.body)
	mustContain(t, body, "Inserted 4 names: <code>976</code>, <code>3</code>, <code>832416</code>, <code>123</code>",
		"0x0000000000000003", "0x00000000000cb3a0", `"3" is not a LexicalUUIDType name`, `"976" is not a TimeUUIDType name`)
	for col, want := range map[int]string{0: `"123" "3" "832416" "976"`, 2: `"123" "3" "832416" "976"`, 3: "3 123 976 832416", 4: "", 5: ""} {
		if got := strings.Join(labColumn(t, body, col), " "); got != want {
			t.Errorf("column %d: %s, want %s", col, got, want)
		}
	}
	// A later GET shows the same row; another browser sees none of it.
	if got := strings.Join(labColumn(t, html.UnescapeString(c.get("/models/lab").body), 3), " "); got != "3 123 976 832416" {
		t.Errorf("LongType after a reload: %s", got)
	}
	other := app.client(t)
	other.post("/models/lab/insert", url.Values{"names": {"7"}})
	if got := strings.Join(labColumn(t, other.get("/models/lab").body, 3), " "); got != "7" {
		t.Errorf("the other browser's LongType row: %s", got)
	}
	if got := strings.Join(labColumn(t, c.get("/models/lab").body, 3), " "); got != "3 123 976 832416" {
		t.Errorf("the first browser's row after another's insert: %s", got)
	}

	r = c.post("/models/lab/slice", url.Values{"cmp": {"LongType"}, "start": {"1000"}, "reversed": {"1"}, "count": {"2"}})
	body = html.UnescapeString(r.body)
	if r.status != http.StatusOK {
		t.Fatalf("slice: %d\n%s", r.status, body)
	}
	mustContain(t, body, "Returned 2: <code>976</code>, <code>123</code>",
		"ColumnParent(column_family='Longs'), predicate=SlicePredicate(slice_range=SliceRange(start=struct.pack('>q', 1000), finish='', reversed=True, count=2))")
	r = c.post("/models/lab/slice", url.Values{"cmp": {"UTF8Type"}, "start": {"4"}, "count": {"10"}})
	mustContain(t, html.UnescapeString(r.body), `Returned 2: <code>"832416"</code>, <code>"976"</code>`)

	r = c.post("/models/lab/clear", nil)
	if r.status != http.StatusOK || strings.Contains(r.body, `id="lab-order"`) || !strings.Contains(r.body, `id="lab-empty"`) {
		t.Errorf("after clear: %d\n%s", r.status, r.body)
	}
}

func TestLabPageRefusesBadInput(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	c := app.client(t)
	for _, bad := range []struct {
		path string
		form url.Values
		msg  string
	}{
		{"/models/lab/insert", url.Values{"names": {" , "}}, "Names: give 1 to 50 names."},
		{"/models/lab/insert", url.Values{"names": {strings.Repeat("x", 101)}}, "Names: each name must be 1 to 100 bytes."},
		{"/models/lab/insert", url.Values{"names": {strings.Repeat("a ", 51)}}, "Names: give 1 to 50 names."},
		{"/models/lab/slice", url.Values{"cmp": {"LongType"}, "start": {"abc"}, "count": {"3"}}, `Start: "abc" is not a LongType name`},
		{"/models/lab/slice", url.Values{"cmp": {"TimeUUIDType"}, "finish": {"3"}, "count": {"3"}}, `Finish: "3" is not a TimeUUIDType name`},
		{"/models/lab/slice", url.Values{"cmp": {"Nope"}, "count": {"3"}}, `"Nope" is none of the six comparators`},
		{"/models/lab/slice", url.Values{"cmp": {"LongType"}, "count": {"many"}}, `Count must be a whole number, not "many".`},
		{"/models/lab/slice", url.Values{"cmp": {"LongType"}, "count": {"-1"}}, "Count: must be from 0 to 200."},
		{"/models/lab/slice", url.Values{"cmp": {"LongType"}, "start": {"10"}, "finish": {"5"}, "count": {"3"}}, "Range finish must come after start in the order of traversal"},
		{"/models/lab/lww", url.Values{"v1": {"a"}, "t1": {"soon"}, "v2": {"b"}, "t2": {"2"}}, `Write 1: its timestamp must be a whole number of microseconds, not "soon".`},
		{"/models/lab/lww", url.Values{"v1": {"a"}, "t1": {"1"}, "v2": {"b"}, "t2": {"2"}, "del": {"1"}, "tdel": {""}}, "The delete: its timestamp"},
		{"/models/lab/lww", url.Values{"v1": {strings.Repeat("x", 101)}, "t1": {"1"}, "v2": {"b"}, "t2": {"2"}}, "Value: must be at most 100 bytes."},
	} {
		r := c.post(bad.path, bad.form)
		if r.status != http.StatusBadRequest {
			t.Errorf("%s %v: status %d, want 400", bad.path, bad.form, r.status)
		}
		mustContain(t, html.UnescapeString(r.body), bad.msg)
	}
}

// Last write wins in both orders, with the stored cell and tombstone shown.
func TestLabPageLastWriteWins(t *testing.T) {
	t.Parallel()
	c := newApp(t, memoryStores()).client(t)
	for _, tc := range []struct {
		name  string
		form  url.Values
		wants []string
	}{
		{"older arrives last", url.Values{"v1": {"first"}, "t1": {"200"}, "v2": {"second"}, "t2": {"100"}}, []string{
			`Both replicas read "first": the write with the highest timestamp (200) wins, not the one that arrived last.`,
			"Applied in the order given", "Applied in the reverse order", `get returns <code>"first"</code> (timestamp 200)`,
			`insert(key='lab-`, `value="second", timestamp=100)`}},
		{"tie", url.Values{"v1": {"a"}, "t1": {"7"}, "v2": {"b"}, "t2": {"7"}}, []string{
			`Both replicas read "b": 2 writes share the highest timestamp (7), and on a tie Cassandra keeps the larger value`}},
		{"delete", url.Values{"v1": {"first"}, "t1": {"200"}, "v2": {"second"}, "t2": {"100"}, "del": {"1"}, "tdel": {"300"}}, []string{
			"Both replicas read nothing: the delete's tombstone (timestamp 300)", "get returns nothing: NotFoundException",
			`<span class="tomb">tombstone</span>`, "tombstone, deleted at 300", "remove(key='lab-"}},
		{"write after the delete", url.Values{"v1": {"first"}, "t1": {"400"}, "v2": {"second"}, "t2": {"100"}, "del": {"1"}, "tdel": {"300"}}, []string{
			`Both replicas read "first": its timestamp (400) is higher than the delete's (300)`}},
	} {
		r := c.post("/models/lab/lww", tc.form)
		if r.status != http.StatusOK {
			t.Fatalf("%s: %d\n%s", tc.name, r.status, r.body)
		}
		body := html.UnescapeString(r.body)
		for _, w := range tc.wants {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the page lacks %q", tc.name, w)
			}
		}
	}
}

// Every lab form is a POST that needs the session's CSRF token.
func TestLabPageNeedsCSRF(t *testing.T) {
	t.Parallel()
	c := newApp(t, memoryStores()).client(t)
	c.get("/models/lab") // a session with a token exists, but the forms below lack it
	for _, path := range []string{"/models/lab/insert", "/models/lab/slice", "/models/lab/lww", "/models/lab/clear"} {
		r := c.postRaw(path, url.Values{"names": {"3"}, "cmp": {"LongType"}, "count": {"3"}, "v1": {"a"}, "t1": {"1"}, "v2": {"b"}, "t2": {"2"}})
		if r.status != http.StatusForbidden {
			t.Errorf("%s without a token: %d, want 403", path, r.status)
		}
		r = c.postRaw(path, url.Values{"names": {"3"}, site.CSRFField: {"forged"}})
		if r.status != http.StatusForbidden {
			t.Errorf("%s with a wrong token: %d, want 403", path, r.status)
		}
	}
	if r := c.get("/models/lab"); strings.Contains(r.body, `id="lab-order"`) {
		t.Error("a refused insert stored names")
	}
}

func TestLabPageUnavailable(t *testing.T) {
	t.Parallel()
	st := memoryStores()
	st.noLab = true
	c := newApp(t, st).client(t)
	r := c.get("/models/lab")
	if r.status != http.StatusOK || !strings.Contains(r.body, `id="lab-unavailable"`) {
		t.Fatalf("lab without a lab: %d\n%s", r.status, r.body)
	}
	if r := c.post("/models/lab/insert", url.Values{"names": {"3"}}); r.status != http.StatusNotFound || !strings.Contains(r.body, `id="lab-unavailable"`) {
		t.Errorf("insert without a lab: %d", r.status)
	}
}
