package blog_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"twissandra/adapters/memory"
	"twissandra/domain/blog"
)

// EntriesBetween lists a tag's entries of a time range, newest first, and pages through them;
// the entries outside the range, before or after, never come back.
func TestEntriesBetween(t *testing.T) {
	t.Parallel()
	m := memory.NewBlog()
	s := blog.New(m, m, m, m, nil)
	ctx := context.Background()
	day := func(d int) time.Time { return time.Date(2009, 8, d, 12, 0, 0, 0, time.UTC) }
	for d, slug := range map[int]string{1: "one", 2: "two", 3: "three", 4: "four", 5: "five"} {
		tags := []string{"guitar"}
		if d%2 == 0 {
			tags = nil
		}
		if _, err := s.Publish(ctx, blog.Draft{Slug: slug, Title: slug, Body: "b", Author: "arin", Tags: tags, PublishedAt: day(d), NewAuthor: true}); err != nil {
			t.Fatal(err)
		}
	}
	slugs := func(p blog.EntryPage) []string {
		var out []string
		for _, e := range p.Entries {
			out = append(out, e.Slug)
		}
		return out
	}
	for _, tc := range []struct {
		tag            string
		oldest, newest time.Time
		want           []string
	}{
		{"", day(2), day(4), []string{"four", "three", "two"}},
		{blog.NoTag, day(2), day(4).Add(-time.Microsecond), []string{"three", "two"}},
		{"guitar", day(1), day(5), []string{"five", "three", "one"}},
		{"Guitar", day(2), day(4), []string{"three"}},
		{"", day(4), day(2), nil},
		{"movie", day(1), day(5), nil},
	} {
		p, err := s.EntriesBetween(ctx, tc.tag, tc.oldest, tc.newest, "", 10)
		if err != nil || !slices.Equal(slugs(p), tc.want) || p.Next != "" {
			t.Errorf("EntriesBetween(%q, %s, %s): %v next %q, %v; want %v", tc.tag, tc.oldest, tc.newest, slugs(p), p.Next, err, tc.want)
		}
	}
	// Two at a time: the pages join up.
	p, err := s.EntriesBetween(ctx, "", day(1), day(4), "", 2)
	if err != nil || !slices.Equal(slugs(p), []string{"four", "three"}) || p.Next == "" {
		t.Fatalf("first page: %v next %q, %v", slugs(p), p.Next, err)
	}
	p, err = s.EntriesBetween(ctx, "", day(1), day(4), p.Next, 2)
	if err != nil || !slices.Equal(slugs(p), []string{"two", "one"}) {
		t.Fatalf("second page: %v next %q, %v", slugs(p), p.Next, err)
	}
	if _, err := s.EntriesBetween(ctx, "no spaces allowed!", day(1), day(2), "", 2); err == nil {
		t.Error("a bad tag: no error")
	}
}
