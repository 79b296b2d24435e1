package widerow_test

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/google/uuid"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/ports"
	"twissandra/ports/porttest"
)

var (
	_ ports.AuthorStore  = (*widerow.BlogStore)(nil)
	_ ports.EntryStore   = (*widerow.BlogStore)(nil)
	_ ports.TagIndex     = (*widerow.BlogStore)(nil)
	_ ports.CommentStore = (*widerow.BlogStore)(nil)
)

func openBlogNode(t *testing.T, dir string) *engine.Node {
	t.Helper()
	opts := engine.Options{Dir: dir}
	if dir != "" {
		opts.CommitLogSync = engine.SyncPeriodic
	}
	n, err := engine.Open(opts)
	if err != nil {
		t.Fatalf("engine.Open: %v", err)
	}
	t.Cleanup(func() {
		if err := n.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return n
}

func blogStores(s *widerow.BlogStore) porttest.BlogStores {
	return porttest.BlogStores{Authors: s, Entries: s, Tags: s, Comments: s}
}

func TestBlogContractInMemory(t *testing.T) {
	porttest.RunBlog(t, func(t *testing.T) porttest.BlogStores {
		return blogStores(widerow.NewBlogStore(openBlogNode(t, "")))
	})
}

func TestBlogContractOnDisk(t *testing.T) {
	porttest.RunBlog(t, func(t *testing.T) porttest.BlogStores {
		return blogStores(widerow.NewBlogStore(openBlogNode(t, t.TempDir())))
	})
}

// TestBlogLayoutIsTheArticles loads the article's data set through the use cases and reads the
// rows back through the engine, column family by column family, as the article draws them.
func TestBlogLayoutIsTheArticles(t *testing.T) {
	ctx := context.Background()
	node := openBlogNode(t, "")
	s := widerow.NewBlogStore(node)
	if err := blog.LoadFixture(ctx, blog.New(s, s, s, s, nil)); err != nil {
		t.Fatal(err)
	}
	const ks = widerow.KeyspaceBloggyAppy
	row := func(cf, key string) []engine.ColumnOrSuperColumn {
		t.Helper()
		cols, err := node.GetSlice(ctx, ks, key, engine.ColumnParent{ColumnFamily: cf}, engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: engine.DefaultCount}}, engine.ONE)
		if err != nil {
			t.Fatalf("GetSlice(%s[%q]): %v", cf, key, err)
		}
		return cols
	}
	columns := func(cols []engine.ColumnOrSuperColumn) map[string]string {
		m := map[string]string{}
		for _, c := range cols {
			m[string(c.Column.Name)] = string(c.Column.Value)
		}
		return m
	}

	wantAuthor := map[string]string{"numPosts": "3", "twitter": "phatduckk", "email": "arin@example.com", "bio": "bla bla bla"}
	if got := columns(row("Authors", "Arin Sarkissian")); !maps.Equal(got, wantAuthor) {
		t.Fatalf("Authors['Arin Sarkissian'] = %v, want %v", got, wantAuthor)
	}

	entry := columns(row("BlogEntries", "i-got-a-new-guitar"))
	wantEntry := map[string]string{
		"title":   "This is a blog entry about my new, awesome guitar",
		"body":    "this is a cool entry. etc etc yada yada",
		"author":  "Arin Sarkissian",
		"tags":    "guitar,life,music",
		"pubDate": "1250558004",
		"slug":    "i-got-a-new-guitar",
	}
	for k, v := range wantEntry {
		if entry[k] != v {
			t.Errorf("BlogEntries['i-got-a-new-guitar'][%s] = %q, want %q", k, entry[k], v)
		}
	}
	ids := map[string]uuid.UUID{}
	for _, slug := range []string{"i-got-a-new-guitar", "another-cool-guitar", "scream-is-the-best-movie-ever"} {
		id, err := uuid.FromBytes([]byte(columns(row("BlogEntries", slug))["id"]))
		if err != nil || id.Version() != 1 {
			t.Fatalf("BlogEntries[%q][id] is not a TimeUUID: %v", slug, err)
		}
		ids[slug] = id
	}
	if got := columns(row("BlogEntries", "scream-is-the-best-movie-ever"))["tags"]; got != "horror,movie" {
		t.Errorf("scream's tags = %q", got)
	}

	// TaggedPosts: column names are the entries' TimeUUIDs in time order, values their slugs.
	tagged := func(tag string) []string {
		var slugs []string
		for _, c := range row("TaggedPosts", tag) {
			id, err := uuid.FromBytes(c.Column.Name)
			if err != nil || id != ids[string(c.Column.Value)] {
				t.Fatalf("TaggedPosts[%q] column %x does not name %q by its id", tag, c.Column.Name, c.Column.Value)
			}
			slugs = append(slugs, string(c.Column.Value))
		}
		return slugs
	}
	wantTagged := map[string][]string{
		"guitar":    {"i-got-a-new-guitar", "another-cool-guitar"},
		"__notag__": {"i-got-a-new-guitar", "another-cool-guitar", "scream-is-the-best-movie-ever"},
		"movie":     {"scream-is-the-best-movie-ever"},
		"horror":    {"scream-is-the-best-movie-ever"},
		"life":      {"i-got-a-new-guitar"},
		"music":     {"i-got-a-new-guitar"},
	}
	for tag, want := range wantTagged {
		if got := tagged(tag); !slices.Equal(got, want) {
			t.Errorf("TaggedPosts[%q] = %v, want %v", tag, got, want)
		}
	}

	// Comments: one super column per comment, TimeUUID-named, oldest first.
	scs := row("Comments", "scream-is-the-best-movie-ever")
	want := []map[string]string{
		{"commenter": "Joe Blow", "email": "joeb@example.com", "comment": "you're a dumb douche, the godfather is the best movie ever", "commentTime": "1250438004"},
		{"commenter": "Some Dude", "email": "sd@example.com", "comment": "be nice Joe Blow this isnt youtube", "commentTime": "1250557004"},
	}
	if len(scs) != len(want) {
		t.Fatalf("Comments['scream-is-the-best-movie-ever'] has %d super columns, want %d", len(scs), len(want))
	}
	for i, sc := range scs {
		id, err := uuid.FromBytes(sc.SuperColumn.Name)
		if err != nil || id.Version() != 1 {
			t.Fatalf("super column %d is not named by a TimeUUID", i)
		}
		secs, _ := strconv.ParseInt(want[i]["commentTime"], 10, 64)
		if domain.TimeUUIDMicros(id) != secs*1_000_000 {
			t.Errorf("super column %d is named at %d, want commentTime %d", i, domain.TimeUUIDMicros(id), secs)
		}
		got := map[string]string{}
		for _, c := range sc.SuperColumn.Columns {
			got[string(c.Name)] = string(c.Value)
		}
		if !maps.Equal(got, want[i]) {
			t.Errorf("super column %d = %v, want %v", i, got, want[i])
		}
	}
	if scs := row("Comments", "i-got-a-new-guitar"); len(scs) != 1 || string(scs[0].SuperColumn.Columns[0].Value) != "nice axe dawg..." {
		t.Errorf("Comments['i-got-a-new-guitar'] = %+v, want Johnny Guitar's", scs)
	}

	// The delete the article left open: the entry row names its tags and its TimeUUID, so
	// exactly those columns go.
	svc := blog.New(s, s, s, s, nil)
	if err := svc.DeleteEntry(ctx, "i-got-a-new-guitar"); err != nil {
		t.Fatal(err)
	}
	wantTagged = map[string][]string{
		"guitar":    {"another-cool-guitar"},
		"__notag__": {"another-cool-guitar", "scream-is-the-best-movie-ever"},
		"life":      nil,
		"music":     nil,
	}
	for tag, want := range wantTagged {
		if got := tagged(tag); !slices.Equal(got, want) {
			t.Errorf("after the delete, TaggedPosts[%q] = %v, want %v", tag, got, want)
		}
	}
	if got := row("BlogEntries", "i-got-a-new-guitar"); len(got) != 0 {
		t.Errorf("the deleted entry's row holds %d columns", len(got))
	}
	if got := row("Comments", "i-got-a-new-guitar"); len(got) != 0 {
		t.Errorf("the deleted entry's comments row holds %d super columns", len(got))
	}
	if got := columns(row("Authors", "Arin Sarkissian"))["numPosts"]; got != "2" {
		t.Errorf("numPosts after the delete = %q, want 2", got)
	}
}
