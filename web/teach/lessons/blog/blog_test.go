package blog_test

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

// Lesson 5: the article's blog loaded from the lesson (twice changes nothing), then the newest
// entry's rows: its BlogEntries row, its TaggedPosts columns under each tag and __notag__, and
// its comments as super columns of its Comments row.
func TestLessonBlog(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	body := c.LessonPage("/learn/blog")
	webkit.MustContain(t, body, `<ColumnFamily Name="Comments" CompareWith="TimeUUIDType" ColumnType="Super" CompareSubcolumnsWith="BytesType"/>`,
		"<code>Comments</code><span> (super).</span>", `id="blog-none"`, "TaggedPosts['__notag__']")
	for i := range 2 {
		body = html.UnescapeString(c.Submit("/learn/blog/load", nil, "/learn/blog#entry").Body)
		// Loading again writes nothing: it reads what exists and skips it.
		action, _, _ := strings.Cut(body, `id="storage-ops"`)
		if writes := strings.Count(action, `<li class="op op-write">`) + strings.Count(action, `<li class="op op-lwt">`); (writes == 0) != (i == 1) {
			t.Errorf("load %d: %d writes:\n%s", i+1, writes, action)
		}
	}
	webkit.MustContain(t, body, "loading them again reads what exists and writes nothing")
	webkit.MustContain(t, body, "Scream is the best movie ever", "BloggyAppy.BlogEntries['scream-is-the-best-movie-ever']",
		"BloggyAppy.TaggedPosts['__notag__']", "BloggyAppy.TaggedPosts['horror']", "BloggyAppy.TaggedPosts['movie']",
		"Its first 2 comments, each a super column", "BloggyAppy.Comments['scream-is-the-best-movie-ever']", `"Joe Blow"`,
		"What loading the article's blog cost")
	if page, err := app.Blog.Entries(webkit.BG(), "", "", 10); err != nil || len(page.Entries) != 3 {
		t.Errorf("after loading twice the blog has %d entries, %v", len(page.Entries), err)
	}
	body = c.LessonPage("/learn/blog?entry=i-got-a-new-guitar")
	webkit.MustContain(t, body, "BloggyAppy.TaggedPosts['guitar']", "Its first 1 comment,", `"Johnny Guitar"`)
	webkit.MustContain(t, c.LessonPage("/learn/blog?entry=no-such-entry"), "The blog has no entry “no-such-entry”.")
}

// The lesson draws a comment as seed 004 writes it, and as lesson 1 and the inspector draw it:
// a super column named by its TimeUUID holding its subcolumns, not the subcolumns flattened
// under dotted names; and it names the blog as seed 004's, not the seed of Twissandra's
// column families.
func TestLessonBlogNestsCommentsAsSeed004(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	body := html.UnescapeString(c.Submit("/learn/blog/load", nil, "/learn/blog#entry").Body)
	_, comments, _ := strings.Cut(body, `id="places-comments-widerow"`)
	comments, _, _ = strings.Cut(comments, "</section>")
	webkit.MustContain(t, comments, `widerow: Cassandra 0.6 column families (seed 004's blog)`, `<span class="n">"commenter"</span>: <span class="v">"Joe Blow"</span>`)
	// Joe Blow's comment time, 1250438004: its TimeUUID starts edecf200-8a7c-11de.
	if !regexp.MustCompile(`<span class="n">edecf200-8a7c-11de-[0-9a-f-]{17}</span>: \{\n\s*<span class="n">"comment"</span>`).MatchString(comments) {
		t.Errorf("the comment is no super column holding its subcolumns:\n%s", comments)
	}
	webkit.MustNotContain(t, comments, `."comment"`, "seed 001")
}

// Each learner who wrote an entry sees their own in the lesson; a learner who wrote none sees
// the article's, never another learner's, and a learner with no entry on a blog without the
// article's is told so rather than shown a stranger's.
func TestLessonBlogShowsEachLearnerTheirOwn(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	ann, bob, cat := app.Client(t), app.Client(t), app.Client(t)
	ann.SignUp("ann")
	bob.SignUp("bob")
	cat.SignUp("cat")
	for _, w := range []struct {
		c          *webkit.Client
		slug, tags string
	}{{ann, "anns-entry", "mine"}, {bob, "bobs-entry", "his"}} {
		if r := w.c.Post("/blog/new", url.Values{"slug": {w.slug}, "title": {w.slug + " title"}, "body": {"b"}, "tags": {w.tags}}); r.Status != http.StatusSeeOther {
			t.Fatalf("publish %s: %d\n%s", w.slug, r.Status, r.Body)
		}
	}
	body := html.UnescapeString(cat.LessonPage("/learn/blog"))
	webkit.MustContain(t, body, `id="blog-none"`)
	webkit.MustNotContain(t, body, "anns-entry", "bobs-entry")
	cat.Submit("/learn/blog/load", nil, "/learn/blog#entry")
	body = html.UnescapeString(ann.LessonPage("/learn/blog"))
	webkit.MustContain(t, body, "Your newest entry <a href=\"/blog/entries/anns-entry\">anns-entry title</a>", "by ann,", "BloggyAppy.TaggedPosts['mine']")
	webkit.MustNotContain(t, body, "bobs-entry")
	body = html.UnescapeString(bob.LessonPage("/learn/blog"))
	webkit.MustContain(t, body, "Your newest entry <a href=\"/blog/entries/bobs-entry\">")
	webkit.MustNotContain(t, body, "anns-entry")
	body = html.UnescapeString(cat.LessonPage("/learn/blog"))
	webkit.MustContain(t, body, "The article's newest entry <a href=\"/blog/entries/scream-is-the-best-movie-ever\">", "by Arin Sarkissian,", "shown until you write one of your own")
	webkit.MustNotContain(t, body, "anns-entry", "bobs-entry")
}
