package models_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"twissandra/domain/blog"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// storedHeading is the heading of the inspector's "what the row stores" section.
var storedHeading = regexp.MustCompile(`What the row stores: (\d+) cells?, (\d+) tombstones?`)

// section is the part of body from the element with id on to the end of its <pre>.
func section(body, id string) string {
	_, after, ok := strings.Cut(body, `id="`+id+`"`)
	if !ok {
		return ""
	}
	before, _, _ := strings.Cut(after, "</pre>")
	return before
}

// A comment is written as seed 004 writes one, a super column of four subcolumns and no
// deletion before it, so the Comments row holds no tombstone; writing the same comment again
// replaces every subcolumn. When a row does hold tombstones (its comments deleted, then one
// written again), the inspector's heading counts the cells it lists, subcolumns included, and
// says what each deletion is.
func TestInspectorOfCommentsCountsWhatTheRowStores(t *testing.T) {
	t.Parallel()
	st := webkit.WiderowStores(t)
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	if _, err := app.Blog.Publish(webkit.BG(), blog.Draft{Slug: "scream", Title: "Scream", Body: "the best movie ever", Author: "arin", NewAuthor: true}); err != nil {
		t.Fatal(err)
	}
	joe, err := app.Blog.Comment(webkit.BG(), "scream", blog.CommentDraft{Name: "Joe Blow", Email: "joeb@example.com", Text: "the godfather is"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.Blog.Comment(webkit.BG(), "scream", blog.CommentDraft{Name: "Some Dude", Text: "be nice"}); err != nil {
		t.Fatal(err)
	}
	page := "/models/inspect?ks=BloggyAppy&cf=Comments&key=scream"
	r := c.Get(page)
	if r.Status != http.StatusOK {
		t.Fatalf("inspect: %d\n%s", r.Status, r.Body)
	}
	row := section(r.Body, "row-notation")
	for _, sub := range []string{"commenter", "email", "comment", "commentTime"} {
		if n := strings.Count(row, "&#34;"+sub+"&#34;</span>"); n != 2 {
			t.Errorf("the row holds %d subcolumns %q, want one in each of the 2 comments:\n%s", n, sub, row)
		}
	}
	webkit.MustNotContain(t, r.Body, `id="stored-cells"`, "deletion")

	// The same ID again, without an email: every subcolumn rewritten, still no tombstone.
	joe.Email, joe.Text = "", "rewritten"
	if err := st.Comments.AddComment(webkit.BG(), joe); err != nil {
		t.Fatal(err)
	}
	r = c.Get(page)
	webkit.MustContain(t, section(r.Body, "row-notation"), "rewritten")
	webkit.MustNotContain(t, r.Body, "joeb@example.com", `id="stored-cells"`)

	// Deleted, then one comment again: a row tombstone and the new comment's four cells (and
	// whatever the engine still keeps of the old ones), each listed and counted.
	if err := st.Comments.DeleteComments(webkit.BG(), "scream"); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Blog.Comment(webkit.BG(), "scream", blog.CommentDraft{Name: "Johnny", Text: "nice axe"}); err != nil {
		t.Fatal(err)
	}
	r = c.Get(page)
	m := storedHeading.FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("no heading of the stored cells:\n%s", r.Body)
	}
	stored := section(r.Body, "stored-notation")
	cells, _ := strconv.Atoi(m[1])
	tombstones, _ := strconv.Atoi(m[2])
	if listed := strings.Count(stored, `class="c ts"`); cells != listed || cells < 5 {
		t.Errorf("the heading says %d cells over %d listed:\n%s", cells, listed, stored)
	}
	if listed := strings.Count(stored, `class="tomb"`); tombstones != listed || tombstones != 1 {
		t.Errorf("the heading says %d tombstones over %d listed:\n%s", tombstones, listed, stored)
	}
	webkit.MustContain(t, stored, "(the row&#39;s deletion: every column written before it)")
}
