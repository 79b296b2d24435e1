package models_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/domain/blog"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// In Chromium on widerow: from a tweet, a user and a blog comment, one click shows every row
// and column each occupies, with the column timestamps; screenshots where-*.png.
func TestBrowserWhereDoesItLive(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	for _, n := range []string{"bob", "fan"} {
		if _, err := app.Social.SignUp(webkit.BG(), n, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := app.Social.Follow(webkit.BG(), "fan", "bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Social.Post(webkit.BG(), "bob", "find me in every row"); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Blog.Publish(webkit.BG(), blog.Draft{Slug: "supercolumns", Title: "WTF", Body: "b", Author: "Arin", Tags: []string{"cassandra"}, NewAuthor: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Blog.Comment(webkit.BG(), "supercolumns", blog.CommentDraft{Name: "reader", Text: "thanks"}); err != nil {
		t.Fatal(err)
	}
	b := webkit.NewTab(t, 1280, 900, 60*time.Second)
	check := func(name string, wants ...string) {
		t.Helper()
		got := b.Text("main")
		for _, w := range wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s lacks %q:\n%s", name, w, got)
			}
		}
		b.Shot(name)
	}
	b.Do("tweet", chromedp.Navigate(app.Srv.URL+"/public"),
		chromedp.Click(chromedp.Search(`//li[contains(@class,"tweet")]//a[contains(@class,"where")]`)),
		chromedp.WaitVisible(chromedp.CSS("#where-widerow")))
	check("where-tweet", "5 of 5 places hold it", "the tweet: Twissandra.Tweet[", `the public line: Twissandra.Userline["!PUBLIC!"][`,
		"follower fan's timeline: Twissandra.Timeline[", `"body": "find me in every row"`, "/* timestamp ")

	b.Do("user", chromedp.Navigate(app.Srv.URL+"/users/bob"), chromedp.Click(chromedp.CSS("#where-user")),
		chromedp.WaitVisible(chromedp.CSS("#where-widerow")))
	check("where-user", "2 of 2 places hold it", `Twissandra.Username["bob"]["id"]`, "<bcrypt hash, 60 bytes>")

	b.Do("comment", chromedp.Navigate(app.Srv.URL+"/blog/entries/supercolumns"),
		chromedp.Click(chromedp.Search(`//li[contains(@class,"comment")]//a[contains(@class,"where")]`)),
		chromedp.WaitVisible(chromedp.CSS("#where-widerow")))
	check("where-comment", "1 of 1 places hold it", `BloggyAppy.Comments["supercolumns"][`, `"commenter"`)
}
