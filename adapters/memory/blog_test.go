package memory_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/uuid"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/ports"
	"twissandra/ports/porttest"
)

var (
	_ ports.AuthorStore  = (*memory.BlogStore)(nil)
	_ ports.EntryStore   = (*memory.BlogStore)(nil)
	_ ports.TagIndex     = (*memory.BlogStore)(nil)
	_ ports.CommentStore = (*memory.BlogStore)(nil)
)

func TestBlogContract(t *testing.T) {
	porttest.RunBlog(t, func(t *testing.T) porttest.BlogStores {
		s := memory.NewBlog()
		return porttest.BlogStores{Authors: s, Entries: s, Tags: s, Comments: s}
	})
}

// failingIndex refuses every AddTagged, as a store that went away between two writes would.
type failingIndex struct{ *memory.BlogStore }

var errIndexDown = errors.New("index down")

func (failingIndex) AddTagged(context.Context, uuid.UUID, string, ...string) error {
	return fmt.Errorf("tagged posts: %w: %w", domain.ErrUnavailable, errIndexDown)
}

func TestPublishUndoesTheEntryWhenIndexingFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := memory.NewBlog()
	broken := blog.New(s, s, failingIndex{s}, s, nil)
	if _, err := broken.PutAuthor(ctx, "Arin Sarkissian", nil); err != nil {
		t.Fatal(err)
	}
	d := blog.Draft{Slug: "i-got-a-new-guitar", Title: "t", Body: "b", Author: "Arin Sarkissian", Tags: []string{"guitar"}}
	if _, err := broken.Publish(ctx, d); !errors.Is(err, domain.ErrUnavailable) {
		t.Fatalf("Publish with the index down: err = %v, want ErrUnavailable", err)
	}
	if _, err := s.GetEntry(ctx, d.Slug); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("the failed publish left its entry: %v", err)
	}
	if a, _ := s.GetAuthor(ctx, d.Author); a.Posts != 0 {
		t.Fatalf("the failed publish was counted: %d posts", a.Posts)
	}
	working := blog.New(s, s, s, s, nil)
	if _, err := working.Publish(ctx, d); err != nil {
		t.Fatalf("publishing again after the failure: %v", err)
	}
	if p, err := working.Entries(ctx, "guitar", "", 10); err != nil || len(p.Entries) != 1 {
		t.Fatalf("Entries(guitar) = %d, %v; want the republished entry", len(p.Entries), err)
	}
}
