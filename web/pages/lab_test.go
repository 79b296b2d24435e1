package pages

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The lab orders the seeds' example under the six comparators, slices it, refuses bad input
// with a readable 400, and shows last write wins in both orders.
func TestComparatorLab(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores()) // the lab runs whatever the backend
	c := app.client(t)
	r := c.get("/models/lab")
	if r.status != http.StatusOK {
		t.Fatalf("lab: %d", r.status)
	}
	body := html.UnescapeString(r.body)
	long := body[strings.Index(body, `id="lab-order"`):]
	// Row by row the table reads LongType's 3, 123, 976, 832416 beside UTF8Type's "123", "3", ...
	for _, want := range []string{"<code>\"123\"</code>", "<code>3</code>", "0x0000000000000003", "LexicalUUIDType refuses \"3\""} {
		if !strings.Contains(long, want) {
			t.Errorf("the order table lacks %q", want)
		}
	}
	if i, j := strings.Index(long, "<code>3</code>"), strings.Index(long, "<code>832416</code>"); i < 0 || j < i {
		t.Error("LongType does not put 3 before 832416")
	}
	if i, j := strings.Index(long, `<code>"832416"</code>`), strings.Index(long, `<code>"976"</code>`); i < 0 || j < i {
		t.Error("UTF8Type does not put \"832416\" before \"976\"")
	}

	q := url.Values{"names": {"3 123 976 832416"}, "cmp": {"LongType"}, "start": {"1000"}, "reversed": {"1"}, "count": {"2"}}
	body = html.UnescapeString(c.get("/models/lab?" + q.Encode()).body)
	mustContain(t, body, "Returned 2: <code>976</code>, <code>123</code>", "SliceRange(start=0x00000000000003e8, finish='', reversed=true, count=2)")

	for _, bad := range []struct{ query, msg string }{
		{"names=", "Names: give 1 to 50 names."},
		{"names=3&cmp=LongType&start=abc", "Slice: "},
		{"names=3&cmp=Nope", "is none of the six comparators"},
		{"names=3&count=0", "Slice: Count: must be from 1 to 50."},
		{"lww=1&v1=a&t1=soon&v2=b&t2=2", "must be a number of microseconds"},
	} {
		r := c.get("/models/lab?" + bad.query)
		if r.status != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", bad.query, r.status)
		}
		mustContain(t, html.UnescapeString(r.body), bad.msg)
	}

	q = url.Values{"lww": {"1"}, "v1": {"first"}, "t1": {"200"}, "v2": {"second"}, "t2": {"100"}}
	body = html.UnescapeString(c.get("/models/lab?" + q.Encode()).body)
	mustContain(t, body, `Both replicas read "first": the write with the highest timestamp (200) wins`, "Applied in the reverse order")
	q.Set("del", "1")
	q.Set("tdel", "300")
	body = html.UnescapeString(c.get("/models/lab?" + q.Encode()).body)
	mustContain(t, body, "Both replicas read nothing", "get returns nothing: NotFoundException", `<span class="tomb">tombstone</span>`)
}
