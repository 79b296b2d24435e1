package pages

import (
	"fmt"
	"html"
	"testing"
)

func postMany(t *testing.T, app *testApp, author string, fans, posts int) {
	t.Helper()
	if _, err := app.social.SignUp(bg(), author, "password1"); err != nil {
		t.Fatal(err)
	}
	for i := range fans {
		fan := fmt.Sprintf("fan%d", i)
		if _, err := app.social.SignUp(bg(), fan, "password1"); err != nil {
			t.Fatal(err)
		}
		if err := app.social.Follow(bg(), fan, author); err != nil {
			t.Fatal(err)
		}
	}
	for i := range posts {
		if _, err := app.social.Post(bg(), author, fmt.Sprintf("post %d", i)); err != nil {
			t.Fatal(err)
		}
	}
}

// The partition lessons on widerow and memory: the public line is one row holding every post,
// and the widest rows are listed widest first, linked to the inspector.
func TestPartitionsPage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		st    func(t *testing.T) stores
		wants []string
	}{
		{"widerow", func(t *testing.T) stores { return widerowStores(t) }, []string{
			`the public line is one row, <code>Twissandra.Userline[!PUBLIC!]</code>, holding <strong id="public-count">12</strong> columns`,
			`<a href="/models/inspect?cf_path=Twissandra.Userline&amp;key=%21PUBLIC%21">!PUBLIC!</a> <span class="muted">(the public line)</span>`,
			"(@star)", "The widest columns"}},
		{"memory", func(t *testing.T) stores { return memoryStores() }, []string{
			`<strong id="public-count">12</strong> entries`, "<td data-label=\"Key\">public</td>", "The widest entries"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := newApp(t, tc.st(t))
			postMany(t, app, "star", 3, 12)
			r := app.client(t).get("/models/partitions")
			if r.status != 200 {
				t.Fatalf("partitions: %d\n%s", r.status, r.body)
			}
			mustContain(t, r.body, tc.wants...)
			mustContain(t, html.UnescapeString(r.body), `<td data-label="Size">12</td>`)
		})
	}
}
