package models_test

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
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/models"
)

// The "where does it live" page on widerow and memory: every place of a tweet (followers
// paged), a user, a follow, an entry and a comment, present or absent as the stores hold them.
func TestWhereDoesItLive(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		st       func(t *testing.T) webkit.Stores
		tweetRow string // the tweet's place, as the model writes it
		public   string
		follow   []string
		entry    []string
		user     string
	}{
		{"widerow", func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) }, "Twissandra.Tweet[", `Twissandra.Userline["!PUBLIC!"][`,
			[]string{"Twissandra.Friends[", "Twissandra.Followers["},
			[]string{`BloggyAppy.BlogEntries["where-entry"]`, `BloggyAppy.TaggedPosts["__notag__"][`, `BloggyAppy.TaggedPosts["go"][`, `BloggyAppy.Authors["Ann"]`}, "2 of 2 places hold it"},
		{"memory", func(t *testing.T) webkit.Stores { return webkit.MemoryStores() }, "tweets[", "lines[public] entry Time=",
			[]string{`friends["ann"] item "bob"`, `followers["bob"] item "ann"`},
			[]string{`entries["where-entry"]`, `tagged["__notag__"] ref `, `tagged["go"] ref `, `authors["Ann"]`}, "1 of 1 places hold it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := teachkit.NewApp(t, tc.st(t))
			c := app.Client(t)
			if _, err := app.Social.SignUp(webkit.BG(), "bob", "password1"); err != nil {
				t.Fatal(err)
			}
			for i := range models.LocateFollowers + 1 {
				fan := fmt.Sprintf("fan%02d", i)
				if _, err := app.Social.SignUp(webkit.BG(), fan, "password1"); err != nil {
					t.Fatal(err)
				}
				if err := app.Social.Follow(webkit.BG(), fan, "bob"); err != nil {
					t.Fatal(err)
				}
			}
			c.SignUp("ann")
			if r := c.Post("/users/bob/follow", url.Values{"next": {"/users/bob"}}); r.Status != http.StatusSeeOther {
				t.Fatalf("follow: %d", r.Status)
			}
			tw, err := app.Social.Post(webkit.BG(), "bob", "where do I live")
			if err != nil {
				t.Fatal(err)
			}
			// The home page links every tweet to its places.
			webkit.MustContain(t, c.Get("/").Body, `href="/models/where?tweet=`+tw.ID.String()+`"`)

			// 4 places plus 50 followers' timelines on the first page, 2 more on the next.
			r := c.Get("/models/where?tweet=" + tw.ID.String())
			if r.Status != http.StatusOK {
				t.Fatalf("where tweet: %d\n%s", r.Status, r.Body)
			}
			body := html.UnescapeString(r.Body)
			webkit.MustContain(t, body, "54 of 54 places hold it", tc.tweetRow, tc.public, "where do I live")
			seen := followersListed(body)
			if tc.name == "widerow" { // each place links to the inspector, on the row and column
				webkit.MustContain(t, r.Body, `<a href="/models/inspect?cf_path=Twissandra.Tweet&amp;key=`+tw.ID.String()+`">inspect</a>`)
			}
			next := regexp.MustCompile(`id="where-next" href="([^"]+)"`).FindStringSubmatch(r.Body)
			if next == nil {
				t.Fatal("no link to the next followers' timelines")
			}
			r = c.Get(html.UnescapeString(next[1]))
			body = html.UnescapeString(r.Body)
			webkit.MustContain(t, body, "2 of 2 places hold it", "(more followers' timelines)")
			webkit.MustNotContain(t, body, `id="where-next"`, tc.public)
			// The two pages name every follower once, in whatever order the store keeps them
			// (widerow's Followers row is sorted by the followers' random uuids).
			for name, n := range followersListed(body) {
				seen[name] += n
			}
			want := map[string]int{"ann": 1}
			for i := range models.LocateFollowers + 1 {
				want[fmt.Sprintf("fan%02d", i)] = 1
			}
			if !maps.Equal(seen, want) {
				t.Fatalf("the pages name the followers %v, want each of %v once", seen, want)
			}

			// The user, and the follow on both sides, linked from the user page.
			up := c.Get("/users/bob").Body
			webkit.MustContain(t, up, `id="where-user" href="/models/where?user=bob"`, `id="where-follow" href="/models/where?follower=ann&amp;followed=bob"`)
			user := html.UnescapeString(c.Get("/models/where?user=bob").Body)
			webkit.MustContain(t, user, tc.user)
			if tc.name == "widerow" { // two places of one record: which is the index, which the row
				webkit.MustContain(t, user, `<strong>bob's record</strong> <span class="where-part">(the Username index: the name → the user's UUID, seed 001's inverted index)</span>`,
					`<strong>bob's record</strong> <span class="where-part">(the User row, keyed by the user's UUID)</span>`)
			}
			follow := html.UnescapeString(c.Get("/models/where?follower=ann&followed=bob").Body)
			webkit.MustContain(t, follow, append([]string{"ann follows bob", "2 of 2 places hold it",
				`<strong>ann follows bob</strong> <span class="where-part">(ann's side: whom ann follows)</span>`,
				`<strong>ann follows bob</strong> <span class="where-part">(bob's side: who follows bob)</span>`}, tc.follow...)...)
			if r := c.Post("/users/bob/unfollow", url.Values{"next": {"/users/bob"}}); r.Status != http.StatusSeeOther {
				t.Fatalf("unfollow: %d", r.Status)
			}
			webkit.MustContain(t, html.UnescapeString(c.Get("/models/where?follower=ann&followed=bob").Body), "0 of 2 places hold it", "absent")

			// A blog entry: its row, its place under each tag and __notag__, its author; a comment.
			if _, err := app.Blog.Publish(webkit.BG(), blog.Draft{Slug: "where-entry", Title: "Where", Body: "b", Author: "Ann", Tags: []string{"go"}, NewAuthor: true}); err != nil {
				t.Fatal(err)
			}
			cm, err := app.Blog.Comment(webkit.BG(), "where-entry", blog.CommentDraft{Name: "reader", Email: "r@example.com", Text: "hi"})
			if err != nil {
				t.Fatal(err)
			}
			page := c.Get("/blog/entries/where-entry").Body
			webkit.MustContain(t, page, `href="/models/where?entry=where-entry"`, `href="/models/where?entry=where-entry&amp;comment=`+cm.ID.String()+`"`)
			webkit.MustContain(t, html.UnescapeString(c.Get("/models/where?entry=where-entry").Body), append([]string{"4 of 4 places hold it"}, tc.entry...)...)
			cp := html.UnescapeString(c.Get("/models/where?entry=where-entry&comment=" + cm.ID.String()).Body)
			webkit.MustContain(t, cp, "1 of 1 places hold it", "<email, hidden>")
			webkit.MustNotContain(t, cp, "r@example.com")

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
				r := c.Get("/models/where?" + bad.query)
				if r.Status != bad.status {
					t.Errorf("%q: status %d, want %d", bad.query, r.Status, bad.status)
				}
				body := html.UnescapeString(r.Body)
				if !strings.Contains(body, bad.msg) {
					t.Errorf("%q: the page lacks %q", bad.query, bad.msg)
				}
				if strings.Contains(body, "Every place") || strings.Contains(body, "places hold it") {
					t.Errorf("%q: the page still lists places:\n%s", bad.query, r.Body)
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
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	c.SignUp("bob")
	c.SignUp("ann")
	if r := c.Post("/users/bob/follow", url.Values{"next": {"/users/bob"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("follow: %d", r.Status)
	}
	tw, err := app.Social.Post(webkit.BG(), "bob", "linked")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := app.Social.GetUser(webkit.BG(), "bob")
	if err != nil {
		t.Fatal(err)
	}
	webkit.MustContain(t, c.Get("/models/inspect?cf_path=Twissandra.Timeline&user=ann").Body, `<a href="/models/where?tweet=`+tw.ID.String()+`">`)
	userRow := `<a href="/models/inspect?cf_path=Twissandra.User&amp;key=` + bob.ID.String() + `">`
	webkit.MustContain(t, c.Get("/models/inspect?cf_path=Twissandra.Username&key=bob").Body, userRow)
	webkit.MustContain(t, c.Get("/models/inspect?cf_path=Twissandra.Friends&user=ann").Body, userRow)
}
