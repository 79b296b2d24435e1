package blog_test

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"twissandra/adapters/widerow"
	"twissandra/domain/blog"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// The README's path in compare mode: `seed --articles` loads the article's blog on widerow
// alone, then the server starts with --compare cql3 and the lesson's "Load the article's blog"
// copies to the node what widerow holds, IDs kept, so that the page after it and the lesson's
// pages find no divergence; loading again writes nothing on either model.
func TestLessonBlogInCompareModeAfterSeed(t *testing.T) {
	t.Parallel()
	st, cs := webkit.CompareStoresOn(t)
	wb := widerow.NewBlogStore(st.Node)
	// What seed --articles does for the blog, on the primary backend alone.
	if err := blog.LoadFixture(webkit.BG(), blog.New(wb, wb, wb, wb, nil)); err != nil {
		t.Fatal(err)
	}
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	for i := range 2 {
		body := c.Submit("/learn/blog/load", nil, "/learn/blog#entry").Body
		if n := strings.Count(body, "DIVERGENCE"); n != 0 {
			t.Fatalf("load %d: %d DIVERGENCE lines:\n%s", i+1, n, body)
		}
		webkit.MustNotContain(t, body, "SECONDARY FAILED")
		action, _, _ := strings.Cut(body, `id="storage-ops"`)
		if writes := strings.Count(action, `<li class="op op-write">`) + strings.Count(action, `<li class="op op-lwt">`); (writes == 0) != (i == 1) {
			t.Errorf("load %d: %d writes", i+1, writes)
		}
	}
	for _, e := range blog.Fixture().Entries {
		webkit.MustNotContain(t, c.LessonPage("/learn/blog?entry="+e.Slug), "DIVERGENCE")
		want, err := wb.GetEntry(webkit.BG(), e.Slug)
		if err != nil {
			t.Fatal(err)
		}
		got, err := cs.GetEntry(webkit.BG(), e.Slug)
		if err != nil || got.ID != want.ID {
			t.Errorf("%s: the node holds ID %s (%v), widerow %s", e.Slug, got.ID, err, want.ID)
		}
		wc, err := wb.SliceComments(webkit.BG(), e.Slug, uuid.Nil, 100)
		if err != nil {
			t.Fatal(err)
		}
		cc, err := cs.SliceComments(webkit.BG(), e.Slug, uuid.Nil, 100)
		if err != nil || len(cc) != len(wc) {
			t.Fatalf("%s: the node holds %d comments (%v), widerow %d", e.Slug, len(cc), err, len(wc))
		}
		for i := range wc {
			if cc[i].ID != wc[i].ID {
				t.Errorf("%s: comment %d is %s on the node, %s on widerow", e.Slug, i, cc[i].ID, wc[i].ID)
			}
		}
	}
}
