package porttest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/blog/model"
	"twissandra/ports"
)

// BlogStores is what an adapter hands the blog suite.
type BlogStores struct {
	Authors  ports.AuthorStore
	Entries  ports.EntryStore
	Tags     ports.TagIndex
	Comments ports.CommentStore
}

// BlogFactory returns empty stores for one subtest. They must hold no entry at all: the
// __notag__ row is shared by every entry, and the suite checks it exactly.
type BlogFactory func(t *testing.T) BlogStores

// RunBlog runs the whole blog contract: the raw ports, then the use cases of domain/blog on top.
//
//	func TestBlogContract(t *testing.T) {
//		porttest.RunBlog(t, func(t *testing.T) porttest.BlogStores { s := memory.NewBlog(); return porttest.BlogStores{s, s, s, s} })
//	}
func RunBlog(t *testing.T, newStores BlogFactory) {
	tests := []struct {
		name string
		fn   func(t *testing.T, newStores BlogFactory)
	}{
		{"AuthorsPutGetMultiget", testAuthors},
		{"AuthorPostCountIsAtomic", testPostCount},
		{"EntriesCreateGetDelete", testEntries},
		{"ConcurrentCreateEntryOneWinner", testConcurrentCreateEntry},
		{"TagIndexSliceOrderAndBounds", testTagIndex},
		{"TagIndexSliceBetweenTimes", testTagIndexBetween},
		{"CommentsSliceOrderAndBounds", testCommentRows},
		{"PublishAndRead", testPublishAndRead},
		{"ConcurrentPublishOneWinner", testConcurrentPublish},
		{"TagPagingIsExact", testTagPaging},
		{"CommentPagingIsExact", testCommentPaging},
		{"TagPagingStableUnderConcurrentPublishes", testTagPagingUnderPublishes},
		{"SameMicrosecondEntriesAndCommentsBothKept", testBlogSameMicrosecond},
		{"DeleteRemovesEntryEverywhere", testDelete},
		{"ConcurrentDeletesOneWinner", testConcurrentDelete},
		{"AuthorProfileAndPostCount", testAuthorProfile},
		{"ListingSkipsDanglingColumns", testDangling},
		{"BlogNotFoundErrors", testBlogNotFound},
		{"BlogValidationStoresNothing", testBlogValidation},
		{"FixtureLoadsIdempotently", testFixture},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStores) })
	}
}

func blogService(s BlogStores, clock domain.Clock) *blog.Service {
	if clock == nil {
		clock = newStepClock()
	}
	return blog.New(s.Authors, s.Entries, s.Tags, s.Comments, clock)
}

// slugOf makes a slug (or a tag) unique to this run.
func slugOf(prefix string) string { return prefix + "-" + uuid.NewString()[:8] }

// authorOf makes an author name unique to this run.
func authorOf(prefix string) string { return prefix + " " + uuid.NewString()[:8] }

func mustAuthor(t *testing.T, svc *blog.Service, name string, profile map[string]string) blog.Author {
	t.Helper()
	a, err := svc.PutAuthor(ctx(t), name, profile)
	if err != nil {
		t.Fatalf("PutAuthor(%q): %v", name, err)
	}
	return a
}

func mustPublish(t *testing.T, svc *blog.Service, d blog.Draft) blog.Entry {
	t.Helper()
	if d.Title == "" {
		d.Title = "About " + d.Slug
	}
	if d.Body == "" {
		d.Body = "this is a cool entry. etc etc yada yada"
	}
	e, err := svc.Publish(ctx(t), d)
	if err != nil {
		t.Fatalf("Publish(%q): %v", d.Slug, err)
	}
	return e
}

// publishN publishes n entries by author under tags and returns them newest first.
func publishN(t *testing.T, svc *blog.Service, author string, n int, tags ...string) []blog.Entry {
	t.Helper()
	out := make([]blog.Entry, n)
	for i := 0; i < n; i++ {
		out[n-1-i] = mustPublish(t, svc, blog.Draft{Slug: slugOf(fmt.Sprintf("entry-%d", i)), Author: author, Tags: tags})
	}
	return out
}

func sameEntry(a, b model.Entry) bool {
	return a.Slug == b.Slug && a.ID == b.ID && a.Title == b.Title && a.Body == b.Body && a.Author == b.Author &&
		slices.Equal(a.Tags, b.Tags) && a.PublishedAt.Equal(b.PublishedAt)
}

func sameComment(a, b model.Comment) bool {
	return a.ID == b.ID && a.Slug == b.Slug && a.Name == b.Name && a.Email == b.Email && a.Text == b.Text && a.Time.Equal(b.Time)
}

func entrySlugs(es []model.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Slug
	}
	return out
}

func viewSlugs(es []blog.EntryView) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Slug
	}
	return out
}

func viewIDs(es []blog.EntryView) []uuid.UUID {
	out := make([]uuid.UUID, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func entryIDs(es []blog.Entry) []uuid.UUID {
	out := make([]uuid.UUID, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func refIDs(rs []model.TagRef) []uuid.UUID {
	out := make([]uuid.UUID, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

func commentIDs(cs []model.Comment) []uuid.UUID {
	out := make([]uuid.UUID, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

func mustTagged(t *testing.T, s BlogStores, tag string) []model.TagRef {
	t.Helper()
	refs, err := s.Tags.SliceTagged(ctx(t), tag, uuid.Nil, 1000)
	if err != nil {
		t.Fatalf("SliceTagged(%q): %v", tag, err)
	}
	return refs
}

func mustCommentRow(t *testing.T, s BlogStores, slug string) []model.Comment {
	t.Helper()
	cs, err := s.Comments.SliceComments(ctx(t), slug, uuid.Nil, 1000)
	if err != nil {
		t.Fatalf("SliceComments(%q): %v", slug, err)
	}
	return cs
}

func mustEntries(t *testing.T, svc *blog.Service, tag string) []blog.EntryView {
	t.Helper()
	p, err := svc.Entries(ctx(t), tag, "", domain.MaxPageSize)
	if err != nil {
		t.Fatalf("Entries(%q): %v", tag, err)
	}
	if p.Next != "" {
		t.Fatalf("Entries(%q): more than one page", tag)
	}
	return p.Entries
}

func testAuthors(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	arin := model.Author{Name: authorOf("Arin Sarkissian"), Profile: map[string]string{"twitter": "phatduckk", "email": "arin@example.com", "bio": "bla bla bla"}}
	if err := s.Authors.PutAuthor(c, arin); err != nil {
		t.Fatal(err)
	}
	got, err := s.Authors.GetAuthor(c, arin.Name)
	if err != nil || got.Name != arin.Name || !maps.Equal(got.Profile, arin.Profile) || got.Posts != 0 {
		t.Fatalf("GetAuthor = %+v, %v; want %+v with 0 posts", got, err, arin)
	}
	if _, err := s.Authors.GetAuthor(c, authorOf("Nobody")); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("GetAuthor(missing) err = %v, want ErrNotFound", err)
	}
	if err := s.Authors.AddPosts(c, arin.Name, 3); err != nil {
		t.Fatal(err)
	}
	// A put replaces the whole profile and never touches the count.
	if err := s.Authors.PutAuthor(c, model.Author{Name: arin.Name, Profile: map[string]string{"twitter": "arin"}, Posts: 99}); err != nil {
		t.Fatal(err)
	}
	got, err = s.Authors.GetAuthor(c, arin.Name)
	if err != nil || !maps.Equal(got.Profile, map[string]string{"twitter": "arin"}) || got.Posts != 3 {
		t.Fatalf("after a second put, GetAuthor = %+v, %v; want only twitter and 3 posts", got, err)
	}
	bare := model.Author{Name: authorOf("Author 2")}
	if err := s.Authors.PutAuthor(c, bare); err != nil {
		t.Fatal(err)
	}
	got, err = s.Authors.GetAuthor(c, bare.Name)
	if err != nil || got.Profile == nil || len(got.Profile) != 0 {
		t.Fatalf("GetAuthor(no profile) = %+v, %v; want an empty, non-nil profile", got, err)
	}
	many, err := s.Authors.GetAuthors(c, []string{bare.Name, authorOf("Missing"), arin.Name})
	if err != nil || len(many) != 2 || many[0].Name != bare.Name || many[1].Name != arin.Name || many[1].Posts != 3 {
		t.Fatalf("GetAuthors = %+v, %v; want Author 2 then Arin", many, err)
	}
	if many, err := s.Authors.GetAuthors(c, nil); err != nil || len(many) != 0 {
		t.Fatalf("GetAuthors(nil) = %v, %v", many, err)
	}
}

func testPostCount(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	name := authorOf("Prolific")
	if err := s.Authors.PutAuthor(c, model.Author{Name: name}); err != nil {
		t.Fatal(err)
	}
	add := func(n int, delta int64) {
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if err := s.Authors.AddPosts(c, name, delta); err != nil {
					t.Errorf("AddPosts(%d): %v", delta, err)
				}
			}()
		}
		close(start)
		wg.Wait()
	}
	posts := func() int64 {
		a, err := s.Authors.GetAuthor(c, name)
		if err != nil {
			t.Fatal(err)
		}
		return a.Posts
	}
	add(50, 1)
	if got := posts(); got != 50 {
		t.Fatalf("after 50 concurrent increments, posts = %d", got)
	}
	add(20, -1)
	if got := posts(); got != 30 {
		t.Fatalf("after 20 concurrent decrements, posts = %d, want 30", got)
	}
	if err := s.Authors.AddPosts(c, name, -100); err != nil {
		t.Fatal(err)
	}
	if got := posts(); got != 0 {
		t.Fatalf("a decrement past zero left %d, want 0", got)
	}
	ghost := authorOf("Ghost")
	if err := s.Authors.AddPosts(c, ghost, 1); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("AddPosts(missing) err = %v, want ErrNotFound", err)
	}
	if _, err := s.Authors.GetAuthor(c, ghost); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("AddPosts created the missing author: %v", err)
	}
}

func rawEntry(slug string, micros int64, tags ...string) model.Entry {
	return model.Entry{
		Slug: slug, ID: domain.NewTimeUUID(micros), Title: "This is a blog entry about my new, awesome guitar",
		Body: "this is a cool entry. etc etc yada yada ✓", Author: "Arin Sarkissian", Tags: tags,
		PublishedAt: domain.TimeFromMicros(micros),
	}
}

func testEntries(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	now := time.Now().UnixMicro()
	e := rawEntry(slugOf("i-got-a-new-guitar"), now, "guitar", "life", "music")
	if err := s.Entries.CreateEntry(c, e); err != nil {
		t.Fatal(err)
	}
	got, err := s.Entries.GetEntry(c, e.Slug)
	if err != nil || !sameEntry(got, e) {
		t.Fatalf("GetEntry = %+v, %v; want %+v", got, err, e)
	}
	untagged := rawEntry(slugOf("untagged"), now+1)
	if err := s.Entries.CreateEntry(c, untagged); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Entries.GetEntry(c, untagged.Slug); err != nil || len(got.Tags) != 0 || got.ID != untagged.ID {
		t.Fatalf("GetEntry(untagged) = %+v, %v", got, err)
	}
	if _, err := s.Entries.GetEntry(c, slugOf("missing")); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("GetEntry(missing) err = %v, want ErrNotFound", err)
	}
	dup := rawEntry(e.Slug, now+2, "other")
	dup.Title = "an impostor"
	if err := s.Entries.CreateEntry(c, dup); !errors.Is(err, domain.ErrAlreadyExists) {
		t.Fatalf("CreateEntry(duplicate) err = %v, want ErrAlreadyExists", err)
	}
	if got, err := s.Entries.GetEntry(c, e.Slug); err != nil || !sameEntry(got, e) {
		t.Fatalf("after a refused duplicate, GetEntry = %+v, %v; want the original", got, err)
	}
	many, err := s.Entries.GetEntries(c, []string{untagged.Slug, slugOf("missing"), e.Slug})
	if err != nil || len(many) != 2 || !sameEntry(many[0], untagged) || !sameEntry(many[1], e) {
		t.Fatalf("GetEntries = %v, %v; want untagged then e", entrySlugs(many), err)
	}
	if many, err := s.Entries.GetEntries(c, nil); err != nil || len(many) != 0 {
		t.Fatalf("GetEntries(nil) = %v, %v", many, err)
	}
	if err := s.Entries.DeleteEntry(c, e.Slug, dup.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("DeleteEntry(other ID) err = %v, want ErrNotFound", err)
	}
	if _, err := s.Entries.GetEntry(c, e.Slug); err != nil {
		t.Fatalf("DeleteEntry(other ID) deleted the entry: %v", err)
	}
	if err := s.Entries.DeleteEntry(c, e.Slug, e.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Entries.GetEntry(c, e.Slug); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("after DeleteEntry, GetEntry err = %v, want ErrNotFound", err)
	}
	if err := s.Entries.DeleteEntry(c, e.Slug, e.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a second DeleteEntry err = %v, want ErrNotFound", err)
	}
	if err := s.Entries.CreateEntry(c, dup); err != nil {
		t.Fatalf("the slug of a deleted entry is free again: %v", err)
	}
	if got, err := s.Entries.GetEntry(c, e.Slug); err != nil || !sameEntry(got, dup) {
		t.Fatalf("GetEntry after re-create = %+v, %v", got, err)
	}
	if got, _ := s.Entries.GetEntry(c, untagged.Slug); got.ID != untagged.ID {
		t.Fatalf("deleting one entry touched another")
	}
}

func testConcurrentCreateEntry(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	slug := slugOf("popular")
	const n = 20
	now := time.Now().UnixMicro()
	entries := make([]model.Entry, n)
	for i := range entries {
		entries[i] = rawEntry(slug, now+int64(i), "guitar")
		entries[i].Title = fmt.Sprintf("attempt %d", i)
	}
	winner := exactlyOneWins(t, "creates", n, domain.ErrAlreadyExists, func(i int) error {
		return s.Entries.CreateEntry(c, entries[i])
	})
	got, err := s.Entries.GetEntry(c, slug)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != entries[winner].ID {
		t.Fatalf("stored entry %s is not the winner %s", got.ID, entries[winner].ID)
	}
}

// A slice between two times holds the columns of those microseconds, both ends included, newest
// first; pages of it pass from one column to the next, twins of one microsecond included, and
// stop at the older end.
func testTagIndexBetween(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	tag := slugOf("between")
	base := time.Now().UnixMicro()
	ids := map[int64]uuid.UUID{}
	for _, d := range []int64{0, 10, 20, 30, 40, 50} {
		ids[d] = domain.NewTimeUUID(base + d)
		if err := s.Tags.AddTagged(c, ids[d], fmt.Sprintf("entry-%d", d), tag); err != nil {
			t.Fatal(err)
		}
	}
	twin := domain.NewTimeUUID(base + 30) // a second column of microsecond 30
	if err := s.Tags.AddTagged(c, twin, "entry-30b", tag); err != nil {
		t.Fatal(err)
	}
	at := func(d int64) time.Time { return time.UnixMicro(base + d) }
	between := func(from, to int64, before uuid.UUID, limit int) []model.TagRef {
		t.Helper()
		got, err := s.Tags.SliceTaggedBetween(c, tag, at(from), at(to), before, limit)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	micros := func(rs []model.TagRef) []int64 {
		out := make([]int64, len(rs))
		for i, r := range rs {
			out[i] = domain.TimeUUIDMicros(r.ID) - base
		}
		return out
	}
	for _, tc := range []struct {
		from, to int64
		limit    int
		want     []int64
	}{
		{10, 40, 10, []int64{40, 30, 30, 20, 10}}, // both ends included
		{11, 39, 10, []int64{30, 30, 20}},
		{30, 30, 10, []int64{30, 30}}, // one microsecond: both twins
		{-100, 100, 3, []int64{50, 40, 30}},
		{41, 49, 10, []int64{}},
		{40, 10, 10, []int64{}}, // newest before oldest
	} {
		if got := micros(between(tc.from, tc.to, uuid.Nil, tc.limit)); !slices.Equal(got, tc.want) {
			t.Errorf("between %d and %d, limit %d: %v, want %v", tc.from, tc.to, tc.limit, got, tc.want)
		}
	}
	// The twins come in the order SliceTagged gives them; paging one at a time walks the range
	// exactly, and a cursor outside it stops or starts the range as it should.
	row := mustTagged(t, s, tag)
	var want []uuid.UUID
	for _, r := range row {
		if m := domain.TimeUUIDMicros(r.ID) - base; m >= 10 && m <= 40 {
			want = append(want, r.ID)
		}
	}
	var walked []uuid.UUID
	for before := uuid.Nil; ; {
		page := between(10, 40, before, 1)
		if len(page) == 0 {
			break
		}
		walked = append(walked, page[0].ID)
		before = page[0].ID
		if len(walked) > len(want) {
			t.Fatalf("paging does not end: %v", walked)
		}
	}
	if !slices.Equal(walked, want) {
		t.Errorf("paged one at a time: %v, want %v", walked, want)
	}
	if got := micros(between(10, 40, ids[50], 10)); !slices.Equal(got, []int64{40, 30, 30, 20, 10}) {
		t.Errorf("a cursor newer than the range: %v", got)
	}
	if got := between(10, 40, ids[10], 10); len(got) != 0 {
		t.Errorf("a cursor at the range's oldest end: %v", micros(got))
	}
	if got, err := s.Tags.SliceTaggedBetween(c, slugOf("no-such-tag"), at(0), at(50), uuid.Nil, 10); err != nil || len(got) != 0 {
		t.Errorf("an unknown tag: %v, %v", got, err)
	}
}

func testTagIndex(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	tag, other := slugOf("guitar"), slugOf("music")
	base := time.Now().UnixMicro()
	ids := map[int64]uuid.UUID{}
	// Out of order on purpose: a row is ordered by its column names, not by arrival.
	for _, d := range []int64{3, 1, 5, 2, 4} {
		ids[d] = domain.NewTimeUUID(base + d)
		if err := s.Tags.AddTagged(c, ids[d], fmt.Sprintf("entry-%d", d), tag, other); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		before uuid.UUID
		limit  int
		want   []int64
	}{
		{uuid.Nil, 10, []int64{5, 4, 3, 2, 1}},
		{uuid.Nil, 2, []int64{5, 4}},
		{ids[4], 10, []int64{3, 2, 1}},
		{ids[4], 1, []int64{3}},
		{ids[1], 10, nil},
		{domain.NewTimeUUID(base + 100), 2, []int64{5, 4}},
		{domain.NewTimeUUID(base), 10, nil},
	}
	for _, tc := range cases {
		got, err := s.Tags.SliceTagged(c, tag, tc.before, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		var want []uuid.UUID
		for _, d := range tc.want {
			want = append(want, ids[d])
		}
		if !slices.Equal(refIDs(got), want) {
			t.Errorf("SliceTagged(before=%v, limit=%d) = %v, want %v", tc.before, tc.limit, refIDs(got), want)
		}
		for _, r := range got {
			if r.Slug != fmt.Sprintf("entry-%d", domain.TimeUUIDMicros(r.ID)-base) {
				t.Fatalf("column %s names %q", r.ID, r.Slug)
			}
		}
	}
	// Two entries of one microsecond are two columns; paging passes from one to the other.
	twinA, twinB := domain.NewTimeUUID(base+7), domain.NewTimeUUID(base+7)
	if err := s.Tags.AddTagged(c, twinA, "twin-a", tag); err != nil {
		t.Fatal(err)
	}
	if err := s.Tags.AddTagged(c, twinB, "twin-b", tag); err != nil {
		t.Fatal(err)
	}
	if err := s.Tags.AddTagged(c, ids[5], "entry-5", tag); err != nil { // again: harmless
		t.Fatal(err)
	}
	all := mustTagged(t, s, tag)
	if len(all) != 7 {
		t.Fatalf("row holds %d columns, want 7 (two of one microsecond, none twice)", len(all))
	}
	for i := 1; i < len(all); i++ {
		if domain.TimeUUIDMicros(all[i-1].ID) < domain.TimeUUIDMicros(all[i].ID) {
			t.Fatalf("row is not newest first at %d", i)
		}
	}
	first, err := s.Tags.SliceTagged(c, tag, uuid.Nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	next, err := s.Tags.SliceTagged(c, tag, first[0].ID, 1)
	if err != nil || len(next) != 1 || !slices.Contains([]uuid.UUID{twinA, twinB}, next[0].ID) || next[0].ID == first[0].ID {
		t.Fatalf("paging past the first twin = %v, %v; want the other twin", next, err)
	}
	if err := s.Tags.RemoveTagged(c, ids[3], tag, slugOf("absent")); err != nil {
		t.Fatal(err)
	}
	if err := s.Tags.RemoveTagged(c, domain.NewTimeUUID(base+99), tag); err != nil {
		t.Fatal(err)
	}
	if got := mustTagged(t, s, tag); len(got) != 6 || slices.Contains(refIDs(got), ids[3]) {
		t.Fatalf("after RemoveTagged, row = %v", refIDs(got))
	}
	if got := mustTagged(t, s, other); !slices.Contains(refIDs(got), ids[3]) || len(got) != 5 {
		t.Fatalf("RemoveTagged from one row touched another: %v", refIDs(got))
	}
	if got := mustTagged(t, s, slugOf("unknown")); len(got) != 0 {
		t.Fatalf("an unknown tag holds %v", got)
	}
}

func testCommentRows(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	slug, other := slugOf("scream-is-the-best-movie-ever"), slugOf("i-got-a-new-guitar")
	base := time.Now().UnixMicro()
	mk := func(slug string, d int64, name string) model.Comment {
		return model.Comment{ID: domain.NewTimeUUID(base + d), Slug: slug, Name: name, Email: "joeb@example.com", Text: "comment by " + name + " ✓", Time: domain.TimeFromMicros(base + d)}
	}
	byD := map[int64]model.Comment{}
	for _, d := range []int64{3, 1, 2} {
		byD[d] = mk(slug, d, fmt.Sprintf("Commenter %d", d))
		if err := s.Comments.AddComment(c, byD[d]); err != nil {
			t.Fatal(err)
		}
	}
	noEmail := mk(other, 1, "Johnny Guitar")
	noEmail.Email = ""
	if err := s.Comments.AddComment(c, noEmail); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		after uuid.UUID
		limit int
		want  []int64
	}{
		{uuid.Nil, 10, []int64{1, 2, 3}},
		{uuid.Nil, 2, []int64{1, 2}},
		{byD[1].ID, 10, []int64{2, 3}},
		{byD[1].ID, 1, []int64{2}},
		{byD[3].ID, 10, nil},
		{domain.NewTimeUUID(base), 10, []int64{1, 2, 3}},
		{domain.NewTimeUUID(base + 100), 10, nil},
	}
	for _, tc := range cases {
		got, err := s.Comments.SliceComments(c, slug, tc.after, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(tc.want) {
			t.Fatalf("SliceComments(after=%v, limit=%d) = %d comments, want %v", tc.after, tc.limit, len(got), tc.want)
		}
		for i, d := range tc.want {
			if !sameComment(got[i], byD[d]) {
				t.Fatalf("SliceComments(after=%v, limit=%d)[%d] = %+v, want %+v", tc.after, tc.limit, i, got[i], byD[d])
			}
		}
	}
	if got := mustCommentRow(t, s, other); len(got) != 1 || !sameComment(got[0], noEmail) {
		t.Fatalf("row of the other entry = %+v", got)
	}
	rewritten := byD[2]
	rewritten.Email, rewritten.Text = "", "rewritten without an email"
	if err := s.Comments.AddComment(c, rewritten); err != nil {
		t.Fatal(err)
	}
	if got := mustCommentRow(t, s, slug); len(got) != 3 || !sameComment(got[1], rewritten) {
		t.Fatalf("after rewriting a comment, row = %+v; want it replaced whole, in place", got)
	}
	twin := mk(slug, 2, "Twin")
	if err := s.Comments.AddComment(c, twin); err != nil {
		t.Fatal(err)
	}
	if got := mustCommentRow(t, s, slug); len(got) != 4 {
		t.Fatalf("two comments of one microsecond: row holds %d, want 4", len(got))
	}
	if err := s.Comments.DeleteComments(c, slug); err != nil {
		t.Fatal(err)
	}
	if got := mustCommentRow(t, s, slug); len(got) != 0 {
		t.Fatalf("after DeleteComments the row holds %d", len(got))
	}
	if err := s.Comments.DeleteComments(c, slug); err != nil {
		t.Fatalf("deleting an empty row: %v", err)
	}
	if got := mustCommentRow(t, s, other); len(got) != 1 {
		t.Fatalf("DeleteComments touched another row: %d comments", len(got))
	}
	if got := mustCommentRow(t, s, slugOf("unknown")); len(got) != 0 {
		t.Fatalf("an unknown slug has comments %v", got)
	}
}

func testPublishAndRead(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	svc := blogService(s, nil)
	profile := map[string]string{"twitter": "phatduckk", "email": "arin@example.com", "bio": "bla bla bla"}
	author := mustAuthor(t, svc, authorOf("Arin Sarkissian"), profile)
	slug := slugOf("i-got-a-new-guitar")
	e, err := svc.Publish(c, blog.Draft{
		Slug: slug, Title: "  This is a blog entry about my new, awesome guitar ", Body: "this is a cool entry. etc etc yada yada\n",
		Author: author.Name, Tags: []string{"Life", "guitar", " music ", "GUITAR"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if e.Title != "This is a blog entry about my new, awesome guitar" || e.Body != "this is a cool entry. etc etc yada yada" {
		t.Fatalf("title or body not trimmed: %q %q", e.Title, e.Body)
	}
	if !slices.Equal(e.Tags, []string{"guitar", "life", "music"}) {
		t.Fatalf("tags = %v, want guitar, life, music", e.Tags)
	}
	if !model.IsTimeUUID(e.ID) || domain.TimeUUIDMicros(e.ID) != e.PublishedAt.UnixMicro() {
		t.Fatalf("ID %s does not carry the publish time %v", e.ID, e.PublishedAt)
	}
	v, err := svc.GetEntry(c, slug)
	if err != nil || !sameEntry(v.Entry, e) {
		t.Fatalf("GetEntry = %+v, %v; want %+v", v, err, e)
	}
	if v.AuthorProfile.Name != author.Name || !maps.Equal(v.AuthorProfile.Profile, profile) || v.AuthorProfile.Posts != 1 {
		t.Fatalf("GetEntry's author = %+v, want the profile with 1 post", v.AuthorProfile)
	}
	for _, tag := range []string{blog.NoTag, "guitar", "life", "music"} {
		if got := mustTagged(t, s, tag); len(got) != 1 || got[0] != (model.TagRef{ID: e.ID, Slug: slug}) {
			t.Fatalf("TaggedPosts[%q] = %v, want the one column (ID -> slug)", tag, got)
		}
	}
	for _, tag := range []string{"", blog.NoTag, "guitar", "Guitar", "music"} {
		got := mustEntries(t, svc, tag)
		if len(got) != 1 || !sameEntry(got[0].Entry, e) || !maps.Equal(got[0].AuthorProfile.Profile, profile) {
			t.Fatalf("Entries(%q) = %v, want the entry with its author's profile", tag, viewSlugs(got))
		}
	}
	if got := mustEntries(t, svc, "movie"); len(got) != 0 {
		t.Fatalf("Entries(movie) = %v, want none", viewSlugs(got))
	}
	when := time.Date(2009, 8, 18, 1, 13, 24, 0, time.UTC)
	old := mustPublish(t, svc, blog.Draft{Slug: slugOf("backdated"), Author: author.Name, PublishedAt: when})
	if !old.PublishedAt.Equal(when) || domain.TimeUUIDMicros(old.ID) != when.UnixMicro() || len(old.Tags) != 0 {
		t.Fatalf("backdated entry = %+v", old)
	}
	if got := mustEntries(t, svc, ""); !slices.Equal(viewSlugs(got), []string{slug, old.Slug}) {
		t.Fatalf("all entries = %v, want the new one, then the backdated one", viewSlugs(got))
	}
	if got := mustEntries(t, svc, "guitar"); len(got) != 1 {
		t.Fatalf("an untagged entry appeared under guitar: %v", viewSlugs(got))
	}
}

func testConcurrentPublish(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	svc := blogService(s, nil)
	author := mustAuthor(t, svc, authorOf("Arin Sarkissian"), nil)
	slug, tag := slugOf("popular"), slugOf("guitar")
	const n = 20
	ids := make([]uuid.UUID, n)
	winner := exactlyOneWins(t, "publishes", n, domain.ErrAlreadyExists, func(i int) error {
		e, err := svc.Publish(c, blog.Draft{Slug: slug, Title: fmt.Sprintf("attempt %d", i), Body: "body", Author: author.Name, Tags: []string{tag}})
		ids[i] = e.ID
		return err
	})
	id := ids[winner]
	if v, err := svc.GetEntry(c, slug); err != nil || v.ID != id || v.AuthorProfile.Posts != 1 {
		t.Fatalf("GetEntry = %+v, %v; want the winner %s and 1 post", v, err, id)
	}
	for _, row := range []string{tag, blog.NoTag} {
		if got := mustTagged(t, s, row); !slices.Equal(refIDs(got), []uuid.UUID{id}) {
			t.Fatalf("TaggedPosts[%q] = %v, want only the winner", row, refIDs(got))
		}
	}
}

type entryPager func(start string) (blog.EntryPage, error)

// walkEntries pages through a listing with walkPages.
func walkEntries(t *testing.T, limit int, page entryPager) (all []blog.EntryView, pages int) {
	t.Helper()
	return walkPages(t, limit, func(start string) ([]blog.EntryView, string, error) {
		p, err := page(start)
		return p.Entries, p.Next, err
	})
}

func testTagPaging(t *testing.T, newStores BlogFactory) {
	const limit = 5
	for _, n := range []int{0, limit - 1, limit, limit + 1, 2 * limit} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := newStores(t)
			svc := blogService(s, nil)
			author := mustAuthor(t, svc, authorOf("Pager"), nil)
			tag := slugOf("tag")
			want := publishN(t, svc, author.Name, n, tag)
			for _, listing := range []string{tag, "", blog.NoTag} {
				got, pages := walkEntries(t, limit, func(st string) (blog.EntryPage, error) { return svc.Entries(ctx(t), listing, st, limit) })
				if !slices.Equal(viewIDs(got), entryIDs(want)) {
					t.Fatalf("Entries(%q): paged %d entries, want %d, newest first, no gaps or duplicates", listing, len(got), len(want))
				}
				checkPageCount(t, fmt.Sprintf("entries of %q", listing), n, limit, pages)
			}
		})
	}
}

func testCommentPaging(t *testing.T, newStores BlogFactory) {
	const limit = 5
	for _, n := range []int{0, limit - 1, limit, limit + 1, 2 * limit} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s, c := newStores(t), ctx(t)
			svc := blogService(s, nil)
			author := mustAuthor(t, svc, authorOf("Pager"), nil)
			e := mustPublish(t, svc, blog.Draft{Slug: slugOf("commented"), Author: author.Name})
			var want []uuid.UUID
			for i := 0; i < n; i++ {
				cm, err := svc.Comment(c, e.Slug, blog.CommentDraft{Name: fmt.Sprintf("Commenter %d", i), Text: fmt.Sprintf("comment %d", i)})
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, cm.ID)
			}
			comments, pages := walkPages(t, limit, func(start string) ([]blog.Comment, string, error) {
				p, err := svc.Comments(c, e.Slug, start, limit)
				return p.Comments, p.Next, err
			})
			got := commentIDs(comments)
			if !slices.Equal(got, want) {
				t.Fatalf("paged %d comments, want %d, oldest first, no gaps or duplicates", len(got), len(want))
			}
			checkPageCount(t, "comments", n, limit, pages)
		})
	}
}

func testBlogSameMicrosecond(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	svc := blogService(s, frozenClock{t: time.Date(2010, 3, 10, 12, 0, 0, 0, time.UTC)})
	author := mustAuthor(t, svc, authorOf("Arin Sarkissian"), nil)
	e1 := mustPublish(t, svc, blog.Draft{Slug: slugOf("first"), Author: author.Name, Tags: []string{"guitar"}})
	e2 := mustPublish(t, svc, blog.Draft{Slug: slugOf("second"), Author: author.Name, Tags: []string{"guitar"}})
	if e1.ID == e2.ID || !e2.PublishedAt.After(e1.PublishedAt) {
		t.Fatalf("two entries of one clock microsecond share a name or an order: %v %v", e1.ID, e2.ID)
	}
	for _, tag := range []string{"guitar", ""} {
		if got := mustEntries(t, svc, tag); !slices.Equal(viewIDs(got), []uuid.UUID{e2.ID, e1.ID}) {
			t.Fatalf("Entries(%q) = %v, want both, the second first", tag, viewSlugs(got))
		}
	}
	c1, err := svc.Comment(c, e1.Slug, blog.CommentDraft{Name: "Joe Blow", Text: "first"})
	if err != nil {
		t.Fatal(err)
	}
	c2, err := svc.Comment(c, e1.Slug, blog.CommentDraft{Name: "Some Dude", Text: "second, same microsecond on the clock"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Comments(c, e1.Slug, "", 10)
	if err != nil || !slices.Equal(commentIDs(p.Comments), []uuid.UUID{c1.ID, c2.ID}) {
		t.Fatalf("comments = %v, %v; want both, oldest first", commentIDs(p.Comments), err)
	}
}

func testDelete(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	svc := blogService(s, nil)
	author := mustAuthor(t, svc, authorOf("Arin Sarkissian"), nil)
	x, y, z := slugOf("x"), slugOf("y"), slugOf("z")
	a := mustPublish(t, svc, blog.Draft{Slug: slugOf("a"), Author: author.Name, Tags: []string{x, y}})
	b := mustPublish(t, svc, blog.Draft{Slug: slugOf("b"), Author: author.Name, Tags: []string{x}})
	cc := mustPublish(t, svc, blog.Draft{Slug: slugOf("c"), Author: author.Name, Tags: []string{y, z}})
	for _, slug := range []string{a.Slug, a.Slug, b.Slug} {
		if _, err := svc.Comment(c, slug, blog.CommentDraft{Name: "Joe Blow", Email: "joeb@example.com", Text: "you're a dumb douche"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.DeleteEntry(c, a.Slug); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.GetEntry(c, a.Slug); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("GetEntry(deleted) err = %v, want ErrNotFound", err)
	}
	if _, err := svc.Comments(c, a.Slug, "", 10); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("Comments(deleted) err = %v, want ErrNotFound", err)
	}
	if got := mustCommentRow(t, s, a.Slug); len(got) != 0 {
		t.Fatalf("the deleted entry's comment row holds %d", len(got))
	}
	for _, tag := range []string{x, y, blog.NoTag} {
		if got := mustTagged(t, s, tag); slices.Contains(refIDs(got), a.ID) {
			t.Fatalf("TaggedPosts[%q] still names the deleted entry", tag)
		}
	}
	wantLists := map[string][]string{x: {b.Slug}, y: {cc.Slug}, z: {cc.Slug}, "": {cc.Slug, b.Slug}}
	for tag, want := range wantLists {
		if got := mustEntries(t, svc, tag); !slices.Equal(viewSlugs(got), want) {
			t.Fatalf("after delete, Entries(%q) = %v, want %v", tag, viewSlugs(got), want)
		}
	}
	if p, err := svc.Comments(c, b.Slug, "", 10); err != nil || len(p.Comments) != 1 {
		t.Fatalf("comments of another entry = %d, %v; want 1", len(p.Comments), err)
	}
	if got, _ := svc.GetAuthor(c, author.Name); got.Posts != 2 {
		t.Fatalf("posts after delete = %d, want 2", got.Posts)
	}
	if err := svc.DeleteEntry(c, a.Slug); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a second delete err = %v, want ErrNotFound", err)
	}
	again := mustPublish(t, svc, blog.Draft{Slug: a.Slug, Author: author.Name, Tags: []string{z}})
	if got := mustEntries(t, svc, z); !slices.Equal(viewIDs(got), []uuid.UUID{again.ID, cc.ID}) {
		t.Fatalf("republished slug: Entries(z) = %v", viewSlugs(got))
	}
	if got := mustEntries(t, svc, x); !slices.Equal(viewSlugs(got), []string{b.Slug}) {
		t.Fatalf("republished slug appeared under its old tag: %v", viewSlugs(got))
	}
	if p, err := svc.Comments(c, a.Slug, "", 10); err != nil || len(p.Comments) != 0 {
		t.Fatalf("republished slug inherited %d comments (%v)", len(p.Comments), err)
	}
}

func testConcurrentDelete(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	svc := blogService(s, nil)
	author := mustAuthor(t, svc, authorOf("Arin Sarkissian"), nil)
	keep := mustPublish(t, svc, blog.Draft{Slug: slugOf("keep"), Author: author.Name, Tags: []string{"guitar"}})
	gone := mustPublish(t, svc, blog.Draft{Slug: slugOf("gone"), Author: author.Name, Tags: []string{"guitar"}})
	exactlyOneWins(t, "deletes", 10, domain.ErrNotFound, func(int) error { return svc.DeleteEntry(c, gone.Slug) })
	if got, _ := svc.GetAuthor(c, author.Name); got.Posts != 1 {
		t.Fatalf("posts = %d after one delete of two entries, want 1", got.Posts)
	}
	if got := mustEntries(t, svc, "guitar"); !slices.Equal(viewIDs(got), []uuid.UUID{keep.ID}) {
		t.Fatalf("Entries(guitar) = %v, want only the kept entry", viewSlugs(got))
	}
}

func testAuthorProfile(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	svc := blogService(s, nil)
	name := authorOf("Arin Sarkissian")
	a := mustAuthor(t, svc, name, map[string]string{"twitter": "phatduckk", "email": "arin@example.com", "bio": "bla bla bla"})
	if a.Name != name || a.Posts != 0 || a.Profile["twitter"] != "phatduckk" {
		t.Fatalf("PutAuthor = %+v", a)
	}
	other := mustAuthor(t, svc, authorOf("Author 2"), map[string]string{"bio": "the other one"})
	es := publishN(t, svc, name, 3, "guitar")
	mustPublish(t, svc, blog.Draft{Slug: slugOf("by-other"), Author: other.Name, Tags: []string{"guitar"}})
	updated := map[string]string{"twitter": "phatduckk", "home_page": "http://arin.me"}
	a = mustAuthor(t, svc, name, updated)
	if !maps.Equal(a.Profile, updated) || a.Posts != 3 {
		t.Fatalf("after an update, author = %+v; want the new profile only and 3 posts", a)
	}
	v, err := svc.GetEntry(c, es[0].Slug)
	if err != nil || !maps.Equal(v.AuthorProfile.Profile, updated) || v.AuthorProfile.Posts != 3 {
		t.Fatalf("GetEntry's author = %+v, %v", v.AuthorProfile, err)
	}
	for _, e := range mustEntries(t, svc, "guitar") {
		want := updated
		if e.Author == other.Name {
			want = other.Profile
		}
		if e.AuthorProfile.Name != e.Author || !maps.Equal(e.AuthorProfile.Profile, want) {
			t.Fatalf("listing shows %q with author %+v", e.Slug, e.AuthorProfile)
		}
	}
	if err := svc.DeleteEntry(c, es[1].Slug); err != nil {
		t.Fatal(err)
	}
	if got, err := svc.GetAuthor(c, name); err != nil || got.Posts != 2 || !maps.Equal(got.Profile, updated) {
		t.Fatalf("after a delete, author = %+v, %v; want 2 posts", got, err)
	}
	if got, _ := svc.GetAuthor(c, other.Name); got.Posts != 1 {
		t.Fatalf("the other author's posts = %d, want 1", got.Posts)
	}
}

func testDangling(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	svc := blogService(s, nil)
	author := mustAuthor(t, svc, authorOf("Arin Sarkissian"), nil)
	es := publishN(t, svc, author.Name, 2, "guitar")
	later := time.Now().Add(time.Hour).UnixMicro()
	// A column naming an entry that does not exist, and one naming an existing slug under an ID
	// that is not its entry's (left by a delete cut short before the slug was published again).
	if err := s.Tags.AddTagged(c, domain.NewTimeUUID(later), slugOf("ghost"), blog.NoTag, "guitar"); err != nil {
		t.Fatal(err)
	}
	if err := s.Tags.AddTagged(c, domain.NewTimeUUID(later+1), es[1].Slug, blog.NoTag, "guitar"); err != nil {
		t.Fatal(err)
	}
	for _, tag := range []string{"", "guitar"} {
		if got := mustEntries(t, svc, tag); !slices.Equal(viewIDs(got), entryIDs(es)) {
			t.Fatalf("Entries(%q) = %v, want the two real entries once each", tag, viewSlugs(got))
		}
	}
}

func testBlogNotFound(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	svc := blogService(s, nil)
	author := mustAuthor(t, svc, authorOf("Arin Sarkissian"), nil)
	e := mustPublish(t, svc, blog.Draft{Slug: slugOf("real"), Author: author.Name, Tags: []string{"guitar"}})
	ghostSlug := slugOf("ghost")
	checks := []struct {
		what string
		err  error
		want error
	}{
		{"publish by unknown author", second(svc.Publish(c, blog.Draft{Slug: ghostSlug, Title: "t", Body: "b", Author: authorOf("Nobody"), Tags: []string{"guitar"}})), domain.ErrNotFound},
		{"publish a taken slug", second(svc.Publish(c, blog.Draft{Slug: e.Slug, Title: "t", Body: "b", Author: author.Name, Tags: []string{"movie"}})), domain.ErrAlreadyExists},
		{"get unknown entry", second(svc.GetEntry(c, ghostSlug)), domain.ErrNotFound},
		{"comment on unknown entry", second(svc.Comment(c, ghostSlug, blog.CommentDraft{Name: "Joe Blow", Text: "hi"})), domain.ErrNotFound},
		{"comments of unknown entry", second(svc.Comments(c, ghostSlug, "", 10)), domain.ErrNotFound},
		{"delete unknown entry", svc.DeleteEntry(c, ghostSlug), domain.ErrNotFound},
		{"get unknown author", second(svc.GetAuthor(c, authorOf("Nobody"))), domain.ErrNotFound},
	}
	for _, ch := range checks {
		if !errors.Is(ch.err, ch.want) {
			t.Errorf("%s: err = %v, want %v", ch.what, ch.err, ch.want)
		}
	}
	if _, err := s.Entries.GetEntry(c, ghostSlug); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a refused publish stored its entry: %v", err)
	}
	if got := mustCommentRow(t, s, ghostSlug); len(got) != 0 {
		t.Fatalf("a refused comment was stored")
	}
	for _, tag := range []string{blog.NoTag, "guitar", "movie"} {
		if got := mustTagged(t, s, tag); len(got) > 1 || (len(got) == 1 && got[0].ID != e.ID) {
			t.Fatalf("refused publishes left columns in TaggedPosts[%q]: %v", tag, got)
		}
	}
	if v, err := svc.GetEntry(c, e.Slug); err != nil || !sameEntry(v.Entry, e) || v.AuthorProfile.Posts != 1 {
		t.Fatalf("after a refused duplicate, GetEntry = %+v, %v; want the original and 1 post", v, err)
	}
}

func testBlogValidation(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	svc := blogService(s, nil)
	profile := map[string]string{"twitter": "phatduckk"}
	author := mustAuthor(t, svc, authorOf("Arin Sarkissian"), profile)
	existing := mustPublish(t, svc, blog.Draft{Slug: slugOf("existing"), Author: author.Name})

	slug := slugOf("refused")
	draft := func(edit func(*blog.Draft)) blog.Draft {
		d := blog.Draft{Slug: slug, Title: "A title", Body: "A body", Author: author.Name, Tags: []string{"guitar"}}
		edit(&d)
		return d
	}
	elevenTags := make([]string, 11)
	for i := range elevenTags {
		elevenTags[i] = fmt.Sprintf("tag%d", i)
	}
	manyAttrs := map[string]string{}
	for i := 0; i < model.MaxProfileAttrs+1; i++ {
		manyAttrs[fmt.Sprintf("attr%d", i)] = "v"
	}
	publishes := []struct {
		what  string
		field string
		d     blog.Draft
	}{
		{"empty slug", "slug", draft(func(d *blog.Draft) { d.Slug = "" })},
		{"uppercase slug", "slug", draft(func(d *blog.Draft) { d.Slug = "I-Got-A-New-Guitar" })},
		{"double hyphen", "slug", draft(func(d *blog.Draft) { d.Slug = "new--guitar" })},
		{"leading hyphen", "slug", draft(func(d *blog.Draft) { d.Slug = "-guitar" })},
		{"trailing hyphen", "slug", draft(func(d *blog.Draft) { d.Slug = "guitar-" })},
		{"slug with space", "slug", draft(func(d *blog.Draft) { d.Slug = "new guitar" })},
		{"slug with underscore", "slug", draft(func(d *blog.Draft) { d.Slug = "new_guitar" })},
		{"slug of 101", "slug", draft(func(d *blog.Draft) { d.Slug = strings.Repeat("a", 101) })},
		{"reserved tag", "tags", draft(func(d *blog.Draft) { d.Tags = []string{"guitar", blog.NoTag} })},
		{"empty tag", "tags", draft(func(d *blog.Draft) { d.Tags = []string{" "} })},
		{"tag with comma", "tags", draft(func(d *blog.Draft) { d.Tags = []string{"life,guitar"} })},
		{"tag with space", "tags", draft(func(d *blog.Draft) { d.Tags = []string{"new guitar"} })},
		{"tag with underscore", "tags", draft(func(d *blog.Draft) { d.Tags = []string{"_guitar"} })},
		{"tag with leading hyphen", "tags", draft(func(d *blog.Draft) { d.Tags = []string{"-guitar"} })},
		{"tag of 31", "tags", draft(func(d *blog.Draft) { d.Tags = []string{strings.Repeat("t", 31)} })},
		{"11 tags", "tags", draft(func(d *blog.Draft) { d.Tags = elevenTags })},
		{"empty title", "title", draft(func(d *blog.Draft) { d.Title = " \t " })},
		{"title of 201", "title", draft(func(d *blog.Draft) { d.Title = strings.Repeat("é", 201) })},
		{"empty body", "body", draft(func(d *blog.Draft) { d.Body = "\n \n" })},
		{"body of 20001 bytes", "body", draft(func(d *blog.Draft) { d.Body = strings.Repeat("a", 20001) })},
		{"body not UTF-8", "body", draft(func(d *blog.Draft) { d.Body = "caf\xe9" })},
		{"empty author", "author", draft(func(d *blog.Draft) { d.Author = "" })},
		{"author of 101", "author", draft(func(d *blog.Draft) { d.Author = strings.Repeat("é", 101) })},
		{"author with spaces around", "author", draft(func(d *blog.Draft) { d.Author = " " + author.Name })},
		{"author with a control character", "author", draft(func(d *blog.Draft) { d.Author = "Arin\nSarkissian" })},
		{"published before 1970", "published_at", draft(func(d *blog.Draft) { d.PublishedAt = time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC) })},
	}
	for _, p := range publishes {
		checkInvalid(t, "publish: "+p.what, p.field, second(svc.Publish(c, p.d)))
	}
	comment := func(edit func(*blog.CommentDraft)) blog.CommentDraft {
		d := blog.CommentDraft{Name: "Joe Blow", Email: "joeb@example.com", Text: "the godfather is the best movie ever"}
		edit(&d)
		return d
	}
	comments := []struct {
		what  string
		field string
		d     blog.CommentDraft
	}{
		{"empty text", "text", comment(func(d *blog.CommentDraft) { d.Text = "  " })},
		{"text of 2001", "text", comment(func(d *blog.CommentDraft) { d.Text = strings.Repeat("🎸", 2001) })},
		{"empty name", "name", comment(func(d *blog.CommentDraft) { d.Name = "" })},
		{"name of 61", "name", comment(func(d *blog.CommentDraft) { d.Name = strings.Repeat("é", 61) })},
		{"email without @", "email", comment(func(d *blog.CommentDraft) { d.Email = "joeb.example.com" })},
		{"email without a dot", "email", comment(func(d *blog.CommentDraft) { d.Email = "joeb@localhost" })},
		{"email with a space", "email", comment(func(d *blog.CommentDraft) { d.Email = "joe b@example.com" })},
		{"email of 255", "email", comment(func(d *blog.CommentDraft) { d.Email = strings.Repeat("j", 243) + "@example.com" })},
		{"time before 1970", "time", comment(func(d *blog.CommentDraft) { d.Time = time.Unix(-1, 0) })},
	}
	for _, cm := range comments {
		checkInvalid(t, "comment: "+cm.what, cm.field, second(svc.Comment(c, existing.Slug, cm.d)))
	}
	checkInvalid(t, "comment on a bad slug", "slug", second(svc.Comment(c, "Bad Slug", comment(func(*blog.CommentDraft) {}))))
	authors := []struct {
		what    string
		name    string
		profile map[string]string
	}{
		{"empty name", "", nil},
		{"name of 101", strings.Repeat("a", 101), nil},
		{"21 attributes", author.Name, manyAttrs},
		{"uppercase key", author.Name, map[string]string{"Twitter": "x"}},
		{"numPosts key", author.Name, map[string]string{"numPosts": "11"}},
		{"key starting with a digit", author.Name, map[string]string{"1st": "x"}},
		{"key of 31", author.Name, map[string]string{strings.Repeat("k", 31): "x"}},
		{"empty key", author.Name, map[string]string{"": "x"}},
		{"value of 501 bytes", author.Name, map[string]string{"bio": strings.Repeat("b", 501)}},
		{"value not UTF-8", author.Name, map[string]string{"bio": "\xff"}},
	}
	for _, a := range authors {
		field := "profile"
		if a.profile == nil {
			field = "author"
		}
		checkInvalid(t, "put author: "+a.what, field, second(svc.PutAuthor(c, a.name, a.profile)))
	}
	listings := []struct {
		what  string
		field string
		err   error
	}{
		{"bad tag", "tags", second(svc.Entries(c, "no spaces", "", 10))},
		{"limit 201", "limit", second(svc.Entries(c, "", "", 201))},
		{"limit -1", "limit", second(svc.Entries(c, "", "", -1))},
		{"garbage cursor", "start", second(svc.Entries(c, "", "not-a-cursor", 10))},
		{"a line's cursor", "start", second(svc.Entries(c, "", domain.EncodeLineCursor(time.Now().UnixMicro()), 10))},
		{"comments limit 201", "limit", second(svc.Comments(c, existing.Slug, "", 201))},
		{"comments garbage cursor", "start", second(svc.Comments(c, existing.Slug, "AAAA", 10))},
		{"get a bad slug", "slug", second(svc.GetEntry(c, "Bad Slug"))},
		{"delete a bad slug", "slug", svc.DeleteEntry(c, "bad_slug")},
		{"get a bad author", "author", second(svc.GetAuthor(c, ""))},
	}
	for _, l := range listings {
		checkInvalid(t, l.what, l.field, l.err)
	}

	// Nothing of a refused call was stored.
	if _, err := s.Entries.GetEntry(c, slug); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a refused publish stored its entry: %v", err)
	}
	if got := mustTagged(t, s, blog.NoTag); !slices.Equal(refIDs(got), []uuid.UUID{existing.ID}) {
		t.Fatalf("refused publishes left columns in TaggedPosts[__notag__]: %v", got)
	}
	if got := mustTagged(t, s, "guitar"); len(got) != 0 {
		t.Fatalf("refused publishes left columns in TaggedPosts[guitar]: %v", got)
	}
	if got := mustCommentRow(t, s, existing.Slug); len(got) != 0 {
		t.Fatalf("refused comments were stored: %d", len(got))
	}
	if a, err := svc.GetAuthor(c, author.Name); err != nil || !maps.Equal(a.Profile, profile) || a.Posts != 1 {
		t.Fatalf("refused puts changed the author: %+v, %v", a, err)
	}
	if _, err := s.Authors.GetAuthor(c, strings.Repeat("a", 101)); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a refused put created its author: %v", err)
	}

	// The limits themselves are accepted.
	tags := []string{strings.Repeat("t", 30)}
	for i := 0; i < model.MaxTags-1; i++ {
		tags = append(tags, fmt.Sprintf("tag%d", i))
	}
	tags = append(tags, "TAG0", " tag1 ") // repeats, once normalized
	longAuthor := mustAuthor(t, svc, strings.Repeat("é", model.MaxAuthorNameLen), fullProfile())
	e := mustPublish(t, svc, blog.Draft{
		Slug: strings.Repeat("a", model.MaxSlugLen), Title: strings.Repeat("é", model.MaxTitleLen),
		Body: strings.Repeat("b", model.MaxBodyBytes), Author: longAuthor.Name, Tags: tags,
	})
	if len(e.Tags) != model.MaxTags {
		t.Fatalf("tags = %v, want %d distinct", e.Tags, model.MaxTags)
	}
	cm, err := svc.Comment(c, e.Slug, blog.CommentDraft{
		Name: strings.Repeat("é", model.MaxCommenterLen), Email: strings.Repeat("j", 242) + "@example.com",
		Text: strings.Repeat("🎸", model.MaxCommentLen),
	})
	if err != nil {
		t.Fatalf("a comment at every limit: %v", err)
	}
	if got := mustCommentRow(t, s, e.Slug); len(got) != 1 || !sameComment(got[0], cm) {
		t.Fatalf("comment row = %+v, want the comment at every limit", got)
	}
	v, err := svc.GetEntry(c, e.Slug)
	if err != nil || !sameEntry(v.Entry, e) || !maps.Equal(v.AuthorProfile.Profile, fullProfile()) {
		t.Fatalf("the entry at every limit came back as %+v, %v", v.Entry.Slug, err)
	}
}

// fullProfile has the most attributes, each with the longest name and value.
func fullProfile() map[string]string {
	p := map[string]string{}
	for i := 0; i < model.MaxProfileAttrs; i++ {
		p[fmt.Sprintf("a%029d", i)] = strings.Repeat("v", model.MaxProfileValueLen)
	}
	return p
}

func checkInvalid(t *testing.T, what, field string, err error) {
	t.Helper()
	var ve *domain.ValidationError
	if !errors.Is(err, domain.ErrInvalid) || !errors.As(err, &ve) {
		t.Errorf("%s: err = %v, want a validation error", what, err)
		return
	}
	if ve.Field != field {
		t.Errorf("%s: the error names field %q, want %q (%v)", what, ve.Field, field, err)
	}
}

func testFixture(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	svc := blogService(s, nil)
	for i := 0; i < 2; i++ { // the second load changes nothing
		if err := blog.LoadFixture(c, svc); err != nil {
			t.Fatalf("LoadFixture #%d: %v", i+1, err)
		}
	}
	const (
		guitar = "i-got-a-new-guitar"
		cool   = "another-cool-guitar"
		scream = "scream-is-the-best-movie-ever"
	)
	lists := map[string][]string{
		"guitar": {cool, guitar},
		"":       {scream, cool, guitar},
		"movie":  {scream},
		"horror": {scream},
		"life":   {guitar},
		"music":  {guitar},
	}
	for tag, want := range lists {
		if got := mustEntries(t, svc, tag); !slices.Equal(viewSlugs(got), want) {
			t.Fatalf("Entries(%q) = %v, want %v", tag, viewSlugs(got), want)
		}
	}
	arin, err := svc.GetAuthor(c, "Arin Sarkissian")
	wantProfile := map[string]string{"twitter": "phatduckk", "email": "arin@example.com", "bio": "bla bla bla"}
	if err != nil || !maps.Equal(arin.Profile, wantProfile) || arin.Posts != 3 {
		t.Fatalf("Arin = %+v, %v; want his profile and 3 posts", arin, err)
	}
	v, err := svc.GetEntry(c, guitar)
	if err != nil || v.Title != "This is a blog entry about my new, awesome guitar" || v.Body != "this is a cool entry. etc etc yada yada" ||
		v.Author != "Arin Sarkissian" || !slices.Equal(v.Tags, []string{"guitar", "life", "music"}) || v.PublishedAt.Unix() != 1250558004 {
		t.Fatalf("GetEntry(%s) = %+v, %v", guitar, v.Entry, err)
	}
	type cm struct {
		name, email, text string
		unix              int64
	}
	wantComments := map[string][]cm{
		scream: {
			{"Joe Blow", "joeb@example.com", "you're a dumb douche, the godfather is the best movie ever", 1250438004},
			{"Some Dude", "sd@example.com", "be nice Joe Blow this isnt youtube", 1250557004},
		},
		guitar: {{"Johnny Guitar", "guitardude@example.com", "nice axe dawg...", 1250438004}},
		cool:   nil,
	}
	for slug, want := range wantComments {
		p, err := svc.Comments(c, slug, "", 10)
		if err != nil || len(p.Comments) != len(want) {
			t.Fatalf("Comments(%s) = %d, %v; want %d", slug, len(p.Comments), err, len(want))
		}
		for i, w := range want {
			got := p.Comments[i]
			if got.Name != w.name || got.Email != w.email || got.Text != w.text || got.Time.Unix() != w.unix {
				t.Fatalf("Comments(%s)[%d] = %+v, want %+v", slug, i, got, w)
			}
		}
	}
}

func testTagPagingUnderPublishes(t *testing.T, newStores BlogFactory) {
	s, c := newStores(t), ctx(t)
	svc := blogService(s, nil)
	author := mustAuthor(t, svc, authorOf("Busy"), nil)
	before := publishN(t, svc, author.Name, 23, "guitar")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := svc.Publish(c, blog.Draft{Slug: slugOf(fmt.Sprintf("concurrent-%d", i)), Title: "t", Body: "b", Author: author.Name, Tags: []string{"guitar"}}); err != nil {
				t.Errorf("concurrent publish: %v", err)
				return
			}
		}
	}()
	// The first page may include new entries; every later page continues strictly below the
	// cursor, so the entries that existed before must all appear exactly once, in order.
	for _, tag := range []string{"guitar", ""} {
		got, _ := walkEntries(t, 4, func(st string) (blog.EntryPage, error) { return svc.Entries(c, tag, st, 4) })
		seen := map[uuid.UUID]bool{}
		for i, e := range got {
			if seen[e.ID] {
				t.Fatalf("Entries(%q): %s appears twice", tag, e.Slug)
			}
			seen[e.ID] = true
			if i > 0 && !got[i-1].PublishedAt.After(e.PublishedAt) {
				t.Fatalf("Entries(%q): pages are not newest first at %d", tag, i)
			}
		}
		for _, e := range before {
			if !seen[e.ID] {
				t.Fatalf("Entries(%q): %s vanished while paging", tag, e.Slug)
			}
		}
	}
}
