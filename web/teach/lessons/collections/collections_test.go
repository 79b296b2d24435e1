package collections_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// Without a node (memory), the lesson says what the backend lacks and writes the super column on
// the engine's lab: changing the city writes one subcolumn, writing three fields again leaves
// the state (no tombstone, unlike a collection set whole); the node's exercises are not offered,
// the engine's is graded.
func TestLessonCollectionsWithoutNode(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	body := html.UnescapeString(c.LessonPage("/learn/collections"))
	webkit.MustContain(t, body, `id="coll-nonode"`, "This server runs <strong>memory</strong>", "--backend cql3", `AddressBook = {`, `John: {street: "Howard street"`, `id="coll-form"`)
	webkit.MustNotContain(t, body, `id="coll-ddl"`, `id="result"`)

	body = html.UnescapeString(c.Submit("/learn/act/addressbook", url.Values{"change": {"field"}}, "/learn/collections#live").Body)
	webkit.MustContain(t, body, `id="coll-super"`, "The change wrote 1 subcolumn.", `insert(keyspace='Scratch'`, "What the address book cost")
	webkit.MustNotContain(t, body, `id="coll-map"`)
	body = html.UnescapeString(c.Submit("/learn/act/addressbook", url.Values{"change": {"whole"}}, "/learn/collections#live").Body)
	webkit.MustContain(t, body, "The change wrote 3 subcolumns.")
	if last := body[strings.LastIndex(body, "write the address again with three fields"):]; !strings.Contains(last, `<code>state</code>`) {
		t.Errorf("the state subcolumn is gone after three fields were written again")
	}

	if r := c.Post("/learn/act/addressbook", url.Values{"change": {"all"}}); r.Status != http.StatusBadRequest {
		t.Errorf("an unknown change: %d, want 400", r.Status)
	}
	if ok, model := teachkit.MustAnswer(t, c, "collections-4", "street, zip, city, state"); ok || model != "city, state, street, zip" {
		t.Errorf("the seed's order: %v, model %q", ok, model)
	}
	if ok, _ := teachkit.MustAnswer(t, c, "collections-4", "city, state, street, zip"); !ok {
		t.Error("the sorted order is graded wrong")
	}
	if status, _ := teachkit.Answer(t, c, "collections-1", "1"); status != http.StatusNotFound {
		t.Errorf("a node's exercise without a node: %d, want 404", status)
	}
}

var (
	sentBlocks = regexp.MustCompile(`(?s)<pre class="code wrap coll-sent">(.*?)</pre>`)
	footerCode = regexp.MustCompile(`(?s)<code>([^<]*)</code> <span class="op-meta">`)
)

// On the node, every statement the page shows is one the footer lists as the driver sent it,
// and each form's cells are read back: one written by changing the city, the frozen one refused
// first; the map and the user type set whole lose the state.
func TestLessonCollectionsOnNode(t *testing.T) {
	t.Parallel()
	st, _ := webkit.CQL3Stores(t)
	c := teachkit.NewApp(t, st).Client(t)
	body := html.UnescapeString(c.LessonPage("/learn/collections"))
	webkit.MustContain(t, body, `id="coll-ddl"`, "CREATE TYPE IF NOT EXISTS", "frozen<addressbook_address>", `id="coll-limits"`, "items_per_collection_warn_threshold")
	for _, change := range []string{"field", "whole"} {
		body = html.UnescapeString(c.Submit("/learn/act/addressbook", url.Values{"change": {change}}, "/learn/collections#live").Body)
		for _, id := range []string{"coll-rows", "coll-map", "coll-udt", "coll-frozen", "coll-super"} {
			webkit.MustContain(t, body, `id="`+id+`"`)
		}
		sent := map[string]bool{}
		for _, m := range footerCode.FindAllStringSubmatch(body, -1) {
			if i := strings.LastIndex(m[1], " -> "); i >= 0 {
				sent[m[1][:i]] = true
			}
		}
		shown := 0
		for _, b := range sentBlocks.FindAllStringSubmatch(body, -1) {
			for _, line := range strings.Split(strings.TrimSpace(b[1]), "\n") {
				stmt, _, _ := strings.Cut(strings.TrimSpace(line), ";  --")
				stmt = strings.TrimSuffix(strings.TrimSpace(strings.SplitN(stmt, "; --", 2)[0]), ";")
				if stmt == "" {
					continue
				}
				shown++
				if !sent[stmt] {
					t.Errorf("%s: the page shows %q, which the footer does not list as sent", change, stmt)
				}
			}
		}
		if shown < 16 {
			t.Errorf("%s: %d statements shown", change, shown)
		}
		if change == "field" {
			webkit.MustContain(t, body, "Invalid operation", "for frozen UDT column address")
			if n := strings.Count(body, "The change wrote 1 cell."); n != 4 {
				t.Errorf("field: %d forms say one cell written, want 4", n)
			}
		} else {
			webkit.MustContain(t, body, "and deleted address['state']", "and deleted address.state")
		}
	}
}

// In compare mode (widerow answering, cql3 beside it) the forms are written on the attached node,
// and the footer says so, the statements on cql3's side.
func TestLessonCollectionsInCompareMode(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.CompareStores(t)).Client(t)
	body := html.UnescapeString(c.LessonPage("/learn/collections"))
	webkit.MustContain(t, body, `id="coll-ddl"`, "on compare mode's cql3 node")
	body = html.UnescapeString(c.Submit("/learn/act/addressbook", url.Values{"change": {"field"}}, "/learn/collections#live").Body)
	webkit.MustContain(t, body, `id="coll-frozen"`, `id="coll-super"`, "addressbook: the four forms are written on cql3, compare mode's second model: widerow has no CQL")
}
