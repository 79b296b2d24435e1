package teach

import (
	"fmt"
	"html"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"

	"twissandra/domain/blog"
)

// The "where does it live" page on widerow and memory: every place of a tweet (followers
// paged), a user, a follow, an entry and a comment, present or absent as the stores hold them.
func TestWhereDoesItLive(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		st       func(t *testing.T) stores
		tweetRow string // the tweet's place, as the model writes it
		public   string
		follow   []string
		entry    []string
		user     string
	}{
		{"widerow", func(t *testing.T) stores { return widerowStores(t) }, "Twissandra.Tweet[", `Twissandra.Userline["!PUBLIC!"][`,
			[]string{"Twissandra.Friends[", "Twissandra.Followers["},
			[]string{`BloggyAppy.BlogEntries["where-entry"]`, `BloggyAppy.TaggedPosts["__notag__"][`, `BloggyAppy.TaggedPosts["go"][`, `BloggyAppy.Authors["Ann"]`}, "2 of 2 places hold it"},
		{"memory", func(t *testing.T) stores { return memoryStores() }, "tweets[", "lines[public] entry Time=",
			[]string{`friends["ann"] item "bob"`, `followers["bob"] item "ann"`},
			[]string{`entries["where-entry"]`, `tagged["__notag__"] ref `, `tagged["go"] ref `, `authors["Ann"]`}, "1 of 1 places hold it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := newApp(t, tc.st(t))
			c := app.client(t)
			if _, err := app.social.SignUp(bg(), "bob", "password1"); err != nil {
				t.Fatal(err)
			}
			for i := range locateFollowers + 1 {
				fan := fmt.Sprintf("fan%02d", i)
				if _, err := app.social.SignUp(bg(), fan, "password1"); err != nil {
					t.Fatal(err)
				}
				if err := app.social.Follow(bg(), fan, "bob"); err != nil {
					t.Fatal(err)
				}
			}
			c.signUp("ann")
			if r := c.post("/users/bob/follow", url.Values{"next": {"/users/bob"}}); r.status != http.StatusSeeOther {
				t.Fatalf("follow: %d", r.status)
			}
			tw, err := app.social.Post(bg(), "bob", "where do I live")
			if err != nil {
				t.Fatal(err)
			}
			// The home page links every tweet to its places.
			mustContain(t, c.get("/").body, `href="/models/where?tweet=`+tw.ID.String()+`"`)

			// 4 places plus 50 followers' timelines on the first page, 2 more on the next.
			r := c.get("/models/where?tweet=" + tw.ID.String())
			if r.status != http.StatusOK {
				t.Fatalf("where tweet: %d\n%s", r.status, r.body)
			}
			body := html.UnescapeString(r.body)
			mustContain(t, body, "54 of 54 places hold it", tc.tweetRow, tc.public, "where do I live")
			seen := followersListed(body)
			if tc.name == "widerow" { // each place links to the inspector, on the row and column
				mustContain(t, r.body, `<a href="/models/inspect?cf_path=Twissandra.Tweet&amp;key=`+tw.ID.String()+`">inspect</a>`)
			}
			next := regexp.MustCompile(`id="where-next" href="([^"]+)"`).FindStringSubmatch(r.body)
			if next == nil {
				t.Fatal("no link to the next followers' timelines")
			}
			r = c.get(html.UnescapeString(next[1]))
			body = html.UnescapeString(r.body)
			mustContain(t, body, "2 of 2 places hold it", "(more followers' timelines)")
			mustNotContain(t, body, `id="where-next"`, tc.public)
			// The two pages name every follower once, in whatever order the store keeps them
			// (widerow's Followers row is sorted by the followers' random uuids).
			for name, n := range followersListed(body) {
				seen[name] += n
			}
			want := map[string]int{"ann": 1}
			for i := range locateFollowers + 1 {
				want[fmt.Sprintf("fan%02d", i)] = 1
			}
			if !maps.Equal(seen, want) {
				t.Fatalf("the pages name the followers %v, want each of %v once", seen, want)
			}

			// The user, and the follow on both sides, linked from the user page.
			up := c.get("/users/bob").body
			mustContain(t, up, `id="where-user" href="/models/where?user=bob"`, `id="where-follow" href="/models/where?follower=ann&amp;followed=bob"`)
			user := html.UnescapeString(c.get("/models/where?user=bob").body)
			mustContain(t, user, tc.user)
			if tc.name == "widerow" { // two places of one record: which is the index, which the row
				mustContain(t, user, `<strong>bob's record</strong> <span class="where-part">(the Username index: the name → the user's UUID, seed 001's inverted index)</span>`,
					`<strong>bob's record</strong> <span class="where-part">(the User row, keyed by the user's UUID)</span>`)
			}
			follow := html.UnescapeString(c.get("/models/where?follower=ann&followed=bob").body)
			mustContain(t, follow, append([]string{"ann follows bob", "2 of 2 places hold it",
				`<strong>ann follows bob</strong> <span class="where-part">(ann's side: whom ann follows)</span>`,
				`<strong>ann follows bob</strong> <span class="where-part">(bob's side: who follows bob)</span>`}, tc.follow...)...)
			if r := c.post("/users/bob/unfollow", url.Values{"next": {"/users/bob"}}); r.status != http.StatusSeeOther {
				t.Fatalf("unfollow: %d", r.status)
			}
			mustContain(t, html.UnescapeString(c.get("/models/where?follower=ann&followed=bob").body), "0 of 2 places hold it", "absent")

			// A blog entry: its row, its place under each tag and __notag__, its author; a comment.
			if _, err := app.blog.Publish(bg(), blog.Draft{Slug: "where-entry", Title: "Where", Body: "b", Author: "Ann", Tags: []string{"go"}, NewAuthor: true}); err != nil {
				t.Fatal(err)
			}
			cm, err := app.blog.Comment(bg(), "where-entry", blog.CommentDraft{Name: "reader", Email: "r@example.com", Text: "hi"})
			if err != nil {
				t.Fatal(err)
			}
			page := c.get("/blog/entries/where-entry").body
			mustContain(t, page, `href="/models/where?entry=where-entry"`, `href="/models/where?entry=where-entry&amp;comment=`+cm.ID.String()+`"`)
			mustContain(t, html.UnescapeString(c.get("/models/where?entry=where-entry").body), append([]string{"4 of 4 places hold it"}, tc.entry...)...)
			cp := html.UnescapeString(c.get("/models/where?entry=where-entry&comment=" + cm.ID.String()).body)
			mustContain(t, cp, "1 of 1 places hold it", "<email, hidden>")
			mustNotContain(t, cp, "r@example.com")

			// What is malformed is a 400; what does not exist a 404, said plainly; neither
			// claims to list where anything lives.
			unknown := uuid.Must(uuid.NewUUID()).String()
			for _, bad := range []struct {
				query, msg string
				status     int
			}{
				{"", "Say what to locate", http.StatusBadRequest},
				{"tweet=nope", "is not a tweet ID", http.StatusBadRequest},
				{"tweet=" + unknown, "There is no tweet " + unknown + " on this server.", http.StatusNotFound},
				{"user=nobody", "There is no user named nobody on this server.", http.StatusNotFound},
				{"follower=ann&followed=nobody", "There is no user named nobody on this server.", http.StatusNotFound},
				{"follower=ann", "needs both", http.StatusBadRequest},
				{"entry=where-entry&comment=x", "is not a comment ID", http.StatusBadRequest},
				{"entry=nothing-here", `There is no blog entry "nothing-here" on this server.`, http.StatusNotFound},
			} {
				r := c.get("/models/where?" + bad.query)
				if r.status != bad.status {
					t.Errorf("%q: status %d, want %d", bad.query, r.status, bad.status)
				}
				body := html.UnescapeString(r.body)
				if !strings.Contains(body, bad.msg) {
					t.Errorf("%q: the page lacks %q", bad.query, bad.msg)
				}
				if strings.Contains(body, "Every place") || strings.Contains(body, "places hold it") {
					t.Errorf("%q: the page still lists places:\n%s", bad.query, r.body)
				}
			}
		})
	}
}

// followersListed counts the followers whose timelines a page of a tweet's places names.
func followersListed(body string) map[string]int {
	n := map[string]int{}
	for _, m := range regexp.MustCompile(`follower (\w+)'s timeline`).FindAllStringSubmatch(body, -1) {
		n[m[1]]++
	}
	return n
}

// UUIDs in the inspector are links: a line's tweet ID to the tweet's places, a Username id and
// a Friends column name to the user's User row.
func TestInspectorLinksUUIDs(t *testing.T) {
	t.Parallel()
	app := newApp(t, widerowStores(t))
	c := app.client(t)
	c.signUp("bob")
	c.signUp("ann")
	if r := c.post("/users/bob/follow", url.Values{"next": {"/users/bob"}}); r.status != http.StatusSeeOther {
		t.Fatalf("follow: %d", r.status)
	}
	tw, err := app.social.Post(bg(), "bob", "linked")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := app.social.GetUser(bg(), "bob")
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, c.get("/models/inspect?cf_path=Twissandra.Timeline&user=ann").body, `<a href="/models/where?tweet=`+tw.ID.String()+`">`)
	userRow := `<a href="/models/inspect?cf_path=Twissandra.User&amp;key=` + bob.ID.String() + `">`
	mustContain(t, c.get("/models/inspect?cf_path=Twissandra.Username&key=bob").body, userRow)
	mustContain(t, c.get("/models/inspect?cf_path=Twissandra.Friends&user=ann").body, userRow)
}
