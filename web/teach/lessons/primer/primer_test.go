package primer_test

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// Lesson 1: a column and a subcolumn of AddressBook written by hand into the learner's rows,
// read back in the articles' notation with their timestamps; the keyspaces and the definitions
// come from the running engine's schema; a refusal is said once.
func TestLessonPrimer(t *testing.T) {
	t.Parallel()
	for name, st := range map[string]func(t *testing.T) webkit.Stores{
		"memory":  func(*testing.T) webkit.Stores { return webkit.MemoryStores() },
		"widerow": func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := teachkit.NewApp(t, st(t)).Client(t)
			body := c.LessonPage("/learn/primer")
			webkit.MustContain(t, body, "<code>Twissandra</code>, 7 column families: <code>User</code>",
				"<code>Scratch</code>, 7 column families: <code>Bytes</code>", "<code>AddressBook</code><span> (super)</span>",
				`<ColumnFamily Name="AddressBook" CompareWith="UTF8Type" ColumnType="Super" CompareSubcolumnsWith="UTF8Type"/>`,
				`<ColumnFamily Name="UTF8s" CompareWith="UTF8Type"/>`, `name="back" value="/learn/primer"`)
			webkit.MustNotContain(t, body, `id="primer-triple"`)

			body = html.UnescapeString(c.Submit("/models/lab/put", url.Values{"kind": {"standard"}, "name": {"emailAddress"}, "value": {"arin@example.com"}, "back": {"/learn/primer"}},
				"/learn/primer#primer-standard").Body)
			webkit.MustContain(t, body, "{  // this is a column", `    name: "emailAddress",`, `    value: "arin@example.com",`, "    timestamp: 1",
				`insert(keyspace='Scratch', key='lab-`, `"emailAddress"</span>: <span class="v">"arin@example.com"</span>, <span class="c ts">/* timestamp `,
				"What your column cost", "insert Scratch.UTF8s['lab-")
			body = html.UnescapeString(c.Submit("/models/lab/put", url.Values{"kind": {"super"}, "super": {"John"}, "name": {"zip"}, "value": {"94404"}, "back": {"/learn/primer"}},
				"/learn/primer#primer-super").Body)
			webkit.MustContain(t, body, "{   // this is a SuperColumn", `    name: "John",`, `        zip: {name: "zip", value: "94404", timestamp: `,
				`super_column="John", column="zip"`, `<span class="n">"John"</span>: {`, `<span class="n">"zip"</span>: <span class="v">"94404"</span>`,
				"1 super column,", "insert Scratch.AddressBook['lab-")
			// The standard row is still there, beside the super one.
			webkit.MustContain(t, body, `<span class="n">"emailAddress"</span>`)

			for _, bad := range []struct {
				form   url.Values
				anchor string
				msg    string
			}{
				{url.Values{"kind": {"standard"}, "name": {""}, "value": {"v"}}, "primer-standard", "Name: a column needs a name."},
				{url.Values{"kind": {"super"}, "super": {" "}, "name": {"zip"}}, "primer-super", "Super column: a subcolumn needs its super column's name."},
			} {
				bad.form.Set("back", "/learn/primer")
				body := html.UnescapeString(c.Submit("/models/lab/put", bad.form, "/learn/primer#"+bad.anchor).Body)
				webkit.MustContain(t, body, bad.msg, `role="alert"`)
				if strings.Contains(c.LessonPage("/learn/primer"), bad.msg) {
					t.Errorf("the refusal %q is shown again after a reload", bad.msg)
				}
			}
			c.Submit("/models/lab/clear", url.Values{"back": {"/learn/primer"}}, "/learn/primer#lab-rows")
			webkit.MustNotContain(t, c.LessonPage("/learn/primer"), `<span class="n">"emailAddress"</span>`)
		})
	}
}
