package blog_test

import (
	"html"
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
	for range 2 {
		body = html.UnescapeString(c.Submit("/learn/blog/load", nil, "/learn/blog#entry").Body)
	}
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
